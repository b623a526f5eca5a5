-- @kizu[ask]: a real scar at the top
local query = [[
SELECT *
-- @kizu[ask]: not a scar, inside a long string
FROM t
]]

local level = [==[
a ]] inside
-- @kizu[ask]: not a scar, inside a level-2 long string
]==]

--[[ a block comment
-- @kizu[ask]: not a scar, inside a long comment
]]
local function add(a,
                   b)
  -- @kizu[free]: a real scar in a function
  return a + b
end

local cont = "one\
two"

print(query, level, add(1, 2), cont)
