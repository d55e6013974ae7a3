package httploop

import (
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/require"
)

// fieldValueByte is fieldValueOK one byte at a time: the reference.
func fieldValueByte(val []byte) bool {
	for _, c := range val {
		if c < ' ' && c != '\t' || c == 0x7f {
			return false
		}
	}
	return true
}

// TestFieldValueOK checks the word-wide check against the byte-wide one
// on values of every length up to 40 with a few bytes of every class
// (controls, tab, DEL, and the bytes beside them, high bytes) anywhere.
func TestFieldValueOK(t *testing.T) {
	special := []byte{0, 0x08, '\t', 0x0a, 0x1f, ' ', '!', 0x7e, 0x7f, 0x80, 0xff}
	r := rand.New(rand.NewPCG(1, 2))
	for range 50000 {
		b := make([]byte, r.IntN(41))
		for i := range b {
			b[i] = byte(' ' + r.IntN(0x7f-' '))
		}
		for range r.IntN(4) {
			if len(b) > 0 {
				b[r.IntN(len(b))] = special[r.IntN(len(special))]
			}
		}
		require.Equal(t, fieldValueByte(b), fieldValueOK(b), "%q", b)
	}
}

func FuzzFieldValueOK(f *testing.F) {
	f.Add([]byte("AWS4-HMAC-SHA256 Credential=AKID1/20260101/us-east-1/dynamodb/aws4_request"))
	f.Add([]byte("tab\there, DEL\x7f, ctl\x01, high\xff"))
	f.Fuzz(func(t *testing.T, b []byte) {
		if fieldValueByte(b) != fieldValueOK(b) {
			t.Fatalf("fieldValueOK(%q) = %v", b, fieldValueOK(b))
		}
	})
}

// BenchmarkFieldValue checks an SDK's Authorization value: word-wide
// (fieldValueOK) and byte-wide (the loop it replaced).
func BenchmarkFieldValue(b *testing.B) {
	val := []byte("AWS4-HMAC-SHA256 Credential=AKIAIOSFODNN7EXAMPLE/20260101/us-east-1/dynamodb/aws4_request, " +
		"SignedHeaders=accept-encoding;content-length;content-type;host;x-amz-date;x-amz-target, " +
		"Signature=fe5f80f77d5fa3beca038a248ff027d0445342fe2855ddc963176630326f1024")
	for _, c := range []struct {
		name string
		f    func([]byte) bool
	}{{"words", fieldValueOK}, {"bytes", fieldValueByte}} {
		b.Run(c.name, func(b *testing.B) {
			for b.Loop() {
				if !c.f(val) {
					b.Fatal("refused")
				}
			}
		})
	}
}
