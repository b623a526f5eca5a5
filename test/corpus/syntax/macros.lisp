; @kizu[ask]: a real scar at the top
(defpackage :corpus (:use :cl))
(in-package :corpus)

(defparameter *text* "one
; @kizu[ask]: not a scar, inside a string
two")

#| a block comment
; @kizu[ask]: not a scar, inside a block comment
|#
(defun add (a b)
  ;; @kizu[free]: a real scar in a function
  (+ a b))

(defparameter *chars* (list #\" #\;))
