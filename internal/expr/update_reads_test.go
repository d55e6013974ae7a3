package expr

import (
	"testing"

	"github.com/dynamoemu/dynamoemu/internal/storage"
)

// restrict returns the attributes of it named in names.
func restrict(it storage.Item, names []string) storage.Item {
	out := storage.Item{}
	for _, n := range names {
		if v, ok := it[n]; ok {
			out[n] = v
		}
	}
	return out
}

// checkPartialApply checks Reads' promise: Apply on the item cut to Reads
// gives what Apply on the whole item gives, for SortedAttributes.
func checkPartialApply(t *testing.T, src string, u *Update, it storage.Item) {
	t.Helper()
	full, ferr := u.Apply(it)
	var part storage.Item
	if it != nil {
		part = restrict(it, u.Reads())
	}
	got, gerr := u.Apply(part)
	if (ferr == nil) != (gerr == nil) || ferr != nil && ferr.Error() != gerr.Error() {
		t.Fatalf("%q: Apply on Reads: error %v, on the item: %v", src, gerr, ferr)
	}
	if ferr != nil {
		return
	}
	targets := u.SortedAttributes()
	if a, b := encodeItem(restrict(got, targets)), encodeItem(restrict(full, targets)); a != b {
		t.Fatalf("%q: Apply on Reads gives %s, on the item %s", src, a, b)
	}
}

func TestUpdateReads(t *testing.T) {
	tests := []struct {
		src       string
		targets   []string
		wantReads []string
	}{
		{"SET #b = :a", []string{"b"}, []string{"b"}},
		{"SET z = a + :a, y = if_not_exists(m.k, :v) REMOVE l[0]", []string{"l", "y", "z"}, []string{"a", "l", "m", "y", "z"}},
		{"SET x = list_append(l, :l) ADD #a :n DELETE b :ss", []string{"a", "b", "x"}, []string{"a", "b", "l", "x"}},
	}
	for _, tt := range tests {
		t.Run(tt.src, func(t *testing.T) {
			u, err := fuzzCompiler().Update(tt.src)
			if err != nil {
				t.Fatal(err)
			}
			if got := u.SortedAttributes(); !equalStrings(got, tt.targets) {
				t.Errorf("SortedAttributes: got %v, want %v", got, tt.targets)
			}
			if got := u.Reads(); !equalStrings(got, tt.wantReads) {
				t.Errorf("Reads: got %v, want %v", got, tt.wantReads)
			}
			checkPartialApply(t, tt.src, u, fuzzItem)
			checkPartialApply(t, tt.src, u, nil)
		})
	}
}

func equalStrings(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// FuzzUpdateReads holds Apply on an item cut to Reads to Apply on the
// whole item, for every update the fuzzer compiles.
func FuzzUpdateReads(f *testing.F) {
	seedFuzz(f, "update")
	f.Add("SET z = a + :a, y = if_not_exists(m.k, :v) REMOVE l[0]")
	f.Add("SET x = list_append(l, :l), l[1].c = b ADD #a :n")
	f.Fuzz(func(t *testing.T, src string) {
		u, err := fuzzCompiler().Update(src)
		if err != nil {
			return
		}
		checkPartialApply(t, src, u, fuzzItem)
		checkPartialApply(t, src, u, nil)
	})
}
