# @kizu[ask]: a real scar at the top
defmodule Corpus do
  @moduledoc """
  Module doc
  # @kizu[ask]: not a scar, inside a heredoc
  """

  @query ~S"""
  SELECT *
  # @kizu[ask]: not a scar, inside a sigil heredoc
  """

  def plain do
    "one
    # @kizu[ask]: not a scar, inside a string
    two"
  end

  def add(a,
          b) do
    # @kizu[free]: a real scar in a function
    a + b
  end

  def query, do: @query
end
