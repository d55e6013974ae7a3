// Package doccheck holds the tests that keep README.md and docs/ true to
// the code: the README's shape and table of contents, every link and
// repository path the documents name, the architecture document's
// package map against `go list`, the compatibility table against the
// operations the emulator answers, the curl examples run against a
// server, docs/embedding.md's steps run in a new module, and no figure
// tied to one machine. It has no code of its own.
package doccheck
