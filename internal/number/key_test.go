package number

import (
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
		n := Must(s)
		enc := string(AppendKey(nil, n))
		if i > 0 && enc <= prev {
			t.Errorf("key(%s) = %x, not above key(%s) = %x", s, enc, ordered[i-1], prev)
		}
		prev = enc
		got, ok := DecodeKey(enc)
		if !ok || got != n {
			t.Errorf("DecodeKey(key(%s)) = %q, %v", s, got, ok)
		}
	}
}

func TestNumberKeyRandom(t *testing.T) {
	seed := uint64(time.Now().UnixNano())
	t.Logf("seed %d", seed)
	r := rand.New(rand.NewPCG(seed, seed))
	for i := 0; i < 20000; i++ {
		a, b := Random(r), Random(r)
		ka, kb := string(AppendKey(nil, a)), string(AppendKey(nil, b))
		if got, want := strings.Compare(ka, kb), Compare(a, b); got != want {
			t.Fatalf("seed %d: compare(key(%s), key(%s)) = %d, Compare = %d", seed, a, b, got, want)
		}
		if got, ok := DecodeKey(ka); !ok || got != a {
			t.Fatalf("seed %d: DecodeKey(key(%s)) = %q, %v", seed, a, got, ok)
		}
	}
}

func TestDecodeNumberKeyMalformed(t *testing.T) {
	for _, s := range []string{"", "\x00", "\x03", "\x03\x82", "\x03\x82\x00", "\x03\x82\x65", "\x01\x7d\x01", "\x03\x82\x01", "\x04\x82\x02"} {
		if n, ok := DecodeKey(s); ok {
			t.Errorf("DecodeKey(%x) = %q, want failure", s, n)
		}
	}
}
