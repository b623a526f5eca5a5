# @kizu[ask]: a real scar at the top
$name = 'corpus'

$here = @"
Hello $name
# @kizu[ask]: not a scar, inside an expandable here-string
"@

$literal = @'
# @kizu[ask]: not a scar, inside a literal here-string
'@

<# a block comment
# @kizu[ask]: not a scar, inside a block comment
#>
$multi = "one
# @kizu[ask]: not a scar, inside a double-quoted string
two"

function Get-Greeting {
    # @kizu[reject]: a real scar in a function
    param([string]$Who)
    Write-Output "hi $Who" `
        -NoEnumerate
}

Write-Output $here $literal $multi (Get-Greeting -Who $name)
