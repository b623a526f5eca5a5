// Zig multi-line tokens.
const std = @import("std");

// @kizu[ask]: a real scar above a constant
const query =
    \\SELECT *
    \\// @kizu[ask]: not a scar, inside a multi-line string
    \\FROM t
;

const Point = struct {
    // @kizu[free]: a real scar in a struct
    x: i32,
    y: i32,
};

pub fn main() void {
    const p = Point{
        .x = 1,
        .y = 2,
    };
    std.debug.print("{s} {d}\n", .{ query, p.x + p.y });
}
