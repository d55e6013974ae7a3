package lint

import (
	"bytes"
	"encoding/json"
	"fmt"
	"go/format"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// module is the module's path; ours are the packages under it.
const module = "github.com/dynamoemu/dynamoemu"

// layers says, for each package of ours (its path in the module; a
// trailing "/..." covers the packages below), which packages of ours its
// code may import. The first row that matches a package applies. Its
// tests may import the same, and, except for the packages of the bottom
// layers (tested alone), anything of ours.
var layers = []layer{
	{pkg: "internal/number"},    // DynamoDB numbers: canonical text, exact sums, order-preserving keys
	{pkg: "internal/adminpath"}, // the emulator's own HTTP paths (/dynamoemu/...), for the emulator, the server and the tests
	{pkg: "internal/storage", may: []string{"internal/number"}},
	{pkg: "internal/vector", may: []string{"internal/storage"}}, // vector indexes' entries and search, plugged into storage (storage.VectorIndexer)
	{pkg: "internal/lex"},                                       // the token stream and text helpers expr and partiql share
	{pkg: "internal/jsonkind"},                                  // a raw JSON value's type as an error names it (capture and insights)
	// internal/lease: typed pools with a checked mode under -race.
	{pkg: "internal/lease"},
	{pkg: "internal/avtest", may: []string{"internal/storage"}}, // DynamoDB JSON into storage values, for expr's and partiql/lower's tests
	{pkg: "internal/partiql", may: []string{"internal/lex"}},    // not expr: partiql/lower joins the two
	{pkg: "internal/expr", may: []string{"internal/storage", "internal/number", "internal/lex", "internal/lease"}, testMay: []string{"internal/avtest"}},
	{pkg: "internal/partiql/lower", may: []string{"internal/partiql", "internal/expr", "internal/storage", "internal/lex"}, testMay: []string{"internal/avtest"}}, // PartiQL lowered into expr's AST
	{pkg: "conventions", may: []string{"internal/storage"}},
	// conventions/ids: ULIDs, apart so that the server does not link oklog/ulid.
	{pkg: "conventions/ids"},
	{pkg: "conventions/internal/frameworktest", tests: true}, // only a test: the framework's npm package against the emulator
	{pkg: "internal/faults", may: []string{"internal/storage"}},
	{pkg: "internal/faults/...", may: []string{"internal/storage", "internal/faults"}},
	{pkg: "emulator/report"},                                                 // the access-pattern report's types: nothing of ours
	{pkg: "internal/access", may: []string{"internal/storage"}, tests: true}, // a request's use of a table in words the core, the stages and the design checks share
	// insights: designs read from CloudFormation, CDK and serverless
	// templates; the API's shapes a design's JSON holds; jsonkind names a
	// raw value's JSON type.
	{pkg: "internal/insights", may: []string{"internal/storage", "internal/access", "internal/iac", "internal/shapes", "internal/jsonkind"}},
	{pkg: "internal/shapes"},                                // DynamoDB's API shapes that several packages share, each declared once
	{pkg: "internal/iampolicy"},                             // IAM policy documents parsed and evaluated (the IAM policy mode)
	{pkg: "internal/iac", may: []string{"internal/shapes"}}, // tables read from CloudFormation, CDK and serverless templates (-load)
	{pkg: "internal/persist", may: []string{"internal/storage", "internal/lease"}},
	// DynamoDB Local's SQLite files, read for cmd/dynamoemu-import-ddblocal
	// (never linked by the server: TestServerWithoutHeavyInit).
	{pkg: "internal/ddblocal", may: []string{"internal/shapes"}, testMay: []string{"internal/ddblocal/ddblocaltest"}},
	{pkg: "internal/ddblocal/ddblocaltest"}, // test support: DynamoDB Local files written for tests
	// The emulator's internal packages, bottom up: errors and messages,
	// the wire codec, the stream record log, the ZSTD reader, the
	// service. None imports the facade (emulator), and each only what is
	// below it.
	{pkg: "emulator/internal/apierr", may: []string{"internal/storage", "internal/expr"}, tests: true, internal: true},
	{pkg: "emulator/internal/wire", may: []string{"internal/storage", "internal/expr", "emulator/internal/apierr", "internal/lease", "internal/shapes"}, tests: true, internal: true},
	{pkg: "emulator/internal/ion", may: []string{"emulator/internal/wire", "internal/storage"}, internal: true}, // items as Amazon Ion text, exports' and imports' second format
	{pkg: "emulator/internal/streamlog", may: []string{"internal/storage"}, tests: true, internal: true},
	{pkg: "emulator/internal/boundary", may: []string{"emulator/internal/streamlog"}, tests: true, internal: true}, // what each operation declares it touches
	{pkg: "emulator/internal/zstdread", internal: true},                                                            // ZSTD objects through klauspost/compress's decoder
	{pkg: "emulator/internal/testkit", may: []string{"internal/storage"}, internal: true},                          // what the emulator's tests share
	// The service's libraries: concerns the core uses that need nothing
	// of it, below it (docs/architecture.md).
	{pkg: "emulator/internal/idempotency", may: []string{"internal/storage", "internal/lease", "emulator/internal/apierr", "emulator/internal/wire"}, internal: true},
	{pkg: "emulator/internal/oversize", may: []string{"emulator/internal/wire", "emulator/internal/apierr", "internal/storage", "internal/lease"}, internal: true},
	{pkg: "emulator/internal/convcheck", may: []string{"conventions", "emulator/internal/apierr", "internal/insights", "internal/storage"}, internal: true},
	{pkg: "emulator/internal/tablespec", may: []string{"emulator/internal/apierr", "internal/storage", "internal/vector", "internal/shapes", "internal/expr"}, internal: true},                                                        // the control plane's wire shapes, a table's definition types and their pure checks, the key values' rules
	{pkg: "emulator/internal/catalog", may: []string{"emulator/internal/tablespec", "emulator/internal/tablerec", "internal/storage"}, internal: true},                                                                                // the namespaces and their table catalogs, below the data plane
	{pkg: "emulator/internal/tablerec", may: []string{"emulator/internal/tablespec", "emulator/internal/streamlog", "internal/storage"}, internal: true},                                                                              // a table's definition record and its stream's snapshot pieces
	{pkg: "emulator/internal/exprparams", may: []string{"emulator/internal/apierr", "emulator/internal/wire", "internal/expr"}, internal: true},                                                                                       // the mix of expression and legacy parameters, checked before compiling; the request's compiler
	{pkg: "emulator/internal/capacity", may: []string{"emulator/internal/tablespec", "internal/shapes", "internal/storage"}, testMay: []string{"emulator/internal/service", "emulator/internal/service/servicetest"}, internal: true}, // DynamoDB's capacity units and the answers' ConsumedCapacity
	{pkg: "emulator/internal/readparams", may: []string{"emulator/internal/apierr", "internal/expr", "internal/storage"}, internal: true},                                                                                             // Query's and Scan's parameter checks and sort-key bounds
	{pkg: "emulator/internal/accessreport", may: []string{"internal/insights", "internal/access", "internal/storage", "emulator/report"}, internal: true},                                                                             // the access-pattern report and Contributor Insights, filling emulator/report's types
	{pkg: "emulator/internal/stagestate", may: []string{"internal/faults/lag", "emulator/internal/accessreport"}, internal: true},                                                                                                     // the saved lags and Contributor Insights configuration
	// a table's stream: its records made at commit, its reads and holds, its snapshot pieces
	{pkg: "emulator/internal/streamrec", may: []string{"emulator/internal/apierr", "emulator/internal/streamlog", "emulator/internal/tablerec", "emulator/internal/tablespec", "internal/storage"}, tests: true, internal: true},
	{pkg: "emulator/internal/service", may: []string{"emulator/internal/boundary", "internal/storage", "internal/vector", "internal/expr", "internal/partiql", "internal/partiql/lower",
		"internal/access", "emulator/internal/apierr", "emulator/internal/wire", "emulator/internal/streamlog", "emulator/internal/zstdread", "internal/lease",
		"emulator/internal/catalog", "emulator/internal/idempotency", "emulator/internal/oversize", "emulator/internal/tablespec", "emulator/internal/tablerec", "emulator/internal/streamrec", "emulator/internal/readparams", "emulator/internal/exprparams", "emulator/internal/capacity", "internal/shapes"},
		testMay: []string{"internal/faults/throttle", "conventions", "emulator/internal/stagestate"}, tests: true, internal: true},
	// The table-level features: each plugs into the service through its
	// seam (feature.go) and is wired by the facade (emulator/features.go);
	// the service imports none (internal/lint/seam_test.go). A feature
	// uses the service's libraries (tablespec, readparams) itself, not
	// through the seam.
	{pkg: "emulator/internal/resources", may: []string{"emulator/internal/boundary", "emulator/internal/service", "emulator/internal/apierr"}, testMay: []string{"emulator/internal/service/servicetest", "emulator/internal/testkit"}, internal: true},
	{pkg: "emulator/internal/service/servicetest", may: []string{"emulator/internal/service", "emulator/internal/apierr", "emulator/internal/wire", "emulator/internal/testkit", "internal/storage"}, internal: true}, // tests only: a service for a feature's tests
	// The instruments' stages: each plugs into the service's request
	// pipeline through its stage seam (service/stage.go) and is wired in
	// emulator/features.go; a stage may import the service, apierr,
	// storage and its instrument's library, and the service imports none
	// (internal/lint/seam_test.go).
	{pkg: "emulator/internal/stages/faults", may: []string{"emulator/internal/service", "emulator/internal/apierr", "internal/faults", "internal/insights", "internal/storage"}, internal: true},
	{pkg: "emulator/internal/stages/insights", may: []string{"emulator/internal/service", "emulator/internal/apierr", "emulator/internal/tablespec", "emulator/internal/stagestate", "internal/insights", "emulator/internal/accessreport", "internal/storage", "emulator/report"}, testMay: []string{"emulator/internal/service/servicetest", "emulator/internal/testkit"}, internal: true},
	{pkg: "emulator/internal/stages/lag", may: []string{"emulator/internal/service", "emulator/internal/streamlog", "emulator/internal/stagestate", "internal/faults/lag", "internal/insights", "internal/storage"}, testMay: []string{"emulator/internal/testkit"}, internal: true},
	// The IAM stage parses what a request names (its expressions, its
	// PartiQL statements) for the condition keys, and reads an index's
	// projection.
	{pkg: "emulator/internal/stages/iam", may: []string{"emulator/internal/boundary", "emulator/internal/service", "emulator/internal/apierr", "emulator/internal/tablespec", "internal/iampolicy", "internal/insights", "internal/storage", "internal/expr", "internal/partiql", "internal/partiql/lower", "emulator/internal/streamlog", "emulator/internal/wire"}, internal: true},
	{pkg: "emulator/internal/stages/throttle", may: []string{"emulator/internal/service", "emulator/internal/apierr", "internal/faults/throttle"}, testMay: []string{"emulator/internal/service/servicetest"}, internal: true},
	{pkg: "emulator/internal/stages/conventions", may: []string{"emulator/internal/boundary", "emulator/internal/service", "emulator/internal/convcheck", "conventions", "internal/storage", "emulator/internal/stages/insights", "internal/insights"}, testMay: []string{"emulator/internal/service/servicetest"}, internal: true},
	// The facade and the HTTP edge: the service behind it, the errors
	// and the codec for the answers it writes itself.
	{pkg: "emulator/internal/restore", may: []string{"emulator/internal/service", "emulator/internal/apierr", "internal/storage", "emulator/internal/tablespec"}, internal: true}, // the backups' and PITR's one restore path
	{pkg: "emulator/internal/pitr", may: []string{"emulator/internal/boundary", "emulator/internal/service", "emulator/internal/apierr", "internal/storage", "emulator/internal/tablespec", "emulator/internal/restore", "internal/shapes"}, testMay: []string{"emulator/internal/service/servicetest", "emulator/internal/testkit"}, internal: true},
	{pkg: "emulator/internal/backups", may: []string{"emulator/internal/boundary", "emulator/internal/service", "emulator/internal/apierr", "internal/storage", "emulator/internal/tablespec", "emulator/internal/restore"}, testMay: []string{"emulator/internal/service/servicetest", "emulator/internal/accountops", "emulator/internal/testkit", "emulator/internal/pitr", "emulator/internal/vectorsearch", "emulator/internal/partiqlops"}, internal: true},
	{pkg: "emulator/internal/globaltables", may: []string{"emulator/internal/boundary", "emulator/internal/service", "emulator/internal/apierr", "internal/storage", "emulator/internal/tablespec"}, testMay: []string{"emulator/internal/service/servicetest", "emulator/internal/testkit", "emulator/internal/tagging", "emulator/internal/ttl", "emulator/internal/streamsapi"}, internal: true},
	{pkg: "emulator/internal/transfers", may: []string{"emulator/internal/boundary", "emulator/internal/pitr", "emulator/internal/service", "emulator/internal/apierr", "emulator/internal/wire", "emulator/internal/ion", "emulator/internal/zstdread", "internal/expr", "internal/storage", "emulator/internal/tablespec", "internal/shapes"}, testMay: []string{"emulator/internal/service/servicetest", "emulator/internal/testkit", "emulator/internal/stages/insights"}, internal: true},
	{pkg: "emulator/internal/accountops", may: []string{"emulator/internal/boundary", "emulator/internal/service", "emulator/internal/apierr", "emulator/internal/tablespec"}, testMay: []string{"emulator/internal/service/servicetest", "emulator/internal/testkit"}, internal: true},
	{pkg: "emulator/internal/tagging", may: []string{"emulator/internal/boundary", "emulator/internal/service", "emulator/internal/apierr", "emulator/internal/tablespec"}, testMay: []string{"emulator/internal/service/servicetest", "emulator/internal/testkit"}, internal: true},
	{pkg: "emulator/internal/ttl", may: []string{"emulator/internal/boundary", "emulator/internal/service", "emulator/internal/apierr", "internal/storage", "emulator/internal/tablespec", "internal/shapes"}, testMay: []string{"emulator/internal/service/servicetest", "emulator/internal/testkit"}, internal: true},
	{pkg: "emulator/internal/contributorinsights", may: []string{"emulator/internal/boundary", "emulator/internal/service", "emulator/internal/apierr", "emulator/internal/tablespec", "emulator/internal/stages/insights", "emulator/internal/accessreport", "emulator/internal/readparams"}, testMay: []string{"emulator/internal/service/servicetest", "emulator/internal/testkit"}, internal: true},
	{pkg: "emulator/internal/streamsapi", may: []string{"emulator/internal/boundary", "emulator/internal/service", "emulator/internal/apierr", "emulator/internal/streamlog", "emulator/internal/wire", "internal/storage", "emulator/internal/tablespec"}, testMay: []string{"emulator/internal/service/servicetest", "emulator/internal/testkit"}, internal: true},
	{pkg: "emulator/internal/vectorsearch", may: []string{"emulator/internal/boundary", "emulator/internal/service", "emulator/internal/apierr", "emulator/internal/exprparams", "emulator/internal/wire", "internal/expr", "internal/storage", "internal/vector", "emulator/internal/readparams", "emulator/internal/tablespec"}, testMay: []string{"emulator/internal/service/servicetest", "emulator/internal/testkit"}, internal: true},
	// Lambda's event source mappings: pollers over the core's streams, records as the Streams API serves them.
	{pkg: "emulator/internal/lambdaesm", may: []string{"emulator/internal/boundary", "emulator/internal/service", "emulator/internal/apierr", "emulator/internal/streamlog", "emulator/internal/streamsapi", "internal/iac"}, testMay: []string{"emulator/internal/service/servicetest", "emulator/internal/testkit", "emulator/internal/streamrec"}, internal: true},
	// PartiQL's operations: statements parsed and lowered here, run by the
	// core as the item operations they stand for (feature_statements.go).
	{pkg: "emulator/internal/partiqlops", may: []string{"emulator/internal/boundary", "emulator/internal/service", "emulator/internal/apierr", "emulator/internal/readparams", "emulator/internal/tablespec", "emulator/internal/wire", "emulator/internal/idempotency", "emulator/internal/oversize", "internal/partiql", "internal/partiql/lower", "internal/expr", "internal/storage", "internal/lex", "internal/insights"}, testMay: []string{"emulator/internal/testkit"}, internal: true},
	{pkg: "emulator", may: []string{"emulator/internal/boundary", "internal/storage", "internal/vector", "internal/persist", "conventions", "internal/faults", "internal/faults/lag", "internal/insights", "emulator/internal/apierr", "emulator/internal/wire", "emulator/internal/service", "emulator/internal/accountops", "emulator/internal/resources", "emulator/internal/transfers", "emulator/internal/backups", "emulator/internal/pitr", "emulator/internal/globaltables", "emulator/internal/tagging", "emulator/internal/ttl", "emulator/internal/contributorinsights", "emulator/internal/streamsapi", "emulator/internal/vectorsearch", "emulator/internal/partiqlops", "emulator/internal/lambdaesm", "emulator/internal/streamlog", "emulator/internal/streamrec", "emulator/internal/tablerec", "emulator/internal/stages/faults", "emulator/internal/stages/insights", "emulator/internal/stages/lag", "emulator/internal/stages/iam", "internal/iampolicy", "internal/lease", "emulator/internal/stages/throttle", "internal/faults/throttle", "emulator/internal/stages/conventions", "emulator/report", "emulator/internal/oversize", "emulator/internal/sigv4", "emulator/internal/httploop", "emulator/internal/httpedge", "emulator/internal/adminhttp", "emulator/internal/apiserve", "internal/adminpath"}, tests: true},
	{pkg: "emulator/internal/sigv4", may: []string{"emulator/internal/apierr"}, tests: true, internal: true},                        // the server's SigV4 checks: HTTP plumbing under the Go API
	{pkg: "emulator/internal/httpedge", may: []string{"emulator/internal/apierr"}, tests: true, internal: true},                     // the edge's HTTP policies: CORS, Host names, body reading and decompression
	{pkg: "emulator/internal/httploop", may: []string{"emulator/internal/httpedge", "internal/lease"}, tests: true, internal: true}, // the connection loop and its HTTP/1.1 pieces: HTTP plumbing under the Go API
	// the API's request path: credential, body, budget, in-flight slot, the service's Serve: HTTP plumbing under the Go API
	{pkg: "emulator/internal/apiserve", may: []string{"emulator/internal/apierr", "emulator/internal/httpedge", "emulator/internal/httploop", "emulator/internal/service", "emulator/internal/sigv4", "emulator/internal/stages/iam", "emulator/internal/wire", "emulator/internal/oversize", "internal/lease"}, tests: true, internal: true},
	{pkg: "emulator/emulatortest", may: []string{"emulator"}, tests: true}, // the public API alone
	// the admin endpoints' handlers: HTTP plumbing under the Go API
	{pkg: "emulator/internal/adminhttp", may: []string{"emulator/internal/apierr", "emulator/internal/wire", "emulator/internal/httpedge", "emulator/internal/service", "emulator/internal/stages/insights", "emulator/report", "internal/faults", "conventions", "internal/storage", "internal/persist", "emulator/internal/stages/lag"}, internal: true},
	{pkg: "emulator/internal/benchmarks", may: []string{"emulator", "internal/persist", "emulator/emulatortest", "emulator/internal/wire", "emulator/internal/testkit", "internal/storage"}, tests: true},
	{pkg: "conformance", may: []string{"emulator", "emulator/emulatortest"}, tests: true},
	{pkg: "cmd/internal/console", tests: true}, // the web console's files and handler: nothing of ours; its browser test runs the emulator
	// The MCP server: the emulator's public API and its DynamoDB JSON
	// handler; insights for designs and the report's matching, expr and
	// storage to read a request's key condition as the report does.
	{pkg: "cmd/internal/mcp", may: []string{"emulator", "emulator/report", "conventions", "internal/insights", "internal/expr", "internal/storage", "internal/iac", "internal/shapes"}, tests: true},
	// console, mcp: the server mounts the web console and the MCP
	// endpoint; conventionscheck: "dynamoemu check".
	{pkg: "cmd/dynamoemu", may: []string{"emulator", "conventions", "cmd/internal/console", "cmd/internal/mcp", "cmd/internal/conventionscheck", "internal/adminpath"}, tests: true},
	{pkg: "cmd/internal/conventionscheck", may: []string{"conventions", "internal/storage", "internal/shapes"}, tests: true}, // the conventions check of any endpoint, with a client of its own (no AWS SDK)
	{pkg: "cmd/dynamoemu-soak", may: []string{"emulator"}, tests: true},
	// The image's sh, curl, wget, awslocal and java: nothing of ours, and
	// never linked by the server (TestServerWithoutTools).
	{pkg: "cmd/internal/tools", tests: true},
	{pkg: "cmd/dynamoemu-tools", may: []string{"cmd/internal/tools"}},
	// cmd/dynamoemu-wasm: the engine in WebAssembly, for npm's dynamoemu/wasm.
	{pkg: "cmd/dynamoemu-wasm", may: []string{"emulator"}, tests: true},
	{pkg: "cmd/dynamoemu-import-ddblocal", may: []string{"emulator", "internal/ddblocal"}, tests: true},
	{pkg: "cmd/dynamoemu-bench", tests: true},                     // a client of any endpoint: nothing of ours in its code
	{pkg: "internal/capture", may: []string{"internal/jsonkind"}}, // the capture format (record, replay, the table of AWS records)
	{pkg: "cmd/internal/release"},                                 // the release's binary checks and SBOM (.ci/release): reads files, nothing of ours
	{pkg: "internal/lint"},
	{pkg: "internal/doccheck", tests: true}, // tests only: README and docs/ against the code, through the public API
	// dynamoemu record and replay: the AWS SDK's credential chain and
	// signer, so a binary of its own beside the server.
	{pkg: "cmd/dynamoemu-capture", may: []string{"emulator", "internal/capture"}, tests: true},
}

// layer is a row of the layer table.
type layer struct {
	pkg      string
	may      []string
	tests    bool     // its tests may import anything of ours
	testMay  []string // what else its tests (of a bottom layer) may import: test support
	internal bool     // an internal package: never the emulator facade
}

// matches reports whether pattern (a path in the module, "/..." for the
// packages below) covers package path p (also in the module).
func matches(pattern, p string) bool {
	if base, ok := strings.CutSuffix(pattern, "/..."); ok {
		return strings.HasPrefix(p, base+"/")
	}
	return p == pattern
}

// pkg is what go list says of a package.
type pkg struct {
	ImportPath, Dir                    string
	Doc                                string // the package comment's first sentence
	GoFiles                            []string
	Imports, TestImports, XTestImports []string
	Deps                               []string
}

// root returns the module's directory.
func root(t *testing.T) string {
	t.Helper()
	out, err := exec.Command("go", "env", "GOMOD").Output()
	if err != nil {
		t.Fatalf("go env GOMOD: %v", err)
	}
	return filepath.Dir(strings.TrimSpace(string(out)))
}

// goList runs go list in the module's directory with args and decodes
// the packages it prints with -json.
func goList(t *testing.T, args ...string) []pkg {
	t.Helper()
	cmd := exec.Command("go", append([]string{"list", "-json"}, args...)...)
	cmd.Dir = root(t)
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go list %s: %v", strings.Join(args, " "), err)
	}
	var pkgs []pkg
	for dec := json.NewDecoder(bytes.NewReader(out)); dec.More(); {
		var p pkg
		if err := dec.Decode(&p); err != nil {
			t.Fatal(err)
		}
		pkgs = append(pkgs, p)
	}
	return pkgs
}

