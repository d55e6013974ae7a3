// Package lint holds the house rules that a test enforces rather than
// memory: it has no code, only lint_test.go, which `go test ./...` runs.
//
//   - Layers: each package of the module may import only the packages of
//     ours its row of the layer table names (storage nothing of ours; expr
//     storage; partiql nothing; conventions storage; internal packages of
//     the emulator never the emulator facade). A new package needs a row.
//   - The server, cmd/dynamoemu, depends on no aws-sdk-go-v2 or smithy-go
//     package: its binary (which holds the conventions check too) and
//     image stay without the AWS SDK.
//   - Every Go file is gofmt'ed.
//   - Names by subject (names_test.go): no Go file cites one of our
//     issues by number (another project's record names its repository),
//     and no file, identifier or test is named by its history (a pass
//     or issue number, a digit appended to a word) instead of its subject.
//   - Size (size_test.go): no package holds more than 13,000 lines of
//     non-test Go, and the service core no more than maxCoreLines; one
//     that grows past it is split by subject, its features and
//     instruments behind the seams. The core's exported surface is capped
//     beside its lines (maxCoreInterfaces, maxCoreFuncs), so that a line
//     target is not met by moving code behind an interface.
//   - Coupling (coupling_test.go): the files of a package named in
//     maxMutualPairs (the request codec, emulator/internal/wire) hold
//     fewer mutual pairs per file than its bound: two files each using a
//     name the other declares (a top-level declaration, or a method
//     whose name one file declares), counted by names as the
//     architecture review counts them.
//   - The seams (seam_test.go): the core names no feature nor stage, and
//     depends on no stage package; no line of the core's non-test files,
//     code or comment, names an instrument (instrument_words_test.go:
//     faults, throttling, lag, insights, the conventions check).
//   - No state in the core (core_state_test.go): the service core has no
//     init function and no package-level variable but pools, sentinel
//     errors and the lookup tables of coreVars, each with why it is no
//     state; nothing writes one. Features and stages are values in a
//     service's Config.
//   - One import name per package (imports_test.go): a package is
//     imported under its own name everywhere, or under one alias
//     everywhere.
//   - Package docs (package_docs_test.go): every package but a command
//     opens with "Package <name> ...".
//   - The API's shapes (shapes_test.go): no shape of DynamoDB's model
//     (read from the AWS SDK's source in the module cache) is declared by
//     two Go types of ours, with no exception. The shared ones live in
//     internal/shapes.
//   - The performance budget (budget_test.go): the uses of unsafe, the
//     pools, the assembly files, the OS memory calls and the lines that
//     hold a use of unsafe may not grow; each file that holds some names,
//     in docs/architecture.md's "Performance budget", the benchmark that
//     keeps it.
//   - Build flags (build_flags_test.go): the Dockerfile, npm/build.sh and
//     .ci/release build the server with the same size flags (-tags
//     nethttpomithttp2, -trimpath, -s -w, and cmd/dynamoemu/cold.gcflags,
//     whose module packages must exist).
//   - staticcheck (pinned in go.mod's tool block) reports nothing; this
//     check runs with DYNAMOEMU_HEAVY_TESTS=1 (CI) and is skipped without
//     it or with -short: on a cold cache it builds and type-checks the
//     whole module again, most of the package's timeout on a busy machine.
package lint
