// Dart multi-line tokens.
import 'dart:core';

// @kizu[ask]: a real scar above a constant
const query = '''
SELECT *
// @kizu[ask]: not a scar, inside a triple-quoted string
FROM t
''';

const raw = r"""
raw $notInterpolated
// @kizu[ask]: not a scar, inside a raw triple-quoted string
""";

/* a block comment /* nested
// @kizu[ask]: not a scar, inside a nested block comment
*/ */
class Point {
  // @kizu[reject]: a real scar in a class
  final int x;
  final int y;
  const Point(this.x,
      this.y);
}

void main() {
  print('$query$raw${const Point(1, 2).x}');
}
