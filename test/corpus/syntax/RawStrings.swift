// Swift raw strings: the bundled grammar reads them only on the first parse of a process.
// @kizu[ask]: a real scar above a constant
let raw = #"""
    raw \n
    // @kizu[ask]: not a scar, inside a raw multi-line string
    """#

let line = #"a "quoted" word"#
print(raw + line)
