// Multi-line tokens of JavaScript (a script: node --check reads it as CommonJS).
// @kizu[ask]: a real scar above the first statement
'use strict';

const sql = `
SELECT *
// @kizu[ask]: not a scar, inside a template literal
FROM t
`;

const nested = `outer ${`inner
// @kizu[ask]: inside a nested template
`} tail`;

/* a block comment
// @kizu[ask]: inside a block comment, not a scar
*/
const s = 'one \
// @kizu[ask]: inside a continued string \
two';

function f(a,
  b) {
  // @kizu[reject]: a real scar in a function
  return a +
    b;
}

const obj = {
  key: 1,
  other: `x
y`,
};
console.log(sql, nested, s, f(1, 2), obj);
