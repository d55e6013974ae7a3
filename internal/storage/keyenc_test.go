package storage

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
	"time"
)

func TestNumberKeyOrder(t *testing.T) {
	ordered := []string{
		"-9.9999999999999999999999999999999999999E+125", "-1E125", "-1000", "-999.99", "-100",
		"-99.5", "-12.3", "-12", "-1.23", "-1.2", "-1", "-0.5", "-0.0001", "-1E-130",
		"0",
		"1E-130", "0.0001", "0.5", "0.51", "1", "1.2", "1.23", "9", "10", "12", "12.3",
		"99.99", "100", "101", "1E100", "9.9999999999999999999999999999999999999E+125",
	}
	var prev string
	for i, s := range ordered {
		n := MustNumber(s)
		enc := string(appendNumberKey(nil, n))
		if i > 0 && enc <= prev {
			t.Errorf("key(%s) = %x, not above key(%s) = %x", s, enc, ordered[i-1], prev)
		}
		prev = enc
		got, ok := decodeNumberKey(enc)
		if !ok || got != n {
			t.Errorf("decodeNumberKey(key(%s)) = %q, %v", s, got, ok)
		}
	}
}

// randomNumber returns a random canonical number, biased to share digits
// and exponents so that near-equal numbers are common.
func randomNumber(r *rand.Rand) Number {
	for {
		var b strings.Builder
		if r.IntN(2) == 0 {
			b.WriteByte('-')
		}
		digits := 1 + r.IntN(38)
		if r.IntN(2) == 0 {
			digits = 1 + r.IntN(4)
		}
		for i := 0; i < digits; i++ {
			b.WriteByte("0123456789"[r.IntN(10)])
			if i == 0 {
				b.WriteByte('.')
			}
		}
		exp := r.IntN(256) - 130
		if r.IntN(2) == 0 {
			exp = r.IntN(7) - 3
		}
		fmt.Fprintf(&b, "E%d", exp)
		if n, err := ParseNumber(b.String()); err == nil {
			return n
		}
	}
}

func TestNumberKeyRandom(t *testing.T) {
	seed := uint64(time.Now().UnixNano())
	t.Logf("seed %d", seed)
	r := rand.New(rand.NewPCG(seed, seed))
	for i := 0; i < 20000; i++ {
		a, b := randomNumber(r), randomNumber(r)
		ka, kb := string(appendNumberKey(nil, a)), string(appendNumberKey(nil, b))
		if got, want := strings.Compare(ka, kb), CompareNumbers(a, b); got != want {
			t.Fatalf("seed %d: compare(key(%s), key(%s)) = %d, CompareNumbers = %d", seed, a, b, got, want)
		}
		if got, ok := decodeNumberKey(ka); !ok || got != a {
			t.Fatalf("seed %d: decodeNumberKey(key(%s)) = %q, %v", seed, a, got, ok)
		}
	}
}

func TestDecodeNumberKeyMalformed(t *testing.T) {
	for _, s := range []string{"", "\x00", "\x03", "\x03\x82", "\x03\x82\x00", "\x03\x82\x65", "\x01\x7d\x01", "\x03\x82\x01", "\x04\x82\x02"} {
		if n, ok := decodeNumberKey(s); ok {
			t.Errorf("decodeNumberKey(%x) = %q, want failure", s, n)
		}
	}
}

func TestSegmentRange(t *testing.T) {
	for _, total := range []int{2, 3, 7, 1000, 1000000} {
		next := uint64(0)
		for seg := 0; seg < total; seg++ {
			lo, hi, ok := segmentRange(seg, total)
			if !ok || lo != next || hi <= lo {
				t.Fatalf("segmentRange(%d, %d) = %d, %d, %v; want to start at %d", seg, total, lo, hi, ok, next)
			}
			for _, h := range []uint64{lo, hi - 1} {
				if got := int(h * uint64(total) >> 32); got != seg {
					t.Fatalf("hash %d of segment %d/%d maps to %d", h, seg, total, got)
				}
			}
			next = hi
		}
		if next != 1<<32 {
			t.Fatalf("segments of %d end at %d", total, next)
		}
	}
}
