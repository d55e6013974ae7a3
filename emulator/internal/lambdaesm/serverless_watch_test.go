package lambdaesm

import (
	"bytes"
	"context"
	"encoding/json"
	"log/slog"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// A project's first run, in the order a new user takes: the service file
// and a .env naming another project's table (or none), the emulator
// (LoadServerless), the tables made by a migration that then writes
// their stream ARNs into .env line by line, and writes to each table.
// Every stream event's mapping ends on its table, and each table's
// INSERT reaches the function, with no restart.

// syncLog is a logger's output, safe to read while the watcher writes.
type syncLog struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *syncLog) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *syncLog) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// project copies the first-run service file into a new directory with
// the .env text dotenv ("": none) and returns the file's path.
func project(t *testing.T, dotenv string) string {
	t.Helper()
	dir := t.TempDir()
	b, err := os.ReadFile("testdata/firstrun/serverless.yml")
	require.NoError(t, err)
	path := filepath.Join(dir, "serverless.yml")
	require.NoError(t, os.WriteFile(path, b, 0o644))
	if dotenv != "" {
		require.NoError(t, os.WriteFile(filepath.Join(dir, ".env"), []byte(dotenv), 0o644))
	}
	return path
}

// makeTable makes the table name, with a stream when stream, and returns
// its stream's ARN ("" without one).
func (e *esmEnv) makeTable(name string, stream bool) string {
	e.T.Helper()
	spec := ""
	if stream {
		spec = `,"StreamSpecification":{"StreamEnabled":true,"StreamViewType":"NEW_IMAGE"}`
	}
	e.Must("CreateTable", `{"TableName":"`+name+`","BillingMode":"PAY_PER_REQUEST",
		"AttributeDefinitions":[{"AttributeName":"pk","AttributeType":"S"},{"AttributeName":"sk","AttributeType":"S"}],
		"KeySchema":[{"AttributeName":"pk","KeyType":"HASH"},{"AttributeName":"sk","KeyType":"RANGE"}]`+spec+`}`)
	var d struct {
		Table struct{ LatestStreamArn string }
	}
	require.NoError(e.T, json.Unmarshal([]byte(e.Must("DescribeTable", `{"TableName":"`+name+`"}`)), &d))
	return d.Table.LatestStreamArn
}

// migrate makes the template's tables, then writes their stream ARNs
// into the project's .env as its migration does: the old ARN lines
// dropped first, then one line appended per table.
func (e *esmEnv) migrate(path string) {
	e.T.Helper()
	arns := map[string]string{}
	for _, name := range []string{"sample-command", "sample-data", "sample-history", "tasks", "sequences", "import_tmp-command"} {
		withStream := strings.HasSuffix(name, "-command") || name == "tasks"
		if arn := e.makeTable("local-myapp-"+name, withStream); arn != "" {
			arns[strings.ToUpper(strings.TrimSuffix(name, "-command"))] = arn
		}
	}
	env := filepath.Join(filepath.Dir(path), ".env")
	old, _ := os.ReadFile(env)
	var kept []string
	for _, l := range strings.Split(string(old), "\n") {
		if !strings.HasPrefix(l, "LOCAL_DDB_") {
			kept = append(kept, l)
		}
	}
	require.NoError(e.T, os.WriteFile(env, []byte(strings.Join(kept, "\n")), 0o644))
	for _, k := range []string{"SAMPLE", "TASKS", "IMPORT_TMP"} {
		f, err := os.OpenFile(env, os.O_APPEND|os.O_WRONLY, 0o644)
		require.NoError(e.T, err)
		_, err = f.WriteString("\nLOCAL_DDB_" + k + "_STREAM=" + arns[k])
		require.NoError(e.T, err)
		require.NoError(e.T, f.Close())
	}
}

// tablesOf are the tables the mappings are on (their streams' tables,
// "" for one without a stream yet), sorted.
func (e *esmEnv) tablesOf() []string {
	var out []string
	for _, s := range e.m.Statuses() {
		table := ""
		if _, rest, ok := strings.Cut(s.EventSourceArn, ":table/"); ok {
			table, _, _ = strings.Cut(rest, "/")
		}
		out = append(out, table)
	}
	slices.Sort(out)
	return out
}

