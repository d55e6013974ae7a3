package main

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestCleanStopKeepsOneSnapshot: a server that compacted while it ran
// and folded its log into a snapshot at a clean stop (SIGTERM) leaves
// one snapshot in its directory, and every item in it; so after a
// second run whose stop writes a snapshot over the first's. Each
// durability mode.
func TestCleanStopKeepsOneSnapshot(t *testing.T) {
	const batches = 60 // 1,500 items of about 1 KB a run: past the log a stop folds (1 MiB)
	for _, mode := range []string{"sync", "group", "none"} {
		t.Run(mode, func(t *testing.T) {
			dir := t.TempDir()
			ctx := context.Background()
			for run := range 2 {
				c := startChild(t, "-dbPath", dir, "-durability", mode, "-dbCompactBytes", "262144")
				cl := newClient(c.url)
				if run == 0 {
					require.NoError(t, cl.call(ctx, "CreateTable", `{"TableName":"tab","KeySchema":[{"AttributeName":"pk","KeyType":"HASH"}],"AttributeDefinitions":[{"AttributeName":"pk","AttributeType":"S"}],"BillingMode":"PAY_PER_REQUEST"}`, nil))
				}
				for b := range batches {
					var sb strings.Builder
					sb.WriteString(`{"RequestItems":{"tab":[`)
					for i := range 25 {
						if i > 0 {
							sb.WriteByte(',')
						}
						fmt.Fprintf(&sb, `{"PutRequest":{"Item":{"pk":{"S":"r%d-%d-%d"},"v":{"S":"%s"}}}}`, run, b, i, strings.Repeat("v", 1000))
					}
					sb.WriteString(`]}}`)
					require.NoError(t, cl.call(ctx, "BatchWriteItem", sb.String(), nil))
				}
				c.stop(t)
				// The first run compacted while it ran (-dbCompactBytes)
				// and folded its log at the stop; the second folds its
				// log over the first's snapshot: a new snapshot each.
				require.GreaterOrEqual(t, strings.Count(c.logs.String(), "persist: compacted"), 2-run, "run %d: its log:\n%s", run, c.logs.String())
				snaps, err := filepath.Glob(filepath.Join(dir, "*", "*.snap"))
				require.NoError(t, err)
				require.Len(t, snaps, 1, "run %d: the snapshots after a clean stop", run)
			}
			c := startChild(t, "-dbPath", dir, "-durability", mode)
			items, err := newClient(c.url).scanAll(ctx, "tab", "")
			require.NoError(t, err)
			require.Len(t, items, 2*batches*25)
			c.stop(t)
		})
	}
}
