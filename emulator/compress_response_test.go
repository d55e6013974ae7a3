package emulator

import (
	"bytes"
	"compress/gzip"
	"compress/zlib"
	"hash/crc32"
	"io"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"

	"github.com/dynamoemu/dynamoemu/emulator/internal/httploop"
)

// TestCompressedResponse: a body of 4096 bytes or more is compressed when
// the client allows it, Content-Length and x-amz-crc32 are those of the
// bytes sent, and it decompresses to the body; a smaller one is sent as it
// is.
func TestCompressedResponse(t *testing.T) {
	t.Parallel()
	big := []byte(`{"Item":{"x":{"S":"` + strings.Repeat("x", 5000) + `"}}}`)
	small := []byte(`{"Item":{"x":{"S":"` + strings.Repeat("x", 4096-24) + `"}}}`)
	if len(small) >= httploop.MinCompressed {
		t.Fatalf("small body is %d bytes", len(small))
	}
	tests := []struct {
		name, accept string
		body         []byte
		wantCoding   string
	}{
		{"gzip", "gzip", big, "gzip"},
		{"deflate", "deflate", big, "deflate"},
		{"under 4096 bytes", "gzip", small, ""},
		{"identity", "identity", big, ""},
		{"no Accept-Encoding", "", big, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := httptest.NewRequest(http.MethodPost, "/", nil)
			if tt.accept != "" {
				r.Header.Set("Accept-Encoding", tt.accept)
			}
			rec := httptest.NewRecorder()
			writeResponse(rec, r, "id", 200, tt.body)
			sent := rec.Body.Bytes()
			if got := rec.Header().Get("Content-Encoding"); got != tt.wantCoding {
				t.Fatalf("got Content-Encoding %q, want %q", got, tt.wantCoding)
			}
			if got, want := rec.Header().Get("X-Amz-Crc32"), strconv.FormatUint(uint64(crc32.ChecksumIEEE(sent)), 10); got != want {
				t.Errorf("got x-amz-crc32 %s, want %s (of the bytes sent)", got, want)
			}
			if got := rec.Header().Get("Content-Length"); got != strconv.Itoa(len(sent)) {
				t.Errorf("got Content-Length %s, want %d", got, len(sent))
			}
			var rd io.Reader = bytes.NewReader(sent)
			switch tt.wantCoding {
			case "gzip":
				zr, err := gzip.NewReader(rd)
				if err != nil {
					t.Fatal(err)
				}
				rd = zr
			case "deflate":
				zr, err := zlib.NewReader(rd)
				if err != nil {
					t.Fatal(err)
				}
				rd = zr
			}
			plain, err := io.ReadAll(rd)
			if err != nil || !bytes.Equal(plain, tt.body) {
				t.Errorf("decoded body differs (%v): %d bytes, want %d", err, len(plain), len(tt.body))
			}
			if tt.wantCoding != "" && len(sent) >= len(tt.body) {
				t.Errorf("sent %d bytes for a body of %d", len(sent), len(tt.body))
			}
		})
	}
}

// BenchmarkCompressedResponse measures writeResponse with gzip and with
// deflate on a 64 KB body.
func BenchmarkCompressedResponse(b *testing.B) {
	body := []byte(`{"Item":{"x":{"S":"` + strings.Repeat("abcdefgh", 8192) + `"}}}`)
	for _, coding := range []string{"gzip", "deflate"} {
		b.Run(coding, func(b *testing.B) {
			r := httptest.NewRequest(http.MethodPost, "/", nil)
			r.Header.Set("Accept-Encoding", coding)
			b.ReportAllocs()
			for b.Loop() {
				writeResponse(httptest.NewRecorder(), r, "id", 200, body)
			}
		})
	}
}