// ours returns the packages of ours among paths, as paths in the module.
func ours(paths []string) []string {
	var out []string
	for _, p := range paths {
		if rel, ok := strings.CutPrefix(p, module+"/"); ok {
			out = append(out, rel)
		}
	}
	return out
}

func TestLayers(t *testing.T) {
	for _, p := range goList(t, "./...") {
		rel := strings.TrimPrefix(p.ImportPath, module+"/")
		i := slices.IndexFunc(layers, func(l layer) bool { return matches(l.pkg, rel) })
		if i < 0 {
			t.Errorf("package %s has no row in the layer table (internal/lint/lint_test.go): say what it may import", rel)
			continue
		}
		l := layers[i]
		allowed := func(imp string) bool {
			return slices.ContainsFunc(l.may, func(m string) bool { return matches(m, imp) })
		}
		for _, imp := range ours(p.Imports) {
			if l.internal && imp == "emulator" {
				t.Errorf("%s imports the emulator facade: internal packages sit below it", rel)
			} else if !allowed(imp) {
				t.Errorf("%s imports %s: its layer may import only %q", rel, imp, l.may)
			}
		}
		if l.tests {
			continue
		}
		for _, imp := range ours(slices.Concat(p.TestImports, p.XTestImports)) {
			if imp != rel && !allowed(imp) && !slices.Contains(l.testMay, imp) {
				t.Errorf("%s's tests import %s: its layer is tested alone, with only %q", rel, imp, l.may)
			}
		}
	}
}

