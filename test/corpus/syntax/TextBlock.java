// Java multi-line tokens.
package corpus;

import java.util.List;

// @kizu[ask]: a real scar above a class
public class TextBlock {
    static final String QUERY = """
        SELECT *
        // @kizu[ask]: not a scar, inside a text block
        FROM t
        """;

    /* a block comment
    // @kizu[ask]: not a scar, inside a block comment
    */
    static final String JOINED = "first "
        + "second";

    @SuppressWarnings({
        "unchecked",
        "rawtypes"
    })
    static int sum(int a,
                   int b) {
        // @kizu[free]: a real scar in a method
        return a + b;
    }

    public static void main(String[] args) {
        List<String> all = List.of(QUERY, JOINED);
        System.out.println(all.size() + sum(1, 2));
    }
}
