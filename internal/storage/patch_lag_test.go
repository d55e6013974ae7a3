package storage

import (
	"slices"
	"testing"
)

// TestWritePatchLags: WritePatch commits as Write does (commitWriteLocked),
// so a read lag and a lagged index see a patch late, then whole once
// released.
func TestWritePatchLags(t *testing.T) {
	patch := func(tbl *Table, pk, v string) {
		t.Helper()
		_, err := tbl.WritePatch(Key{Partition: S(pk)}, []string{"v"}, func(EncodedItem, bool) (Item, error) {
			return Item{"v": S(v)}, nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}

	t.Run("read lag", func(t *testing.T) {
		tbl := newTable(t, KeySchema{Partition: KeyAttr{"pk", KindS}})
		put(t, tbl, Item{"pk": S("a"), "v": S("1")})
		l := &testLag{}
		tbl.SetReadLag(l)
		patch(tbl, "a", "2")
		patch(tbl, "b", "1")
		if got := eventualV(tbl, "a") + " " + eventualV(tbl, "b"); got != "1 -" {
			t.Fatalf("before release: got %q, want %q", got, "1 -")
		}
		l.release()
		if got := eventualV(tbl, "a") + " " + eventualV(tbl, "b"); got != "2 1" {
			t.Fatalf("after release: got %q, want %q", got, "2 1")
		}
	})

	t.Run("index lag", func(t *testing.T) {
		tbl, l := lagTable(t)
		put(t, tbl, lagItem("a", "x", "1"))
		l.release()
		patch(tbl, "a", "2")
		if got, want := gsiKeys(t, tbl, "x"), []string{"a=1"}; !slices.Equal(got, want) {
			t.Fatalf("before release: got %v, want %v", got, want)
		}
		l.release()
		if got, want := gsiKeys(t, tbl, "x"), []string{"a=2"}; !slices.Equal(got, want) {
			t.Fatalf("after release: got %v, want %v", got, want)
		}
	})
}