func TestMatches(t *testing.T) {
	tests := []struct {
		pattern, p string
		want       bool
	}{
		{"emulator", "emulator", true},
		{"emulator", "emulator/wire", false},
		{"emulator/internal/...", "emulator/internal/wire", true},
		{"emulator/internal/...", "emulator/internal", false},
		{"emulator/internal/...", "emulator/internalx/y", false},
	}
	for _, tc := range tests {
		require.Equal(t, tc.want, matches(tc.pattern, tc.p), "matches(%q, %q)", tc.pattern, tc.p)
	}
}

// TestServerWithoutAWSSDK: the server links no package of the AWS SDK.
func TestServerWithoutAWSSDK(t *testing.T) {
	var sdk []string
	for _, p := range goList(t, "-deps", "./cmd/dynamoemu") {
		if strings.HasPrefix(p.ImportPath, "github.com/aws/") {
			sdk = append(sdk, p.ImportPath)
		}
	}
	if len(sdk) > 0 {
		t.Errorf("cmd/dynamoemu depends on %d AWS SDK packages (go list -deps ./cmd/dynamoemu), such as %s", len(sdk), sdk[0])
	}
}

// TestServerWithoutTools: the server links none of the image's tools
// (cmd/internal/tools: sh, curl, wget, awslocal, DynamoDB Local's java command
// line); they are a binary of their own, linked under those names in the
// image only.
func TestServerWithoutTools(t *testing.T) {
	for _, p := range goList(t, "-deps", "./cmd/dynamoemu") {
		if p.ImportPath == module+"/cmd/internal/tools" {
			t.Errorf("cmd/dynamoemu depends on %s (go list -deps ./cmd/dynamoemu): the tools are cmd/dynamoemu-tools'", p.ImportPath)
		}
	}
}

