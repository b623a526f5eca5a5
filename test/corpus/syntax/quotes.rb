# @kizu[ask]: a real scar at the top
require 'set'

TEXT = %q(first
# @kizu[ask]: not a scar, inside a %q string
last)

HERE = <<~EOS
  heredoc
  # @kizu[ask]: not a scar, inside a squiggly heredoc
EOS

plain = "double
# @kizu[ask]: not a scar, inside a double-quoted string
quoted"

=begin
# @kizu[ask]: not a scar, inside an embedded document
=end

class Greeter
  # @kizu[reject]: a real scar in a class
  def initialize(name,
                 greeting: 'hi')
    @name = name
    @greeting = greeting
  end

  def to_s
    words = %w[
      a
      b
    ]
    "#{@greeting} #{@name} #{words.join}"
  end
end

puts TEXT, HERE, plain, Greeter.new('x').to_s, Set.new([1]).size
