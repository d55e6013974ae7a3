package storage

import "testing"

// TestEncodedNumberSortKey checks that an item of a table with a number
// sort key, visited encoded (its sort key kept in its order-preserving
// encoding), gives the key's canonical text through Key, Attributes, Item,
// Head and HeadLazy with AppendNumber alike.
func TestEncodedNumberSortKey(t *testing.T) {
	nums := []string{"0", "1", "-1", "10", "100", "0.5", "-0.5", "123.456", "-123.456",
		"0.000001", "1E+125", "-1E+125", "1E-130", "-1E-130",
		"12345678901234567890123456789012345678", "-0.00000000000000000000000000000000000012345678901234567890123456789012345678"}
	tbl := newTable(t, schemaSN)
	want := map[string]bool{}
	for _, s := range nums {
		n, err := ParseNumber(s)
		if err != nil {
			t.Fatalf("ParseNumber(%q): %v", s, err)
		}
		it := Item{"pk": S("p"), "sk": N(n), "x": N(n)}
		if _, err := tbl.Put(schemaSN.KeyOf(it), it); err != nil {
			t.Fatal(err)
		}
		want[string(n)] = true
	}
	seen := 0
	tbl.QueryEncoded(QueryRange{Partition: S("p"), Forward: true}, func(e EncodedItem) bool {
		seen++
		x := e.Attributes([]string{"x"})["x"].str
		if !want[x] {
			t.Fatalf("attribute x = %q, not one written", x)
		}
		if got := e.Key().Sort; got != N(Number(x)) {
			t.Errorf("Key().Sort = %v, want N %q", got, x)
		}
		if got := e.Attributes([]string{"sk"})["sk"]; got != N(Number(x)) {
			t.Errorf("Attributes(sk) = %v, want N %q", got, x)
		}
		if got := e.Item()["sk"]; got != N(Number(x)) {
			t.Errorf("Item()[sk] = %v, want N %q", got, x)
		}
		for _, lazy := range []bool{false, true} {
			r := e.Reader()
			for {
				name, ok := r.Next()
				if !ok {
					break
				}
				if name != "sk" {
					r.Skip()
					continue
				}
				var h Head
				if lazy {
					h = r.HeadLazy()
				} else {
					h = r.Head()
				}
				if h.Kind != KindN {
					t.Fatalf("sk kind %v, want N", h.Kind)
				}
				if !lazy && h.Str != x {
					t.Errorf("Head().Str = %q, want %q", h.Str, x)
				}
				if got := string(h.AppendNumber([]byte("pre"))); got != "pre"+x {
					t.Errorf("AppendNumber (lazy %v) = %q, want %q", lazy, got, "pre"+x)
				}
			}
			if err := r.Err(); err != nil {
				t.Fatal(err)
			}
		}
		return true
	})
	if seen != len(nums) {
		t.Errorf("visited %d items, want %d", seen, len(nums))
	}
}
