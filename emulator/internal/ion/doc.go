// Package ion reads and writes DynamoDB items as Amazon Ion text, the
// second format of DynamoDB's exports and imports (the first, DynamoDB
// JSON, is emulator/internal/wire's). An export writes a line per item
// (VersionMarker, AppendItem, AppendStoredItem straight from a stored
// record); an import reads a file's items back (ReadItems), each as
// DynamoDB JSON for wire.DecodeItem to check as any item.
//
// # Files
//
//   - write.go: AWS's mapping of DynamoDB's types to Ion, and the
//     appenders.
//   - read.go: the reader, of the text subset of Ion that exports and
//     imports use (Ion binary is not read).
//
// # Why not amazon-ion/ion-go
//
// Measured 2026-11-28 against ion-go v1.5.0 (its repository's newest
// tag), and not adopted:
//
//   - The Go module proxy does not serve it: `go list -m -versions
//     github.com/amazon-ion/ion-go` and `go list -m
//     github.com/amazon-ion/ion-go@v1.1.3` answer 403 "This module
//     version is not available", so neither a developer nor CI could
//     build with it. The figures below come from its source beside a
//     scratch copy of this tree (`go mod edit -replace`), for measuring
//     only.
//   - Size: the shipped server (docs/containers.md's flags, built by
//     internal/doccheck's shippedServerFlags, linux/amd64) is 17,408,162
//     bytes at main b50b3542 and 17,662,114 with ion-go's reader and
//     text writer linked in place of ours: +253,952 bytes, which puts the
//     server at 17.66 MB, past .ci/container's 17.48 MB bound.
//   - Speed: reading 1,000 export lines of ion_test.go's benchItem
//     ("$ion_1_0 {Item:...}", 227 kB) to DynamoDB JSON, `go test
//     -run XXX -bench BenchmarkReadExport -benchmem -benchtime=100x
//     -count=3` (ion_test.go's; the scratch copy had an ion-go twin of
//     it) on the shared 2-core machine (load near 36, so the
//     times are noisy; the allocations are not): ReadItems 144-190 ms
//     a pass, 7.9 MB and 59,000 allocations; ion-go's Reader walked to
//     the same JSON 232-327 ms, 4.1 MB and 210,020 allocations (3.6
//     times as many).
//   - Writing, measured 2026-11-29 the same way (ion-go v1.5.0 from its
//     repository's tag beside a scratch copy of this tree at 5182f64c,
//     `go mod edit -replace`): 1,000 export lines of benchItem
//     ("$ion_1_0 {Item:...}\n", 228 kB), AppendItem against ion-go's
//     NewTextWriter (a writer a line, decimals through
//     MustParseDecimal, sets as $dynamodb_SS/NS/BS-annotated lists),
//     `go test -run XXX -bench BenchmarkWriteExport -benchmem
//     -benchtime=50x -count=3` (the benchmark lived in the scratch
//     copy) on the shared 2-core machine (loaded; the allocations are
//     exact): ours 1.9-2.5 ms a pass, 0 allocations (the buffer
//     reused); ion-go's 11-34 ms, 3.8 MB and 217,003 allocations.
//   - Fit: ion-go gives an Ion decimal back as Ion text ("75001.",
//     "17d8"), not DynamoDB number text ("75001", "17E8"), and knows
//     nothing of the $dynamodb_SS/NS/BS set annotations or of
//     DynamoDB's type per value, so a mapping layer of about this
//     package's write.go size stays either way; what it would replace
//     is read.go's 815 lines of text reader.
package ion
