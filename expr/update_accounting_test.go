package expr

import (
	"testing"

	"github.com/dynamoemu/dynamoemu/storage"
)

// TestUpdateAccounting: OnlyRemoves and SizeCharge of each action kind.
func TestUpdateAccounting(t *testing.T) {
	t.Parallel()
	vals := map[string]storage.Value{":v": storage.S("x"), ":s": storage.SS([]string{"a"})}
	tests := []struct {
		expr        string
		onlyRemoves bool
		charge      int
	}{
		{"SET a = :v", false, 3 + 19},
		{"SET a = :v, b = :v", false, 3 + 2*19},
		{"SET a = if_not_exists(a, :v)", false, 3 + 19},
		{"ADD s :s", false, 3 + 19},
		{"REMOVE a", true, 3 + 2},
		{"REMOVE a.b, c[0]", true, 3 + 2*2},
		{"DELETE s :s", true, 3 + 2},
		{"REMOVE a DELETE s :s", true, 3 + 2*2},
		{"SET a = :v REMOVE b", false, 3 + 19 + 2},
		{"SET a[0] = :v", false, 3 + 19},
	}
	for _, tt := range tests {
		u, err := NewCompiler(nil, vals).Update(tt.expr)
		if err != nil {
			t.Fatalf("%s: %v", tt.expr, err)
		}
		if got := u.OnlyRemoves(); got != tt.onlyRemoves {
			t.Errorf("%s: OnlyRemoves %v, want %v", tt.expr, got, tt.onlyRemoves)
		}
		if got := u.SizeCharge(); got != tt.charge {
			t.Errorf("%s: SizeCharge %d, want %d", tt.expr, got, tt.charge)
		}
	}
	var none *Update
	if none.OnlyRemoves() || none.SizeCharge() != 0 {
		t.Errorf("nil update: OnlyRemoves %v, SizeCharge %d; want false, 0", none.OnlyRemoves(), none.SizeCharge())
	}
}
