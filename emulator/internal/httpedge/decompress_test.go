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
	buf := bytes.NewBuffer(bytes.Repeat(member.Bytes(), 64))
	h := http.Header{"Content-Encoding": {"gzip"}}
	err := DecompressBody(h.Values("Content-Encoding"), buf, 1<<20)
	if !errors.Is(err, apierr.ErrRequestEntityTooLarge) {
		t.Fatalf("got %v, want RequestEntityTooLargeException", err)
	}
	if buf.Cap() > 4<<20 {
		t.Errorf("buffer grew to %d bytes", buf.Cap())
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
		buf := bytes.NewBuffer(append([]byte{}, body...))
		err := DecompressBody([]string{encoding}, buf, max)
		switch {
		case err == nil:
			if buf.Len() > max {
				t.Fatalf("decoded %d bytes, limit %d", buf.Len(), max)
			}
		case errors.Is(err, apierr.ErrRequestEntityTooLarge), errors.Is(err, apierr.ErrInternalServer):
		default:
			t.Fatalf("unexpected error %v", err)
		}
	})
}
