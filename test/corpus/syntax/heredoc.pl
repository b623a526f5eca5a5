#!/usr/bin/perl
# @kizu[ask]: a real scar below the interpreter line
use strict;
use warnings;

my $name = 'corpus';
my $text = <<"EOT";
Hello $name
# a comment-shaped line inside an interpolating heredoc
EOT

my $raw = <<'RAW';
raw $name
# @kizu[ask]: not a scar, inside a quoted heredoc
RAW

my $multi = 'one
# @kizu[ask]: not a scar, inside a single-quoted string
two';

my $q = q{
# @kizu[ask]: not a scar, inside q{}
};

my @list = qw(
  alpha
  beta
);

sub greet {
    # @kizu[free]: a real scar in a sub
    my ($who) = @_;
    return "hi $who\n";
}

print $text, $raw, $multi, $q, join(',', @list), greet($name);
