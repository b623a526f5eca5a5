@echo off
REM @kizu[ask]: a real scar near the top
set NAME=corpus
echo one ^
two ^
three
:: a label comment
if "%NAME%"=="corpus" (
  REM @kizu[free]: a real scar in a block
  echo matched
)
echo "REM @kizu[ask]: not a scar, inside a one-line string"
