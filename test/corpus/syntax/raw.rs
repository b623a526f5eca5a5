//! Rust multi-line tokens.
// @kizu[ask]: a real scar above a const
const RAW: &str = r#"first
// @kizu[ask]: not a scar, inside a raw string
"quoted" last"#;

const PLAIN: &str = "one
// @kizu[ask]: not a scar, inside a plain string
two";

const CONT: &str = "three \
    four";

/* a block comment /* nested
// @kizu[ask]: not a scar, inside a nested block comment
*/ still comment */
#[derive(Debug,
    Clone)]
pub struct Point {
    // @kizu[free]: a real scar in a struct
    pub x: i32,
    pub y: i32,
}

pub fn describe(p: &Point) -> String {
    let bytes = br"raw bytes
// @kizu[ask]: not a scar, inside a raw byte string
";
    format!("{} {} {} {} {} {}", RAW, PLAIN, CONT, p.x,
        p.y, bytes.len())
}
