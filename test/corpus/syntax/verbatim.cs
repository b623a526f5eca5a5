// C# multi-line tokens.
using System;

namespace Corpus
{
    // @kizu[ask]: a real scar above a class
    public static class Texts
    {
        public const string Verbatim = @"first
// @kizu[ask]: not a scar, inside a verbatim string
""quoted"" last";

        /* a block comment
        // @kizu[ask]: not a scar, inside a block comment
        */
        public static string Describe(int x,
                                      int y)
        {
            // @kizu[reject]: a real scar in a method
            return $@"{x}
// @kizu[ask]: not a scar, inside an interpolated verbatim string
{y}" + Verbatim;
        }
    }
}
