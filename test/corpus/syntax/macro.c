/* C multi-line tokens. */
// @kizu[ask]: a real scar above an include
#include <stddef.h>

extern int printf(const char *format, ...);

#define MAX(a, b) \
	((a) > (b) ? \
	 (a) : (b))

static const char *text = "one \
// @kizu[ask]: not a scar, inside a continued string \
two";

static const char *joined = "first "
	"second";

/* a block comment
// @kizu[ask]: not a scar, inside a block comment
*/
struct point {
	int x;
	// @kizu[reject]: a real scar in a struct
	int y;
};

int main(void)
{
	struct point p = {
		.x = 1,
		.y = 2,
	};
	printf("%s %s %d\n", text, joined,
	       MAX(p.x, p.y));
	return 0;
}
