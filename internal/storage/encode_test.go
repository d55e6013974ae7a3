package storage

import (
	"errors"
	"testing"
)

func sampleItems() []Item {
	deep := L(nil)
	for i := 0; i < 40; i++ {
		deep = L([]Value{deep, M(map[string]Value{"k": deep})})
		if i > 3 {
			deep = L([]Value{S("leaf")})
		}
	}
	return []Item{
		{},
		{"s": S("hello"), "n": N("-12.5"), "b": B([]byte{0, 255}), "t": Bool(true), "f": Bool(false), "z": Null()},
		{"": S(""), "é": S("€")},
		{"l": L([]Value{S("a"), N("1"), L(nil), M(nil)}), "m": M(map[string]Value{"x": SS([]string{"a", "b"}), "y": NS([]Number{"1", "2.5"}), "w": BS([][]byte{{1}, {}})})},
		{"deep": deep},
	}
}

func TestEncodeRoundTrip(t *testing.T) {
	for i, it := range sampleItems() {
		enc, err := appendItem(nil, it, "", "")
		if err != nil {
			t.Fatalf("item %d: %v", i, err)
		}
		got, err := decodeItem(string(enc), 0)
		if err != nil {
			t.Fatalf("item %d: decode: %v", i, err)
		}
		if !ItemsEqual(got, it) {
			t.Fatalf("item %d: round trip got %v, want %v", i, got, it)
		}
	}
}

func TestEncodeSkipsKeys(t *testing.T) {
	it := Item{"pk": S("a"), "sk": N("1"), "v": S("x")}
	enc, err := appendItem(nil, it, "pk", "sk")
	if err != nil {
		t.Fatal(err)
	}
	got, err := decodeItem(string(enc), 0)
	if err != nil || !ItemsEqual(got, Item{"v": S("x")}) {
		t.Fatalf("got %v, %v; want only v", got, err)
	}
}

func TestEncodeTooDeep(t *testing.T) {
	v := Null()
	for i := 0; i < maxDepth; i++ {
		v = L([]Value{v})
	}
	if _, err := appendItem(nil, Item{"a": v}, "", ""); !errors.Is(err, ErrTooDeep) {
		t.Fatalf("got %v, want ErrTooDeep", err)
	}
}

func TestDecodeMalformed(t *testing.T) {
	tests := []struct{ name, in string }{
		{"empty", ""},
		{"version", "\x02\x00"},
		{"count too big", "\x01\x05\x01a\x06"},
		{"truncated name", "\x01\x01\x05ab"},
		{"unknown tag", "\x01\x01\x01a\x63"},
		{"trailing", "\x01\x00\x00"},
		{"duplicate", "\x01\x02\x01a\x06\x01a\x06"},
		{"duplicate map entry", "\x01\x01\x01a\x08\x02\x01k\x06\x01k\x06"},
		{"bad varint", "\x01\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff"},
		{"string too long", "\x01\x01\x01a\x01\x09ab"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if _, err := decodeItem(tt.in, 0); !errors.Is(err, ErrCorrupt) {
				t.Fatalf("decodeItem(%x) error = %v, want ErrCorrupt", tt.in, err)
			}
		})
	}
}

func FuzzDecodeItem(f *testing.F) {
	for _, it := range sampleItems() {
		enc, err := appendItem(nil, it, "", "")
		if err != nil {
			f.Fatal(err)
		}
		f.Add(enc)
	}
	f.Add([]byte("\x01\x01\x01a\x07\x03\x07\x01\x07\x00\x06\x06"))
	f.Fuzz(func(t *testing.T, data []byte) {
		it, err := decodeItem(string(data), 2)
		if err != nil {
			return
		}
		// Whatever decodes re-encodes to something that decodes the same.
		enc, err := appendItem(nil, it, "", "")
		if err != nil {
			t.Fatalf("re-encode: %v", err)
		}
		again, err := decodeItem(string(enc), 0)
		if err != nil || !ItemsEqual(again, it) {
			t.Fatalf("re-decode: %v, %v; want %v", again, err, it)
		}
		_ = ItemSize(it)
	})
}
