package emulator

import (
	"flag"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/dynamoemu/dynamoemu/emulator/internal/apierr"
	"github.com/dynamoemu/dynamoemu/emulator/internal/boundary"
	"github.com/dynamoemu/dynamoemu/emulator/internal/lambdaesm"
)

var updateDocs = flag.Bool("update", false, "rewrite the boundary table in docs/iam.md and docs/conventions.md")

// The markers of the generated table in the docs.
const (
	boundaryBegin = "<!-- boundary table: generated from the declarations by TestBoundaryDocTable (go test ./emulator/ -run TestBoundaryDocTable -update) -->"
	boundaryEnd   = "<!-- end of the boundary table -->"
)

// TestBoundaryDocTable regenerates the table of what a tenant-bound
// caller and an IAM identity may do with each operation and endpoint
// from the declarations (the service's operations, Lambda's mapping
// operations, the router's rows) and fails if docs/iam.md or
// docs/conventions.md differ; -update rewrites them.
func TestBoundaryDocTable(t *testing.T) {
	e, err := New(Options{SharedDB: true})
	require.NoError(t, err)
	t.Cleanup(func() { _ = e.Close() })
	table := boundaryTable(e)
	for _, doc := range []string{"iam.md", "conventions.md"} {
		path := filepath.Join("..", "docs", doc)
		b, err := os.ReadFile(path)
		require.NoError(t, err)
		s := string(b)
		i, j := strings.Index(s, boundaryBegin), strings.Index(s, boundaryEnd)
		require.True(t, i >= 0 && j > i, "%s has no boundary table between its markers", doc)
		got := s[:i+len(boundaryBegin)] + "\n" + table + s[j:]
		if *updateDocs {
			require.NoError(t, os.WriteFile(path, []byte(got), 0o644))
			continue
		}
		require.Equal(t, got, s, "%s's boundary table is not the declarations' (go test ./emulator/ -run TestBoundaryDocTable -update)", doc)
	}
}

// boundaryTable is the docs' table, one row per operation and endpoint.
func boundaryTable(e *Emulator) string {
	var b strings.Builder
	b.WriteString("| Operation or endpoint | Resource | Access | A tenant-bound caller | IAM action |\n| --- | --- | --- | --- | --- |\n")
	row := func(name string, d boundary.Decl, who, action string) {
		b.WriteString("| " + name + " | " + d.On.String() + " | " + d.Access.String() + " | " + who + " | " + action + " |\n")
	}
	shapes := e.svc.OperationShapes()
	names := make([]string, 0, len(shapes))
	for name := range shapes {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		d := shapes[name].Decl
		op := name[strings.LastIndex(name, ".")+1:]
		action := "`dynamodb:" + op + "`"
		switch {
		case strings.Contains(op, "Statement") || op == "ExecuteTransaction":
			action = "`dynamodb:PartiQLSelect`, `PartiQLInsert`, `PartiQLUpdate` or `PartiQLDelete`, by statement (as AWS)"
		case op == "TransactGetItems":
			action = "`dynamodb:GetItem` per item (as AWS)"
		case op == "TransactWriteItems":
			action = "`dynamodb:PutItem`, `UpdateItem`, `DeleteItem` or `ConditionCheckItem` per item (as AWS)"
		case d.On == boundary.Nothing:
			action = "none asked (as AWS)"
		case !strings.Contains(name, ".") && !apierr.KnownOperation(op):
			action += " (the emulator's own: no AWS rule)"
		}
		row(op, d, boundOutcome(d), action)
	}
	for _, op := range lambdaesm.Ops() {
		row(op, lambdaesm.Decls(op), boundOutcome(lambdaesm.Decls(op)), "`lambda:"+op+"`")
	}
	for _, r := range ownEndpoints() {
		action := "none"
		switch {
		case r.action != "":
			action = "`dynamoemu:" + r.action + "` (the emulator's own: no AWS rule)"
		case r.guard == guardMCP:
			action = "none: the MCP token"
		}
		who := boundOutcome(r.decl)
		if r.guard == guardMCP {
			who = "not judged: the MCP token's holder acts as the account's root"
		}
		row("`"+r.methods+" "+r.path+"`", r.decl, who, action)
	}
	return b.String()
}

// boundOutcome says what the tenant guard answers a caller bound to a
// tenant for an operation declared d (judgeBound, the conventions'
// checkCall and the per-use key guard).
func boundOutcome(d boundary.Decl) string {
	switch {
	case d.On == boundary.Nothing || d.Access == boundary.Account || d.Access == boundary.Describe:
		return "allowed"
	case d.On == boundary.Items && d.Access == boundary.WholeRead:
		return "refused on a table that opts in (B10)"
	case d.On == boundary.Items:
		return "its tenant's and the common tenants' keys only (B10, per key)"
	case d.On == boundary.Own:
		return "refused (the emulator's state)"
	case d.On == boundary.AllTables && d.Access == boundary.WholeRead:
		return "refused when any table opts in (B10)"
	case d.On == boundary.AllTables:
		return "refused (every table, those not made yet included)"
	case d.On == boundary.Stream || d.On == boundary.Mapping:
		return "refused when the stream's table opts in (B10)"
	case d.On == boundary.Backup && d.Target:
		return "refused when the backup's table opts in, or the configuration's entry for the target's name (B10); the target's items judged as made"
	case d.On == boundary.Backup:
		return "refused when the backup's table opts in (B10)"
	case d.On == boundary.NewTable:
		return "refused when the table, or the configuration's entry for its name, opts in (B10)"
	case d.On == boundary.Bulk:
		return "refused when the bulk operation's table opts in (B10)"
	case d.Target:
		return "refused when the source opts in, or the configuration's entry for the target's name (B10); the target's items judged as made"
	}
	return "refused when the table opts in (B10)"
}
