-- @kizu[ask]: a real scar at the top
CREATE TABLE notes (
  id integer PRIMARY KEY,
  body text NOT NULL
);

INSERT INTO notes (id, body) VALUES (1, 'first line
-- @kizu[ask]: not a scar, inside a quoted string
it''s the last line');

CREATE FUNCTION greet(who text) RETURNS text AS $$
BEGIN
  -- @kizu[ask]: not a scar, inside a dollar-quoted body
  RETURN 'hi ' || who;
END;
$$ LANGUAGE plpgsql;

CREATE FUNCTION tagged() RETURNS text AS $body$
  SELECT 'tagged
-- @kizu[ask]: not a scar either'
$body$ LANGUAGE sql;

/* a block comment /* nested
-- @kizu[ask]: not a scar, inside a nested block comment
*/ */
SELECT id,
  -- @kizu[reject]: a real scar in a query
  body
FROM notes;