// TestToolsStaySmall: the tools' binary, part of the image's size, links
// the standard library's networking and process packages but not net/http
// (its TLS, HTTP/2 and server: about 2 MB), encoding/json (0.37 MB), fmt
// and reflect (0.16 MB) nor os/exec (74 kB): cmd/internal/tools has an
// HTTP/1.1 client, a JSON reader, a formatter and a PATH search of its own.
func TestToolsStaySmall(t *testing.T) {
	for _, p := range goList(t, "-deps", "./cmd/dynamoemu-tools") {
		switch {
		case p.ImportPath == "net/http" || p.ImportPath == "encoding/json" || p.ImportPath == "crypto/tls":
			t.Errorf("cmd/dynamoemu-tools depends on %s (go list -deps ./cmd/dynamoemu-tools)", p.ImportPath)
		case strings.HasPrefix(p.ImportPath, module+"/") && p.ImportPath != module+"/cmd/internal/tools" && p.ImportPath != module+"/cmd/dynamoemu-tools":
			t.Errorf("cmd/dynamoemu-tools depends on %s: the tools link nothing of the emulator", p.ImportPath)
		case p.ImportPath == "fmt" || p.ImportPath == "reflect" || p.ImportPath == "os/exec":
			t.Errorf("cmd/dynamoemu-tools depends on %s (go list -deps ./cmd/dynamoemu-tools): cmd/internal/tools formats with its own sprintf and runs programs with os.StartProcess", p.ImportPath)
		case !strings.HasPrefix(p.ImportPath, module+"/") && strings.Contains(strings.SplitN(p.ImportPath, "/", 2)[0], "."):
			t.Errorf("cmd/dynamoemu-tools depends on the module package %s: the standard library only", p.ImportPath)
		}
	}
}

