// Scala multi-line tokens.
package corpus

// @kizu[ask]: a real scar above an object
object Strings {
  val query: String = """
    SELECT *
    // @kizu[ask]: not a scar, inside a triple-quoted string
    FROM t
  """

  val interpolated: String = s"""
    ${query.length}
    // @kizu[ask]: not a scar, inside an interpolated string
  """

  /* a block comment /* nested
  // @kizu[ask]: not a scar, inside a nested block comment
  */ */
  def sum(a: Int,
          b: Int): Int = {
    // @kizu[free]: a real scar in a method
    a + b
  }
}
