// Swift multi-line tokens.
import Foundation

// @kizu[ask]: a real scar above a constant
let query = """
    SELECT *
    // @kizu[ask]: not a scar, inside a multi-line string
    FROM t
    """

/* a block comment /* nested
// @kizu[ask]: not a scar, inside a nested block comment
*/ */
struct Point {
    // @kizu[reject]: a real scar in a struct
    var x: Int
    var y: Int
}

func describe(_ p: Point,
              separator: String) -> String {
    return "\(p.x)\(separator)\(p.y)" + query
}
