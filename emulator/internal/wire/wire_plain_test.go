package wire

import (
	"encoding/json"
	"math/rand/v2"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/stretchr/testify/require"
)

// plainPrefixByte is plainPrefix one byte at a time: the reference.
func plainPrefixByte(s string) int {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x20 || c == '"' || c == '\\' || c >= 0x80 {
			return i
		}
	}
	return len(s)
}

func TestPlainPrefix(t *testing.T) {
	special := []byte{0, 0x1f, 0x20, 0x21, '"', '#', '\\', ']', 0x7f, 0x80, 0xff, 'a'}
	r := rand.New(rand.NewPCG(1, 2))
	for range 20000 {
		b := []byte(strings.Repeat("x", r.IntN(40)))
		for range r.IntN(3) {
			if len(b) > 0 {
				b[r.IntN(len(b))] = special[r.IntN(len(special))]
			}
		}
		s := string(b)
		if got, want := plainPrefix(s), plainPrefixByte(s); got != want {
			t.Fatalf("plainPrefix(%q): got %d, want %d", s, got, want)
		}
	}
}

// FuzzAppendString checks that AppendString's output is JSON that
// decodes to s, each invalid UTF-8 byte replaced by U+FFFD.
func FuzzAppendString(f *testing.F) {
	f.Add("plain text of some length")
	f.Add("quote\" slash\\ ctl\x01 é \u2028 \xff")
	f.Fuzz(func(t *testing.T, s string) {
		out := AppendString(nil, s)
		var back string
		if err := json.Unmarshal(out, &back); err != nil {
			t.Fatalf("AppendString(%q) = %s: not JSON: %v", s, out, err)
		}
		var want strings.Builder // each invalid byte is one U+FFFD
		for i := 0; i < len(s); {
			r, size := utf8.DecodeRuneInString(s[i:])
			want.WriteRune(r)
			i += size
		}
		if back != want.String() {
			t.Fatalf("AppendString(%q) = %s, decodes to %q, want %q", s, out, back, want.String())
		}
	})
}

func BenchmarkAppendString(b *testing.B) {
	s := strings.Repeat("x", 150) + "someone.42@example.com"
	buf := make([]byte, 0, 256)
	b.SetBytes(int64(len(s)))
	for b.Loop() {
		buf = AppendString(buf[:0], s)
	}
}

// FuzzReadString checks the decoder's string scans (readString,
// skipString and the request decoder's readKey, which test eight bytes at
// a time) against encoding/json: what readString accepts, encoding/json
// reads to the same string, and skipString and readKey accept the same
// strings (skipString with readString's error), stop at the same place and (readKey) read the same string. The
// seeds put a special byte at each place around the eight-byte steps.
func FuzzReadString(f *testing.F) {
	for n := range 20 {
		for _, c := range []string{`"`, `\"`, `\n`, "\x00", "\x1f", "\x7f", "\x80", "é", `\u00e9`, `\`} {
			f.Add(strings.Repeat("x", n) + c + strings.Repeat("y", 9) + `"`)
		}
	}
	f.Fuzz(func(t *testing.T, in string) {
		data := []byte(`"` + in)
		d := decoder{data: data}
		s, err := d.readString()
		sk := decoder{data: data}
		skErr := sk.skipString()
		rk := reqDecoder{decoder: decoder{data: data}}
		key, rkErr := rk.readKey()
		if (err == nil) != (skErr == nil) || (err == nil) != (rkErr == nil) {
			t.Fatalf("%q: readString error %v, skipString error %v, readKey error %v", data, err, skErr, rkErr)
		}
		if err != nil {
			if skErr.Error() != err.Error() {
				t.Fatalf("%q: readString error %v, skipString error %v", data, err, skErr)
			}
			return
		}
		if sk.pos != d.pos {
			t.Fatalf("%q: readString ends at %d, skipString at %d", data, d.pos, sk.pos)
		}
		if string(key) != s || rk.pos != d.pos {
			t.Fatalf("%q: readKey read %q to %d, readString %q to %d", data, key, rk.pos, s, d.pos)
		}
		var want string
		if jerr := json.Unmarshal(data[:d.pos], &want); jerr != nil || want != s {
			t.Fatalf("%q: readString read %q, encoding/json %q (%v)", data[:d.pos], s, want, jerr)
		}
	})
}

// stringEndByte is stringEnd one byte at a time over the whole input:
// the reference (ok false: a syntax error).
func stringEndByte(b []byte, start int) (end int, plain, ok bool) {
	plain = true
	for i := start; i < len(b); i++ {
		switch c := b[i]; {
		case c == '"':
			return i, plain, true
		case c < 0x20:
			return 0, false, false
		case c == '\\':
			plain = false
			i++
		case c >= utf8.RuneSelf:
			plain = false
		}
	}
	return 0, false, false
}

// FuzzStringEnd: stringEnd, which finds the bytes that need care eight
// at a time, finds the end, plainness and syntax error the byte walk
// finds, wherever in the input the string starts and whatever follows it.
func FuzzStringEnd(f *testing.F) {
	for n := range 20 {
		for _, c := range []string{`"`, `\"`, `\\"`, `\n`, "\x00", "\x1f", "\x7f", "\x80", "é", `\`} {
			f.Add(strings.Repeat("x", n)+c+strings.Repeat("y", n%11)+`"`+`,"more":{"S":"z"}}`, uint8(n%3))
		}
	}
	f.Fuzz(func(t *testing.T, in string, start uint8) {
		data := []byte(in)
		s := min(int(start), len(data))
		wantEnd, wantPlain, ok := stringEndByte(data, s)
		d := decoder{data: data}
		end, plain, err := d.stringEnd(s)
		require.Equal(t, ok, err == nil, "%q from %d: error %v", data, s, err)
		if ok {
			require.Equal(t, wantEnd, end, "%q from %d", data, s)
			require.Equal(t, wantPlain, plain, "%q from %d", data, s)
		}
	})
}

// BenchmarkStringEnd finds the end of every string of a BatchWriteItem
// of 25 items of 240 bytes (the HTTP benchmark's): names, type keys,
// short values and one 150-byte value an item.
func BenchmarkStringEnd(b *testing.B) {
	var body strings.Builder
	body.WriteString(`{"RequestItems":{"bench":[`)
	for i := range 25 {
		if i > 0 {
			body.WriteByte(',')
		}
		body.WriteString(`{"PutRequest":{"Item":{"pk":{"S":"user#0000042"},"sk":{"N":"7"},"status":{"S":"active"},` +
			`"count":{"N":"7"},"price":{"N":"1234.5"},"flag":{"BOOL":false},"tags":{"SS":["red","green"]},` +
			`"email":{"S":"someone.42@example.com"},"f0":{"S":"` + strings.Repeat("x", 150) + `"},"f1":{"S":""}}}}`)
	}
	body.WriteString(`]}}`)
	data := []byte(body.String())
	var starts []int // after each opening quote
	for i := 0; i < len(data); i++ {
		if data[i] == '"' {
			starts = append(starts, i+1)
			end, _, ok := stringEndByte(data, i+1)
			require.True(b, ok)
			i = end
		}
	}
	d := decoder{data: data}
	b.SetBytes(int64(len(data)))
	b.ResetTimer()
	for b.Loop() {
		for _, s := range starts {
			if _, _, err := d.stringEnd(s); err != nil {
				b.Fatal(err)
			}
		}
	}
}
