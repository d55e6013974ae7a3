package expr

import (
	"strings"
	"testing"

	"github.com/dynamoemu/dynamoemu/internal/storage"
)

// TestUpdateAccounting: OnlyRemoves, and StatementCharge of each clause
// kind with the figures of AWS's record (update_accounting.go): each case
// is one of paritysuite/dynamodb-conformance's itemSizeBySurface.test.ts.
func TestUpdateAccounting(t *testing.T) {
	t.Parallel()
	ten := storage.S("yyyyyyyyyy")
	vals := map[string]storage.Value{
		":v": storage.S("x"), ":s": storage.SS([]string{"a"}), ":one": storage.N("1"),
		":new": storage.L([]storage.Value{ten}), ":a": storage.L([]storage.Value{storage.S("e")}),
		":m":   storage.M(map[string]storage.Value{"a": storage.S(strings.Repeat("y", 100))}),
		":big": storage.SS([]string{strings.Repeat("s", 500)}), ":rm": storage.SS([]string{"qq"}),
	}
	cur := storage.Item{"ss": storage.SS([]string{"ppppp"}), "s2": storage.SS([]string{"a", "b"})}
	const base, set = 3, 19
	tests := []struct {
		expr        string
		onlyRemoves bool
		charge      int
	}{
		{"SET a = :v", false, base + set + 1 + 1},
		{"SET a = :v, b = :v", false, base + 2*(set+1+1)},
		{"SET #twelvechars = :v", false, base + set + 1 + 1}, // the alias resolved: b
		{"SET c = abcdefghij", false, base + set + 1 + (1 + 14 + 10)},
		{"SET c = m.a.z", false, base + set + 1 + (1 + 3*14 + 3)},
		{"SET c = l[10]", false, base + set + 1 + (1 + 14 + 1 + 14 + 2)},
		{"SET l = list_append(l, :new)", false, base + set + 1 + 37 + (1 + 14 + 1) + (3 + 1 + 10)},
		{"SET l = list_append(:a, :new)", false, base + set + 1 + 37 + (3 + 1 + 1) + (3 + 1 + 10)},
		{"SET c = if_not_exists(c, :m)", false, base + set + 1 + 39 + (1 + 14 + 1) + (3 + 1 + 1 + 100)},
		{"SET c = if_not_exists(c, :v), d = if_not_exists(d, :v)", false, base + 2*(set+1+39+(1+14+1)+1)},
		{"SET n = n + :one", false, base + set + 1 + 34 + (1 + 14 + 1) + 2},
		{"SET n = n - :one", false, base + set + 1 + 37 + (1 + 14 + 1) + 2},
		{"SET d[0] = :v", false, base + set + (1 + 4 + 1) + 1},
		{"SET d.leaf = :v", false, base + set + (1 + 4 + 4) + 1},
		{"ADD abcdefghij :one", false, base + set + 10 + 2},
		{"ADD ss :big", false, base + set + 2 + 500},
		{"ADD s2 :s", false, base + set + 2 + 0}, // a member it holds already
		{"ADD s :s", false, base + set + 1 + 1},  // no set there yet
		{"REMOVE abcdefghij", true, base + 1 + 10},
		{"REMOVE m.yyyyyyyyyy", true, base + 1 + 1 + 4 + 10},
		{"REMOVE abcdefghij[1]", true, base + 1 + 10 + 4 + 1},
		{"REMOVE a.b, c[0]", true, base + (1 + 1 + 4 + 1) + (1 + 1 + 4 + 1)},
		{"DELETE ss :rm", true, base + 1 + 2},
		{"REMOVE a DELETE s :s", true, base + 2 + 2},
		{"SET b = :v REMOVE r", false, base + set + 1 + 1 + 2},
	}
	for _, tt := range tests {
		u, err := NewCompiler(map[string]string{"#twelvechars": "b"}, vals).Update(tt.expr)
		if err != nil {
			t.Fatalf("%s: %v", tt.expr, err)
		}
		if got := u.OnlyRemoves(); got != tt.onlyRemoves {
			t.Errorf("%s: OnlyRemoves %v, want %v", tt.expr, got, tt.onlyRemoves)
		}
		if got := u.StatementCharge(cur); got != tt.charge {
			t.Errorf("%s: StatementCharge %d, want %d", tt.expr, got, tt.charge)
		}
	}
	var none *Update
	if none.OnlyRemoves() || none.StatementCharge(nil) != 0 {
		t.Errorf("nil update: OnlyRemoves %v, StatementCharge %d; want false, 0", none.OnlyRemoves(), none.StatementCharge(nil))
	}
}
