package httpedge

import (
	"bytes"
	"compress/flate"
	"compress/gzip"
	"compress/zlib"
	"errors"
	"io"
	"net/http"
	"testing"
	"testing/iotest"

	"github.com/dynamoemu/dynamoemu/emulator/internal/apierr"
)

// encoded returns b compressed with coding: "gzip", "zlib" or "deflate"
// (raw deflate, which some clients send under the name deflate).
func encoded(tb testing.TB, coding string, b []byte) []byte {
	tb.Helper()
	var out bytes.Buffer
	var w io.WriteCloser
	switch coding {
	case "gzip":
		w = gzip.NewWriter(&out)
	case "zlib":
		w = zlib.NewWriter(&out)
	default:
		fw, err := flate.NewWriter(&out, flate.BestCompression)
		if err != nil {
			tb.Fatal(err)
		}
		w = fw
	}
	if _, err := w.Write(b); err != nil {
		tb.Fatal(err)
	}
	if err := w.Close(); err != nil {
		tb.Fatal(err)
	}
	return out.Bytes()
}

// TestDecompressionBomb: a gzip body that expands to far more than the limit
// is refused after reading just past the limit.
func TestDecompressionBomb(t *testing.T) {
	var member bytes.Buffer
	w, _ := gzip.NewWriterLevel(&member, gzip.BestCompression)
	_, _ = w.Write(make([]byte, 1<<20))
	_ = w.Close()
	// 64 MB of zeros in about 64 KB: one member of 1 MB repeated (a gzip
	// body may hold several members, read one after the other); compressing
	// 64 MB took most of 3 minutes under -race on a busy machine.
	h := http.Header{"Content-Encoding": {"gzip"}}
	dr, err := Decompressing(h.Values("Content-Encoding"), bytes.NewReader(bytes.Repeat(member.Bytes(), 64)), 1<<20)
	if err != nil {
		t.Fatal(err)
	}
	n, err := io.Copy(io.Discard, dr)
	if !errors.Is(err, apierr.ErrRequestEntityTooLarge) {
		t.Fatalf("got %v, want RequestEntityTooLargeException", err)
	}
	if n > 2<<20 {
		t.Errorf("decoded %d bytes", n)
	}
}

// TestDecompressing: each coding, and two one over the other, read as
// the body arrives, give the body; a cut-off read is the reader's error,
// not a corrupt body.
func TestDecompressing(t *testing.T) {
	plain := bytes.Repeat([]byte(`{"TableName":"t"}`), 1000)
	for _, tc := range []struct {
		coding string
		body   []byte
	}{
		{"gzip", encoded(t, "gzip", plain)},
		{"deflate", encoded(t, "zlib", plain)},
		{"deflate", encoded(t, "deflate", plain)},
		{"gzip, deflate", encoded(t, "zlib", encoded(t, "gzip", plain))},
		{"identity", plain},
	} {
		dr, err := Decompressing([]string{tc.coding}, iotest.OneByteReader(bytes.NewReader(tc.body)), 1<<20)
		if err != nil {
			t.Fatalf("%s: %v", tc.coding, err)
		}
		got, err := io.ReadAll(dr)
		if err != nil || !bytes.Equal(got, plain) {
			t.Fatalf("%s: %d bytes, %v", tc.coding, len(got), err)
		}
	}
	boom := errors.New("cut off")
	gz := encoded(t, "gzip", plain)
	dr, err := Decompressing([]string{"gzip"}, io.MultiReader(bytes.NewReader(gz[:len(gz)/2]), iotest.ErrReader(boom)), 1<<20)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := io.ReadAll(dr); !errors.Is(err, boom) {
		t.Fatalf("got %v, want the reader's error", err)
	}
}

// FuzzDecompressBody: any body under any pair of codings either decodes to at
// most the limit or fails with DynamoDB's answers; never a panic.
func FuzzDecompressBody(f *testing.F) {
	plain := []byte(`{"TableName":"fuzz"}`)
	f.Add(encoded(f, "gzip", plain), "gzip")
	f.Add(encoded(f, "zlib", plain), "deflate")
	f.Add(encoded(f, "deflate", plain), "deflate")
	f.Add(encoded(f, "zlib", encoded(f, "gzip", plain)), "gzip, deflate")
	f.Add(encoded(f, "gzip", plain)[:10], "gzip")
	f.Add([]byte{}, "gzip")
	f.Add(plain, "identity")
	f.Add(plain, "br")
	const max = 4096
	f.Fuzz(func(t *testing.T, body []byte, encoding string) {
		dr, err := Decompressing([]string{encoding}, bytes.NewReader(body), max)
		var n int64
		if err == nil {
			n, err = io.Copy(io.Discard, dr)
		}
		switch {
		case err == nil:
			if n > max {
				t.Fatalf("decoded %d bytes, limit %d", n, max)
			}
		case errors.Is(err, apierr.ErrRequestEntityTooLarge), errors.Is(err, apierr.ErrInternalServer):
		default:
			t.Fatalf("unexpected error %v", err)
		}
	})
}
