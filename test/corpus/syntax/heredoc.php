<?php
// @kizu[ask]: a real scar after the opening tag
$name = 'corpus';

$text = <<<EOT
Hello $name
// @kizu[ask]: not a scar, inside a heredoc
# @kizu[ask]: not a scar either
EOT;

$raw = <<<'RAW'
raw text
// @kizu[ask]: not a scar, inside a nowdoc
RAW;

$multi = 'one
// @kizu[ask]: not a scar, inside a single-quoted string
two';

/* a block comment
// @kizu[ask]: not a scar, inside a block comment
*/
function greet(
    string $who,
    int $times = 1
): string {
    # @kizu[free]: a real hash scar
    return str_repeat("Hi $who\n", $times);
}

echo greet($name), $text, $raw, $multi;
?>
<p
  class="out"
>done</p>
