// JSX text over lines: JSX joins its lines with a space, so a {/* */} between them would
// split the text ("text over two lines" would render as "text overtwo lines").
export const Note = ({ who }) => (
  <p
    title="first
// @kizu[ask]: not a scar, inside a JSX attribute string
last"
  >
    text over
    two lines
    {/* @kizu[ask]: a real JSX comment scar */}
    <b>{who}</b>
  </p>
);
