# @kizu[ask]: a real scar at the top
{ pkgs ? import <nixpkgs> { } }:

let
  script = ''
    echo hello
    # @kizu[ask]: not a scar, inside an indented string
    echo ''${HOME}
  '';
  plain = "one
  # @kizu[ask]: not a scar, inside a plain string
  two";
in
/* a block comment
# @kizu[ask]: not a scar, inside a block comment
*/
pkgs.mkShell {
  # @kizu[free]: a real scar in an attribute set
  name = "corpus";
  shellHook = script + plain;
  buildInputs = [
    pkgs.hello
  ];
}