func TestGofmt(t *testing.T) {
	dir := root(t)
	var bad []string
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		name := d.Name()
		if d.IsDir() {
			if path != dir && (strings.HasPrefix(name, ".") || strings.HasPrefix(name, "_") || name == "testdata" || name == "vendor") {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(name, ".go") {
			return nil
		}
		src, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		got, err := format.Source(src)
		if err != nil || !bytes.Equal(got, src) {
			rel, _ := filepath.Rel(dir, path)
			bad = append(bad, rel)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(bad) > 0 {
		t.Errorf("not gofmt'ed (gofmt -w them): %s", strings.Join(bad, " "))
	}
}

// TestStaticcheck runs staticcheck over the module with
// DYNAMOEMU_HEAVY_TESTS set (CI sets it; .ci/run also runs it as a step of
// its own). Without it, it is skipped: go tool staticcheck builds itself and
// type-checks every package without -race, which took 532 s of this
// package's 10-minute timeout on a cold cache on a busy 2-core machine.
func TestStaticcheck(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: staticcheck skipped")
	}
	if os.Getenv("DYNAMOEMU_HEAVY_TESTS") == "" {
		t.Skip("staticcheck runs with DYNAMOEMU_HEAVY_TESTS=1 (as in CI), or as go tool staticcheck ./...")
	}
	cmd := exec.Command("go", "tool", "staticcheck", "./...")
	cmd.Dir = root(t)
	findings, err := runChecker(cmd)
	require.NoError(t, err, "go tool staticcheck ./...")
	require.Empty(t, findings, "go tool staticcheck ./...")
}

// TestWasmVets vets the WebAssembly engine (cmd/dynamoemu-wasm) as npm's
// build compiles it, GOOS=wasip1 GOARCH=wasm: its reactor is behind that
// build constraint, so go vet ./... on the host never type-checks it, and
// a change to the emulator package's face once broke it unseen until
// npm/test.sh built the packages. Heavy like TestStaticcheck: it compiles
// the engine's dependencies for another target.
func TestWasmVets(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: the wasm vet skipped")
	}
	if os.Getenv("DYNAMOEMU_HEAVY_TESTS") == "" {
		t.Skip("the wasm vet runs with DYNAMOEMU_HEAVY_TESTS=1 (as in CI), or as GOOS=wasip1 GOARCH=wasm go vet ./cmd/dynamoemu-wasm/")
	}
	cmd := exec.Command("go", "vet", "./cmd/dynamoemu-wasm/")
	cmd.Dir = root(t)
	cmd.Env = append(os.Environ(), "GOOS=wasip1", "GOARCH=wasm", "CGO_ENABLED=0")
	findings, err := runChecker(cmd)
	require.NoError(t, err, "GOOS=wasip1 GOARCH=wasm go vet ./cmd/dynamoemu-wasm/")
	require.Empty(t, findings, "GOOS=wasip1 GOARCH=wasm go vet ./cmd/dynamoemu-wasm/")
}

// findingRE matches a checker's finding: "path:line:col: message".
var findingRE = regexp.MustCompile(`^[^\s:][^:]*:\d+:\d+: \S`)

// runChecker runs a checker that prints its findings on stdout, one per
// line as path:line:col: message, and exits non-zero when it has any
// (staticcheck, go vet). What the go command prints on its way (stderr:
// "go: downloading ..." on a cold module cache) is not a finding. err
// is the tool's failure: a non-zero exit with no finding to show for it
// (it says why on stderr), or a finding-free stdout that is not empty.
func runChecker(cmd *exec.Cmd) (findings []string, err error) {
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	runErr := cmd.Run()
	findings, other := parseFindings(stdout.Bytes())
	switch {
	case len(other) > 0:
		return findings, fmt.Errorf("unexpected output: %s", strings.Join(other, "\n"))
	case runErr != nil && len(findings) == 0:
		return nil, fmt.Errorf("%v: %s", runErr, stderr.String())
	}
	return findings, nil
}

// parseFindings splits a checker's stdout into its findings and any
// other non-empty lines.
func parseFindings(out []byte) (findings, other []string) {
	for _, line := range strings.Split(string(out), "\n") {
		switch {
		case strings.TrimSpace(line) == "":
		case findingRE.MatchString(line):
			findings = append(findings, line)
		default:
			other = append(other, line)
		}
	}
	return findings, other
}

// TestRunCheckerIgnoresChatter: the go command's download lines (on
// stderr, as on a cold module cache) are no finding; a finding on stdout
// is one; a failure with nothing on stdout is the tool's error.
func TestRunCheckerIgnoresChatter(t *testing.T) {
	chatter := `echo "go: downloading honnef.co/go/tools v0.8.2" >&2; echo "go: downloading golang.org/x/tools v0.30.0" >&2`
	findings, err := runChecker(exec.Command("sh", "-c", chatter))
	require.NoError(t, err)
	require.Empty(t, findings)

	findings, err = runChecker(exec.Command("sh", "-c", chatter+`; echo "emulator/x.go:12:3: func f is unused (U1000)"; exit 1`))
	require.NoError(t, err)
	require.Equal(t, []string{"emulator/x.go:12:3: func f is unused (U1000)"}, findings)

	_, err = runChecker(exec.Command("sh", "-c", chatter+`; echo "go: module lookup disabled" >&2; exit 1`))
	require.ErrorContains(t, err, "module lookup disabled")
}
