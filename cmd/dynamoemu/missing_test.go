package main

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestMissingFiles: a -dbPath whose files do not hold the whole history
// the server acknowledged (its newest log segment removed after a kill
// -9, as a backup copied mid-rotation or a careless clean-up leaves it;
// a segment of another database copied over one of its own) or that a
// newer dynamoemu laid out: the server refuses to start, naming the
// files and the records missing. With -dbAcceptLoss it starts at the
// records before the first missing one and logs what it lost, and the
// next start needs no flag. The persist package tests every case in
// depth (TestMissingSegment); this is the server end to end.
func TestMissingFiles(t *testing.T) {
	const puts = 3000
	fill := func(t *testing.T, dir string) {
		c := startChild(t, "-dbPath", dir, "-durability", "none", "-dbCompactBytes", "262144")
		cl := newClient(c.url)
		ctx := context.Background()
		require.NoError(t, cl.call(ctx, "CreateTable", `{"TableName":"tab","KeySchema":[{"AttributeName":"pk","KeyType":"HASH"}],"AttributeDefinitions":[{"AttributeName":"pk","AttributeType":"S"}],"BillingMode":"PAY_PER_REQUEST"}`, nil))
		var wg sync.WaitGroup
		for w := range 4 {
			wg.Go(func() {
				for i := w; i < puts; i += 4 {
					body := fmt.Sprintf(`{"TableName":"tab","Item":{"pk":{"S":"k%05d"},"v":{"S":"%s"}}}`, i, strings.Repeat("v", 150))
					if err := cl.call(ctx, "PutItem", body, nil); err != nil {
						t.Error(err)
						return
					}
				}
			})
		}
		wg.Wait()
		c.kill()
	}
	segments := func(t *testing.T, dir string) []string {
		names, err := filepath.Glob(filepath.Join(dir, "crash_us-east-1", "wal-*.log"))
		require.NoError(t, err)
		sort.Strings(names)
		require.NotEmpty(t, names)
		return names
	}
	cases := []struct {
		name   string
		damage func(t *testing.T, dir string) []string // what the refusal names
		want   string
		accept bool // -dbAcceptLoss opens it
	}{
		{"newest segment removed", func(t *testing.T, dir string) []string {
			segs := segments(t, dir)
			newest := segs[len(segs)-1]
			require.NoError(t, os.Remove(newest))
			if len(segs) == 1 { // the refusal names the snapshot and what follows it
				return nil
			}
			return []string{filepath.Base(segs[len(segs)-2]), filepath.Base(newest)} // sealed, naming it
		}, "is missing", true},
		{"segment of another database", func(t *testing.T, dir string) []string {
			other := t.TempDir()
			fill(t, other)
			theirs := segments(t, other)
			ours := segments(t, dir)
			b, err := os.ReadFile(theirs[len(theirs)-1])
			require.NoError(t, err)
			require.NoError(t, os.WriteFile(ours[len(ours)-1], b, 0o644)) // a restore that mixed two copies
			return []string{filepath.Base(ours[len(ours)-1])}
		}, "files of another database", true},
		{"directory of a newer layout", func(t *testing.T, dir string) []string {
			require.NoError(t, os.WriteFile(filepath.Join(dir, "FORMAT"), []byte("dynamoemu data directory, layout 99\n"), 0o644))
			return []string{"layout 99"}
		}, "run a newer dynamoemu", false},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			dir := t.TempDir()
			fill(t, dir)
			names := tc.damage(t, dir)
			c, err := tryStartChild(t, "-dbPath", dir)
			if err == nil {
				c.stop(t)
				t.Fatal("the server started")
			}
			require.Contains(t, err.Error(), tc.want)
			for _, n := range names {
				require.Contains(t, err.Error(), n)
			}
			if !tc.accept {
				return
			}
			require.Contains(t, err.Error(), "-dbAcceptLoss")

			c = startChild(t, "-dbPath", dir, "-dbAcceptLoss")
			require.Contains(t, c.logs.String(), "WITHOUT the records it was missing")
			items, err := newClient(c.url).scanAll(context.Background(), "tab", "")
			require.NoError(t, err)
			require.Less(t, len(items), puts)
			t.Logf("-dbAcceptLoss: %d of %d items", len(items), puts)
			c.stop(t)
			c = startChild(t, "-dbPath", dir) // no flag needed any more
			again, err := newClient(c.url).scanAll(context.Background(), "tab", "")
			require.NoError(t, err)
			require.Len(t, again, len(items))
			c.stop(t)
		})
	}
}
