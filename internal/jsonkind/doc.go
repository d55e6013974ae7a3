// Package jsonkind names a raw JSON value's type as an error message says
// it ("an object", "a string", "null"): the capture format's reader and
// the design readers of internal/insights word their errors with it.
//
// It is a leaf (nothing but the standard library's bytes) so that a
// package which only words an error does not link the package that
// reads the value: the server links insights but not internal/capture.
package jsonkind
