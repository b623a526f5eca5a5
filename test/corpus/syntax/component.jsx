// JSX: elements, attributes over several lines, templates inside expressions.
import React from 'react';

export function Card({ title, items }) {
  const label = `card
// @kizu[ask]: not a scar, inside a template in JSX code
`;
  return (
    <section
      className="card"
      data-label={label}
    >
      {/* @kizu[ask]: a real JSX comment scar */}
      <h1>{title}</h1>
      // @kizu[ask]: JSX text, not a comment
      <ul>
        {items.map((item) => (
          <li key={item}>{item}</li>
        ))}
      </ul>
    </section>
  );
}
