#!/bin/sh
# More shell: arrays, ANSI-C strings, backticks, here-strings, && chains.
words="
alpha
# @kizu[ask]: not a scar, inside a multi-line assignment
beta"

joined=`printf '%s' one \
  two`

printf '%s\n' "$words" "$joined"

if true &&
  # @kizu[free]: a real scar after &&
  true; then
  echo chained
fi

total=$((1 +
  2 * (3 +
  4)))

if [[ -n "$total" &&
  # @kizu[ask]: a real scar inside [[ ]] after &&
  -n "$words" ]]; then
  echo "$total"
fi

for w in one \
  two; do
  echo "$w"
done

{
  echo grouped
  # @kizu[ask]: a real scar in a group
  echo done
} | cat

cat <<'A' | cat
body
# @kizu[ask]: not a scar, inside a piped here-document
A
