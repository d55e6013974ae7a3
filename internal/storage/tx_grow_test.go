package storage

import (
	"fmt"
	"testing"
)

// TestWriteTxGrow: after Grow(n), n writes fit without the transaction's
// lists moving, a write already made is kept, and the writes commit and
// abort as without Grow.
func TestWriteTxGrow(t *testing.T) {
	tests := []struct {
		name   string
		before int // writes before Grow
		grow   int
		commit bool
	}{
		{"grow then commit", 0, 25, true},
		{"grow after a write, then abort", 1, 24, false},
		{"grow by nothing", 3, 0, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tbl := newTable(t, schemaS)
			tx := Begin(tbl)
			put := func(i int) {
				pk := fmt.Sprint("k", i)
				mustTx(t)(tx.Put(tbl, sKey(pk), numItem(pk, i)))
			}
			for i := range tt.before {
				put(i)
			}
			tx.Grow(tt.grow)
			if tt.grow > 0 {
				undo0, changes0 := &tx.undo[:1][0], &tx.changes[:1][0]
				for i := tt.before; i < tt.before+tt.grow; i++ {
					put(i)
				}
				if &tx.undo[0] != undo0 || &tx.changes[0] != changes0 {
					t.Errorf("the transaction's lists moved after Grow(%d)", tt.grow)
				}
			}
			n := tt.before + tt.grow
			if tt.commit {
				changes, err := tx.Commit()
				if err != nil || len(changes) != n {
					t.Fatalf("Commit: got %d changes, %v; want %d, nil", len(changes), err, n)
				}
				if got := len(contents(t, tbl)); got != n {
					t.Errorf("got %d items, want %d", got, n)
				}
				return
			}
			tx.Abort()
			if got := len(contents(t, tbl)); got != 0 {
				t.Errorf("after Abort: got %d items, want 0", got)
			}
		})
	}
}
