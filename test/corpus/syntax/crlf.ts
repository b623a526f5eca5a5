// A TypeScript file with CRLF line endings.
// @kizu[ask]: a real scar above a constant
export const sql = `
SELECT 1
// @kizu[ask]: not a scar, inside a template (CRLF)
`;

export function f(
  a: number,
  b: number,
): number {
  return a +
    b;
}
