#!/usr/bin/env bash
# @kizu[ask]: a real scar below the interpreter line
set -eu

name="corpus"
echo "multi
# @kizu[ask]: not a scar, inside a double-quoted string
line $name"

echo 'single
# @kizu[ask]: not a scar, inside a single-quoted string
quoted'

cat <<EOF2
here $name
# @kizu[ask]: not a scar, inside a here-document
EOF2

cat <<-'RAW'
	raw $name
	# @kizu[ask]: not a scar, inside a quoted here-document
	RAW

printf '%s\n' one \
  two \
  three

greet() {
  # @kizu[free]: a real scar in a function
  local who=$1
  echo "hi $who"
}

if [ -n "$name" ]; then
  greet "$name"
fi

case "$name" in
  corpus)
    echo matched
    ;;
esac

echo "$(printf '%s' "sub
# @kizu[ask]: not a scar, inside a command substitution string
shell")"
