// Package doccheck holds the tests that keep README.md and docs/ true to
// the code: the README's shape and table of contents, every link and
// repository path the documents name, the architecture document's
// package map against `go list`, the compatibility table against the
// operations the emulator answers, the curl examples run against a
// server, docs/embedding.md's steps run in a new module, the blocks
// marked runnable run as written (commands_test.go: dynamoemu command
// lines start servers that listen and stop cleanly, the AWS CLI's lines
// run against them, the blocks that build Go commands only with
// DYNAMOEMU_HEAVY_TESTS; the JS blocks so marked run in npm/test.sh), and no
// figure tied to one machine. It has no code of its own.
package doccheck
