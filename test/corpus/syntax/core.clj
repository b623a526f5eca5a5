; @kizu[ask]: a real scar at the top
(ns corpus.core)

(def text "one
; @kizu[ask]: not a scar, inside a string
two")

(defn add
  "Adds two numbers.
  ; @kizu[ask]: not a scar, inside a docstring"
  [a b]
  ;; @kizu[reject]: a real double-semicolon scar
  (+ a b))

(def chars [\" \;])
