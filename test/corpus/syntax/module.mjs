// An ES module with tagged templates, regular expressions and a multi-line call.
import { sep } from 'node:path';

const tag = (parts, ...values) => parts.raw.join('|') + values.join('|');
const out = tag`first ${sep}
// @kizu[ask]: not a scar, inside a tagged template
last`;

// @kizu[ask]: a real scar above an export
export const re = /\/\/ @kizu\[ask\]: in a regex/u;

export default function main() {
  return [
    out,
    re.source,
  ].join(
    '\n',
  );
}
