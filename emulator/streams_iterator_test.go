package emulator

import (
	"testing"
	"time"
)

func TestShardIteratorRoundTrip(t *testing.T) {
	arn := "arn:aws:dynamodb:us-east-1:000000000000:table/t1/stream/2026-11-22T10:00:00.000"
	made := time.Date(2026, 11, 22, 10, 0, 0, 123, time.UTC)
	for _, pos := range []uint64{0, 1, 1 << 40, ^uint64(0)} {
		it := shardIterator{arn: arn, pos: pos, made: made}
		got, ok := decodeShardIterator(it.encode())
		if !ok || got.arn != arn || got.pos != pos || !got.made.Equal(made) {
			t.Errorf("pos %d: got %+v, %v; want %+v", pos, got, ok, it)
		}
	}
	good := shardIterator{arn: arn, pos: 7, made: made}.encode()
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
		if _, ok := decodeShardIterator(tc.in); ok {
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
		got, ok := parseSequenceNumber(tc.in)
		if got != tc.want || ok != tc.ok {
			t.Errorf("parseSequenceNumber(%q): got %d, %v; want %d, %v", tc.in, got, ok, tc.want, tc.ok)
		}
	}
	if got, want := formatSequenceNumber(42), "000000000000000000042"; got != want {
		t.Errorf("formatSequenceNumber(42): got %q, want %q", got, want)
	}
}

// FuzzShardIterator: decoding never panics, and whatever decodes encodes
// back to an iterator that decodes to the same thing.
func FuzzShardIterator(f *testing.F) {
	arn := "arn:aws:dynamodb:us-east-1:000000000000:table/t1/stream/2026-11-22T10:00:00.000"
	f.Add(shardIterator{arn: arn, pos: 7, made: time.Unix(1795345228, 5)}.encode())
	f.Add(arn + "|1|AAAA")
	f.Add("arn:|1|")
	f.Add("|||")
	f.Fuzz(func(t *testing.T, s string) {
		it, ok := decodeShardIterator(s)
		if !ok {
			return
		}
		again, ok := decodeShardIterator(it.encode())
		if !ok || again.arn != it.arn || again.pos != it.pos || !again.made.Equal(it.made) {
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
		n, ok := parseSequenceNumber(s)
		if !ok {
			return
		}
		if m, ok := parseSequenceNumber(formatSequenceNumber(n)); !ok || m != n {
			t.Fatalf("%q -> %d -> %q -> %d, %v", s, n, formatSequenceNumber(n), m, ok)
		}
	})
}

// FuzzClockRequest: the admin clock body decoder never panics, and
// accepts exactly one of advance and set.
func FuzzClockRequest(f *testing.F) {
	for _, s := range []string{`{"advance":"1h"}`, `{"set":"2030-01-02T03:04:05Z"}`, `{"advance":"1h","set":"x"}`, `{}`, `[`, `{"advance":null}`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, body []byte) {
		ch, err := parseClockRequest(body)
		if err == nil && ch.isSet && ch.advance != 0 {
			t.Fatalf("%q: both set and advance", body)
		}
	})
}
