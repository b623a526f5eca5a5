// @kizu[ask]: a real scar at the top
module Corpus

let query = """
SELECT *
// @kizu[ask]: not a scar, inside a triple-quoted string
FROM t
"""

let verbatim = @"one
// @kizu[ask]: not a scar, inside a verbatim string
""two"""

(* a block comment (* nested
// @kizu[ask]: not a scar, inside a nested block comment
*) *)
let add a b =
    // @kizu[reject]: a real scar in a function
    a + b

let plain = "one
two"
