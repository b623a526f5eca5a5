# Ruby's data section: everything after __END__ is DATA, not code.
# @kizu[ask]: a real scar above the code
puts DATA.read
__END__
data line
# @kizu[ask]: not a scar, DATA text
