package streamlog

import (
	"testing"
	"time"
)

func TestShardIteratorRoundTrip(t *testing.T) {
	arn := "arn:aws:dynamodb:us-east-1:000000000000:table/t1/stream/2026-11-22T10:00:00.000"
	made := time.Date(2026, 11, 22, 10, 0, 0, 123, time.UTC)
	for _, pos := range []uint64{0, 1, 1 << 40, ^uint64(0)} {
		it := Iterator{ARN: arn, Pos: pos, Made: made}
		got, ok := DecodeIterator(it.Encode())
		if !ok || got.ARN != arn || got.Pos != pos || !got.Made.Equal(made) {
			t.Errorf("pos %d: got %+v, %v; want %+v", pos, got, ok, it)
		}
	}
	good := Iterator{ARN: arn, Pos: 7, Made: made}.Encode()
	tests := []struct{ name, in string }{
		{"empty", ""},
		{"no separators", "garbage"},
		{"other version", arn + "|2|" + good[len(good)-27:]},
		{"other arn", "arn:aws:dynamodb:us-east-1:000000000000:table/t2/stream/x" + good[len(arn):]},
		{"truncated", good[:len(good)-1]},
		{"flipped payload", good[:len(good)-2] + "AA"},
		{"not an arn", "xyz" + good[3:]},
	}
	for _, tc := range tests {
		if _, ok := DecodeIterator(tc.in); ok {
			t.Errorf("%s: %q decoded, want refused", tc.name, tc.in)
		}
	}
}

func TestSequenceNumbers(t *testing.T) {
	tests := []struct {
		in   string
		want uint64
		ok   bool
	}{
		{"000000000000000000001", 1, true},
		{"000000000000000000000", 0, true},
		{"18446744073709551615", 1<<64 - 1, true},
		{"18446744073709551616", 0, false},
		{"00000000000000000000000000000000000000001", 0, false}, // 41 digits
		{"12a", 0, false},
		{"", 0, false},
	}
	for _, tc := range tests {
		got, ok := ParseSequenceNumber(tc.in)
		if got != tc.want || ok != tc.ok {
			t.Errorf("ParseSequenceNumber(%q): got %d, %v; want %d, %v", tc.in, got, ok, tc.want, tc.ok)
		}
	}
	if got, want := FormatSequenceNumber(42), "000000000000000000042"; got != want {
		t.Errorf("FormatSequenceNumber(42): got %q, want %q", got, want)
	}
}

// FuzzShardIterator: decoding never panics, and whatever decodes encodes
// back to an iterator that decodes to the same thing.
func FuzzShardIterator(f *testing.F) {
	arn := "arn:aws:dynamodb:us-east-1:000000000000:table/t1/stream/2026-11-22T10:00:00.000"
	f.Add(Iterator{ARN: arn, Pos: 7, Made: time.Unix(1795345228, 5)}.Encode())
	f.Add(arn + "|1|AAAA")
	f.Add("arn:|1|")
	f.Add("|||")
	f.Fuzz(func(t *testing.T, s string) {
		it, ok := DecodeIterator(s)
		if !ok {
			return
		}
		again, ok := DecodeIterator(it.Encode())
		if !ok || again.ARN != it.ARN || again.Pos != it.Pos || !again.Made.Equal(it.Made) {
			t.Fatalf("%q decoded to %+v, which re-encodes to %+v, %v", s, it, again, ok)
		}
	})
}

// FuzzSequenceNumber: parsing never panics and round-trips.
func FuzzSequenceNumber(f *testing.F) {
	for _, s := range []string{"000000000000000000001", "18446744073709551615", "x", ""} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		n, ok := ParseSequenceNumber(s)
		if !ok {
			return
		}
		if m, ok := ParseSequenceNumber(FormatSequenceNumber(n)); !ok || m != n {
			t.Fatalf("%q -> %d -> %q -> %d, %v", s, n, FormatSequenceNumber(n), m, ok)
		}
	})
}
