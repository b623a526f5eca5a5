// Kotlin multi-line tokens.
package corpus

// @kizu[ask]: a real scar above a value
val query = """
    SELECT *
    // @kizu[ask]: not a scar, inside a raw string
    FROM t
""".trimIndent()

/* a block comment /* nested
// @kizu[ask]: not a scar, inside a nested block comment
*/ */
data class Point(
    val x: Int,
    // @kizu[free]: a real scar in a constructor
    val y: Int,
)

fun describe(p: Point): String {
    val name = "x=${p.x}"
    return """
        $name
        // @kizu[ask]: not a scar, inside a template raw string
        y=${p.y}
    """ + query
}
