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
)

// TestResponseCoding: how Accept-Encoding chooses the coding, case by case
// as AWS answered them in ScyllaDB's tests run against DynamoDB
// (test/alternator/test_compressed_response.py).
func TestResponseCoding(t *testing.T) {
	t.Parallel()
	tests := []struct{ accept, want string }{
		{"", ""},
		{"identity", ""},
		{"br", ""},
		{"zstd", ""},
		{"compress", ""},
		{"x-gzip", ""},
		{"gzip", "gzip"},
		{"deflate", "deflate"},
		{"gzip, deflate", "gzip"},
		{"br, identity, deflate, gzip", "deflate"},
		{"GZIP, identity", "gzip"},
		{"dog, gzip ,, cat", "gzip"},
		{"gzip;q=0.8, deflate;q=0.5", "gzip"},
		{"br, gzip;q=0, deflate; q = 0.5 , identity;q=0", "deflate"},
		{"*", "gzip"},
		{"*, deflate;q=0.5", "gzip"},
		{"*, deflate", "deflate"},
		{"*, identity", "gzip"},
		{"*, gzip;q=0.5", "deflate"},
		{"gzip ;q=0", ""},
		{"identity;q=0", ""},
		{"*;q=0", ""},
		{"*;q=0.5,identity", "gzip"},
		{"gzip;q=0.5,identity;q=0.8", "gzip"},
		{"br;q=0.8,identity;q=0.5,*;q=0", ""},
		{`"gzip"`, ""},
		{"gzip br", ""},
		{"gzip:q=1", ""},
		{"deflate;q=0.5, gzip;q=31", "gzip"},
		{"gzip;q=31,deflate;q=51", "gzip"},
		{"deflate;q=0.5, gzip;q=0.2", "deflate"},
		{"deflate;q=0.5, gzip;q=1;q=0.2", "gzip"},
		{"deflate;q=0.5,gzip;q=0.", "deflate"},
		{"deflate;q=0.5,gzip;q=0.x", "gzip"},
		{"deflate;q=-0.5,gzip;q=0.2", "gzip"},
		{"gzip;nq=1;q=0 ", ""},
		{"gzip;q=0, gzip;q=1, gzip;q=0", "gzip"},
		{"br,identity;q=0.5,gzip;q=0.0001", "gzip"},
	}
	for _, tt := range tests {
		h := http.Header{}
		if tt.accept != "" {
			h.Set("Accept-Encoding", tt.accept)
		}
		if got := responseCoding(h); got != tt.want {
			t.Errorf("Accept-Encoding %q: got %q, want %q", tt.accept, got, tt.want)
		}
	}
	// Of several Accept-Encoding headers, the first counts (DynamoDB's
	// answer in ScyllaDB's test_multiple_accept_encoding_headers, 2026).
	for _, tt := range []struct {
		vals []string
		want string
	}{
		{[]string{"identity", "gzip"}, ""},
		{[]string{"gzip", "identity"}, "gzip"},
		{[]string{"deflate", "gzip"}, "deflate"},
	} {
		if got := responseCoding(http.Header{"Accept-Encoding": tt.vals}); got != tt.want {
			t.Errorf("Accept-Encoding %q: got %q, want %q", tt.vals, got, tt.want)
		}
	}
}

// TestCompressedResponse: a body of 4096 bytes or more is compressed when
// the client allows it, Content-Length and x-amz-crc32 are those of the
// bytes sent, and it decompresses to the body; a smaller one is sent as it
// is.
func TestCompressedResponse(t *testing.T) {
	t.Parallel()
	big := []byte(`{"Item":{"x":{"S":"` + strings.Repeat("x", 5000) + `"}}}`)
	small := []byte(`{"Item":{"x":{"S":"` + strings.Repeat("x", 4096-24) + `"}}}`)
	if len(small) >= minCompressedResponse {
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
