// C++ multi-line tokens.
// @kizu[ask]: a real scar above a template
template <typename T>
T twice(T v) { return v + v; }

const char *raw = R"(first
// @kizu[ask]: not a scar, inside a raw string
last)";

const char *delim = R"xy(a )" b
/* @kizu[ask]: not a scar, inside a delimited raw string */
)xy";

#define SQUARE(x) \
	((x) * (x))

namespace corpus {
class Box {
public:
	// @kizu[free]: a real scar in a class
	explicit Box(int w,
	             int h) : w_(w), h_(h) {}
	int area() const { return w_ * h_; }

private:
	int w_, h_;
};
}  // namespace corpus

int main() {
	corpus::Box b(2, 3);
	return twice(b.area()) + SQUARE(2) + (raw[0] == delim[0]);
}
