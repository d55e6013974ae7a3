package storage

import (
	"testing"
	"unsafe"
)

// The sizes below were measured on DynamoDB Local: for each value v, the
// largest padding string p such that {"pk":"a","p":p,"x":v} is accepted
// gives size(v) = 409600 - len("pk") - 1 - len("p") - len(p) - len("x").
// An item of exactly 409600 bytes is accepted, one byte more is rejected with
// "Item size has exceeded the maximum allowed size".
func TestValueSize(t *testing.T) {
	n := func(s string) Value { return N(MustNumber(s)) }
	tests := []struct {
		name string
		v    Value
		want int
	}{
		{"S", S("abc"), 3},
		{"S empty", S(""), 0},
		{"S multibyte", S("é€😀"), 9},
		{"B", B([]byte{0, 1, 2}), 3},
		{"BOOL", Bool(true), 1},
		{"NULL", Null(), 1},
		{"N 0", n("0"), 1},
		{"N 1", n("1"), 2},
		{"N 12", n("12"), 2},
		{"N 123", n("123"), 3},
		{"N 1234", n("1234"), 3},
		{"N 12345", n("12345"), 4},
		{"N 100", n("100"), 2},
		{"N 1E100", n("1E100"), 2},
		{"N 0.001", n("0.001"), 2},
		{"N 0.15", n("0.15"), 2},
		{"N 0.015", n("0.015"), 3},
		{"N 1.5", n("1.5"), 3},
		{"N 10.5", n("10.5"), 3},
		{"N -1", n("-1"), 3},
		{"N -12", n("-12"), 3},
		{"N -123", n("-123"), 4},
		{"N -0.5", n("-0.5"), 3},
		{"N 1E-130", n("1E-130"), 2},
		{"N 38 digits", n("12345678901234567890123456789012345678"), 20},
		{"N 38 nines", n("99999999999999999999999999999999999999"), 20},
		{"N min", n("-9.9999999999999999999999999999999999999E+125"), 21},
		{"L empty", L(nil), 3},
		{"M empty", M(nil), 3},
		{"L one", L([]Value{S("ab")}), 6},
		{"L two", L([]Value{S("ab"), n("1")}), 9},
		{"M one", M(map[string]Value{"k": S("ab")}), 7},
		{"M two", M(map[string]Value{"kk": S("ab"), "y": Null()}), 11},
		{"L of L", L([]Value{L(nil)}), 7},
		{"M of M", M(map[string]Value{"a": M(map[string]Value{"b": Bool(false)})}), 11},
		{"SS", SS([]string{"a", "bc"}), 3},
		{"NS", NS([]Number{"1", "-12", "1.5"}), 8},
		{"BS", BS([][]byte{{0, 1, 2}, {0}}), 4},
		{"L of SS", L([]Value{SS([]string{"a"})}), 5},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := ValueSize(tt.v); got != tt.want {
				t.Errorf("ValueSize = %d, want %d", got, tt.want)
			}
		})
	}
}

func TestItemSize(t *testing.T) {
	tests := []struct {
		name string
		item Item
		want int
	}{
		{"empty", Item{}, 0},
		{"multibyte name", Item{"é": S("a")}, 3},
		{"probe item", Item{"pk": S("a"), "p": S("xyz"), "x": N("12345")}, 2 + 1 + 1 + 3 + 1 + 4},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := ItemSize(tt.item); got != tt.want {
				t.Errorf("ItemSize = %d, want %d", got, tt.want)
			}
		})
	}
}

// Decoded items are maps of Values; keep Value small (see value.go).
func TestValueIs32Bytes(t *testing.T) {
	if got := unsafe.Sizeof(Value{}); got != 32 {
		t.Fatalf("unsafe.Sizeof(Value{}) = %d, want 32", got)
	}
}

// TestValueDepth: a scalar or a set is level 1; each list or map around
// a value adds one, counted at its deepest element; an empty list or map
// is level 1 too.
func TestValueDepth(t *testing.T) {
	for _, tc := range []struct {
		name string
		v    Value
		want int
	}{
		{"scalar", S("a"), 1},
		{"set", SS([]string{"a", "b"}), 1},
		{"empty list", L(nil), 1},
		{"list of scalars", L([]Value{S("a"), N("1")}), 2},
		{"map in list", L([]Value{S("a"), M(map[string]Value{"k": L([]Value{S("b")})})}), 4},
		{"empty map", M(map[string]Value{}), 1},
	} {
		if got := tc.v.Depth(); got != tc.want {
			t.Errorf("%s: got depth %d, want %d", tc.name, got, tc.want)
		}
	}
}
