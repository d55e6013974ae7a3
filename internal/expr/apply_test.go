package expr

import (
	"testing"

	"github.com/dynamoemu/dynamoemu/internal/storage"
)

// TestApplyFirstErrorInSourceOrder: when several actions fail, Apply
// reports the one that comes first in the expression, wherever it sits in
// the item (DynamoDB's own choice follows an order of its own; see
// apply.go).
func TestApplyFirstErrorInSourceOrder(t *testing.T) {
	item := decodeItem(t, `{"a":{"L":[{"S":"s"}]},"z":{"L":[{"S":"s"}]},"s":{"S":"s"}}`)
	vals := map[string]storage.Value{":n": n1}
	tests := []struct{ expr, want string }{
		{"ADD a[0] :n, q.y :n", MsgOperandDataType},
		{"ADD q.y :n, a[0] :n", MsgInvalidPathForUpdate},
		{"ADD z[0] :n, b.y :n", MsgOperandDataType},
		{"ADD b.y :n, z[0] :n", MsgInvalidPathForUpdate},
		{"SET x = s + :n, a[0].y = :n", MsgOperandDataType},
		{"SET a[0].y = :n, x = s + :n", MsgInvalidPathForUpdate},
		{"SET x = nope, q.y = :n", MsgMissingAttribute},
		{"SET q.y = :n REMOVE a[0] ADD z[0] :n", MsgInvalidPathForUpdate},
		{"ADD z[0] :n SET q.y = :n", MsgOperandDataType}, // clauses count in text order
		{"SET a[0] = :n ADD z[0] :n, a[1] :n REMOVE q.r", MsgOperandDataType},
		// Both under one list: the first in the text wins, not the lower index.
		{"SET a[5].y = :n ADD a[0] :n", MsgInvalidPathForUpdate},
		{"ADD a[0] :n SET a[5].y = :n", MsgOperandDataType},
	}
	for _, tt := range tests {
		u, err := NewCompiler(nil, vals).Update(tt.expr)
		if err != nil {
			t.Fatalf("%q: %v", tt.expr, err)
		}
		_, err = u.Apply(item)
		if err == nil || err.Error() != tt.want {
			t.Errorf("%q: got %v, want %q", tt.expr, err, tt.want)
		}
	}
}

// TestApplyListPositions checks the list rules of apply.go on one list:
// every index names a position in the list before the update.
func TestApplyListPositions(t *testing.T) {
	l := func(vs ...string) storage.Value {
		out := make([]storage.Value, len(vs))
		for i, v := range vs {
			out[i] = storage.S(v)
		}
		return storage.L(out)
	}
	vals := map[string]storage.Value{":a": storage.S("A"), ":b": storage.S("B"), ":c": storage.S("C")}
	tests := []struct {
		start storage.Value
		expr  string
		want  storage.Value
	}{
		{l("0"), "SET l[3] = :a REMOVE l[1]", l("0", "A")},
		{l("0", "1", "2"), "REMOVE l[2], l[0], l[1]", l()},
		{l("0", "1", "2"), "REMOVE l[1], l[9] SET l[2] = :a, l[0] = :b", l("B", "A")},
		{l("0"), "SET l[9] = :a, l[4] = :b, l[7] = :c", l("0", "B", "C", "A")},
		{l("0", "1"), "SET l[1] = :a REMOVE l[0] DELETE l[5] :ss", l("A")},
		{l(), "SET l[0] = :a, l[1] = :b", l("A", "B")},
	}
	for _, tt := range tests {
		vs := map[string]storage.Value{":ss": storage.SS([]string{"x"})}
		for k, v := range vals {
			vs[k] = v
		}
		u, err := NewCompiler(nil, vs).Update(tt.expr)
		if err != nil {
			t.Fatalf("%q: %v", tt.expr, err)
		}
		old := storage.Item{"l": tt.start}
		out, err := u.Apply(old)
		if err != nil {
			t.Fatalf("%q: %v", tt.expr, err)
		}
		if got, want := encodeAV(out["l"]), encodeAV(tt.want); got != want {
			t.Errorf("%q on %s: got %s, want %s", tt.expr, encodeAV(tt.start), got, want)
		}
		if got := encodeAV(old["l"]); got != encodeAV(tt.start) {
			t.Errorf("%q: Apply modified its input: %s", tt.expr, got)
		}
	}
}

// TestUpdateInOrder: the order given, not the text's, decides which
// overlapping paths a message names first and which failing action is
// reported.
func TestUpdateInOrder(t *testing.T) {
	item := decodeItem(t, `{"l":{"L":[{"S":"s"}]}}`)
	vals := map[string]storage.Value{":n": n1}
	tests := []struct {
		text  string
		order []int
		want  string // compile or apply error
	}{
		{"SET l[0].a = :n REMOVE l[0][1]", nil,
			"Invalid UpdateExpression: Two document paths conflict with each other; must remove or rewrite one of these paths; path one: [l, [0], a], path two: [l, [0], [1]]"},
		{"SET l[0].a = :n REMOVE l[0][1]", []int{1, 0},
			"Invalid UpdateExpression: Two document paths conflict with each other; must remove or rewrite one of these paths; path one: [l, [0], [1]], path two: [l, [0], a]"},
		{"SET x.y = :n ADD l[0] :n", nil, MsgInvalidPathForUpdate},
		{"SET x.y = :n ADD l[0] :n", []int{1, 0}, MsgOperandDataType},
	}
	for _, tt := range tests {
		u, err := NewCompiler(nil, vals).UpdateInOrder(tt.text, tt.order)
		if err == nil {
			_, err = u.Apply(item)
		}
		if err == nil || err.Error() != tt.want {
			t.Errorf("%q in order %v: got %v, want %q", tt.text, tt.order, err, tt.want)
		}
	}
	defer func() {
		if recover() == nil {
			t.Errorf("an order that is not a permutation: no panic")
		}
	}()
	NewCompiler(nil, vals).UpdateInOrder("SET a = :n, b = :n", []int{0, 0})
}