func TestServerlessFirstRun(t *testing.T) {
	for _, tc := range []struct {
		name, dotenv string
		atStart      int // mappings made at the start
	}{
		// The template's .env: another project's table for the first event.
		{"stale ARN", "NODE_ENV=local # local, dev, stg, prod\nAPP_NAME=myapp\n" +
			"LOCAL_DDB_SAMPLE_STREAM=arn:aws:dynamodb:ddblocal:000000000000:table/local-test-cli-sample-command/stream/2025-01-14T12:05:57.881\n", 1},
		// No .env beside the file yet (the template links it there when serverless-offline starts).
		{"no .env", "", 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			e := newESMEnv(t)
			var logged syncLog
			e.m.SetLogger(slog.New(slog.NewTextHandler(&logged, nil)))
			var mu sync.Mutex
			var got []string
			e.m.SetFunction("serverless-example-dev-main", func(_ context.Context, ev []byte) ([]byte, error) {
				var evt event
				if err := json.Unmarshal(ev, &evt); err != nil {
					return nil, err
				}
				mu.Lock()
				defer mu.Unlock()
				for _, r := range evt.Records {
					got = append(got, r.EventSourceARN[strings.Index(r.EventSourceARN, "table/")+6:strings.Index(r.EventSourceARN, "/stream")])
				}
				return nil, nil
			})
			path := project(t, tc.dotenv)
			notes, err := e.m.LoadServerless(path, func(string) string { return "" })
			require.NoError(t, err)
			require.Len(t, e.m.Statuses(), tc.atStart)
			joined := strings.Join(notes, "\n")
			require.Contains(t, joined, "event 3: its arn names no table", "the unset variables are said")
			if tc.atStart == 1 {
				require.Contains(t, joined, "table local-test-cli-sample-command does not exist yet: its mapping waits for it")
			}

			e.migrate(path)
			want := []string{"local-myapp-import_tmp-command", "local-myapp-sample-command", "local-myapp-tasks"}
			require.Eventually(t, func() bool { return slices.Equal(e.tablesOf(), want) }, scaled(30*time.Second), 20*time.Millisecond,
				"every event's mapping on its table: %v; log:\n%s", e.tablesOf(), logged.String())
			if tc.atStart == 1 {
				require.Contains(t, logged.String(), "moves from table local-test-cli-sample-command to table local-myapp-sample-command")
			}

			for _, table := range want {
				e.Must("PutItem", `{"TableName":"`+table+`","Item":{"pk":{"S":"p"},"sk":{"S":"1"}}}`)
				e.Must("PutItem", `{"TableName":"`+table+`","Item":{"pk":{"S":"p"},"sk":{"S":"1"},"v":{"S":"modified"}}}`) // not INSERT: filtered
			}
			e.drain()
			mu.Lock()
			defer mu.Unlock()
			slices.Sort(got)
			require.Equal(t, want, got, "each table's INSERT reached the function, once")
		})
	}
}

// TestStaleMatches: a table name that does not exist stands for a table
// whose part after the shared stage and app prefix it ends with, and only
// when one alone fits.
func TestStaleMatches(t *testing.T) {
	set := func(names ...string) map[string]bool {
		m := map[string]bool{}
		for _, n := range names {
			m[n] = true
		}
		return m
	}
	tpl := set("local-myapp-sample-command", "local-myapp-tasks", "local-myapp-import_tmp-command")
	require.Equal(t, []string{"local-myapp-sample-command"}, staleMatches("local-test-cli-sample-command", tpl))
	require.Equal(t, []string{"local-myapp-tasks"}, staleMatches("local-test-cli-tasks", tpl))
	require.Empty(t, staleMatches("local-demo-master-command", tpl), "another module's table fits none")
	require.Empty(t, staleMatches("local-test-cli-sample-command", set("local-myapp-sample-command")), "one table: no prefix is known")
	require.Empty(t, staleMatches("local-test-cli-sample-command", set("local-myapp-sample-command", "prod-other-x")),
		"tables of other stages share no prefix")
	require.Equal(t, []string{"local-app-orders", "local-app-shop-orders"},
		staleMatches("local-old-shop-orders", set("local-app-orders", "local-app-shop-orders")), "two fit: ambiguous")
	require.Empty(t, staleMatches("sample-command", tpl), "a name that is only the table part has no prefix of its own")
}
