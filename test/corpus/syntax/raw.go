// Package corpus holds Go multi-line tokens.
package corpus

import (
	"fmt"
	"strings"
)

// @kizu[ask]: a real scar above a const
const query = `
SELECT *
// @kizu[ask]: not a scar, inside a raw string
FROM t
`

/* a block comment
// @kizu[ask]: not a scar, inside a block comment
*/
type Point struct {
	X, Y int
	Tag  string `json:"tag"`
}

func Describe(p Point,
	sep string) string {
	// @kizu[reject]: a real scar in a function
	parts := []string{
		fmt.Sprint(p.X),
		fmt.Sprint(p.Y),
	}
	return strings.Join(parts, sep) + query
}
