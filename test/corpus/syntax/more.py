# More Python: bytes, raw f-strings, decorators, match, continued strings.
import functools

DATA = b"""bytes
# @kizu[ask]: not a scar, inside a bytes literal
"""

PATTERN = rf'''{DATA!r}
# @kizu[ask]: not a scar, inside a raw f-string
\d+'''

CONT = 'one \
# @kizu[ask]: not a scar, inside a backslash-continued string \
two'


@functools.lru_cache(
    maxsize=None,
)
def shape(value):
    # @kizu[reject]: a real scar in a decorated function
    match value:
        case {"kind": "point",
              "x": x}:
            return x
        case _:
            return None


squares = {
    n: n * n
    for n in range(3)
    if n
}

# a comment ending in a backslash does not continue \
limit = 3

with open(__file__) as a, \
        open(__file__) as b:
    same = a.read() == b.read()

print(DATA, PATTERN, CONT, shape({"kind": "point", "x": 1}), squares, same)
