{-# LANGUAGE QuasiQuotes #-}
-- @kizu[ask]: a real scar at the top
module Strings where

{- a block comment {- nested
-- @kizu[ask]: not a scar, inside a nested block comment
-} -}
gap :: String
gap = "one \
      \two"

data Point = Point
  { x :: Int
  -- @kizu[reject]: a real scar in a record
  , y :: Int
  }

add :: Int
    -> Int
    -> Int
add a b = a + b

query :: String
query = [sql|
  SELECT 1
  -- @kizu[ask]: not a scar, inside a quasiquote
|]
