// TSX: generic components, template literals, multi-line props.
import type { ReactNode } from 'react';

type Props<T> = { rows: T[]; render: (row: T) => ReactNode };

export function Table<T,>({ rows, render }: Props<T>) {
  const css = `
    .table { color: red; }
// @kizu[ask]: not a scar, inside a TSX template literal
  `;
  return (
    <table
      className="grid"
      style={{ border: 0 }}
    >
      <style>{css}</style>
      {/* @kizu[free]: a real JSX comment scar */}
      {rows.map((row, i) => (
        <tr key={i}>{render(row)}</tr>
      ))}
    </table>
  );
}
