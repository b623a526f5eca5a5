use strict;
use warnings;

# @kizu[ask]: a real scar above the POD

=pod

# @kizu[ask]: not a scar, inside POD

=cut

my @lines = <DATA>;
print @lines;
__END__
data
# @kizu[ask]: not a scar, DATA text
