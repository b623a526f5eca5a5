"""Module docstring
# @kizu[ask]: not a scar, inside the docstring
"""
# @kizu[ask]: a real scar above an import
import os

TEXT = """first
# @kizu[ask]: not a scar, inside a triple-quoted string
last"""

RAW = r'''raw
\d+
'''

total = 1 + \
    2

values = [
    1,
    # @kizu[free]: a real scar inside a list
    2,
]


def f(a,
      b):
    return f"""{a}
# @kizu[ask]: inside an f-string
{b}"""


class K:
    '''Class docstring.'''

    def m(self):
        return ("implicit "
                "concatenation")


print(TEXT, RAW, total, values, f(1, 2), os.sep, K().m())
