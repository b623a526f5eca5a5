// C# 11 raw string literals: the bundled grammar does not know them.
public static class RawLiteral
{
    // @kizu[ask]: a real scar above a constant
    public const string Raw = """
        raw "quoted"
        // @kizu[ask]: not a scar, inside a raw string literal
        """;
}
