package emulator

import (
	"bytes"
	"compress/flate"
	"compress/gzip"
	"compress/zlib"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/dynamoemu/dynamoemu/emulator/internal/testkit"
)

func gzipped(t testing.TB, b []byte) []byte {
	t.Helper()
	var out bytes.Buffer
	w := gzip.NewWriter(&out)
	if _, err := w.Write(b); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return out.Bytes()
}

func zlibbed(t testing.TB, b []byte) []byte {
	t.Helper()
	var out bytes.Buffer
	w := zlib.NewWriter(&out)
	_, _ = w.Write(b)
	_ = w.Close()
	return out.Bytes()
}

func deflated(t testing.TB, b []byte) []byte {
	t.Helper()
	var out bytes.Buffer
	w, _ := flate.NewWriter(&out, flate.BestCompression)
	_, _ = w.Write(b)
	_ = w.Close()
	return out.Bytes()
}

// doEncoded sends body to TestEcho with the given Content-Encoding headers.
func doEncoded(t *testing.T, e *Emulator, body []byte, encodings ...string) (int, string) {
	t.Helper()
	req := httptest.NewRequest(http.MethodPost, "/", bytes.NewReader(body))
	req.Header.Set("X-Amz-Target", echo)
	req.Header.Set("Authorization", testkit.DefaultAuth)
	for _, enc := range encodings {
		req.Header.Add("Content-Encoding", enc)
	}
	rec := httptest.NewRecorder()
	e.Handler().ServeHTTP(rec, req)
	return rec.Code, rec.Body.String()
}

func TestCompressedBodies(t *testing.T) {
	plain := []byte(`{"TableName":"compressed"}`)
	ok := `{"TableName":"compressed","Region":"us-east-1","Namespace":"AKID1/us-east-1"}`
	const internal = `{"__type":"com.amazonaws.dynamodb.v20120810#InternalServerError","message":"Internal server error"}`
	const tooLarge = `{"__type":"com.amazon.coral.service#RequestEntityTooLargeException","Message":"The request entity is too large"}`
	gz := gzipped(t, plain)
	// 4 KB of spaces inside the JSON: past the 1 KB limit used below once decompressed.
	big := []byte(`{"TableName":"compressed"` + strings.Repeat(" ", 4096) + `}`)
	tests := []struct {
		name       string
		body       []byte
		encodings  []string
		wantStatus int
		wantBody   string
	}{
		{"gzip", gz, []string{"gzip"}, 200, ok},
		{"gzip upper case with spaces", gz, []string{" GZIP "}, 200, ok},
		{"x-gzip", gz, []string{"x-gzip"}, 200, ok},
		{"deflate (zlib)", zlibbed(t, plain), []string{"deflate"}, 200, ok},
		{"deflate (raw)", deflated(t, plain), []string{"deflate"}, 200, ok},
		{"identity", plain, []string{"identity"}, 200, ok},
		{"two gzip members", append(gzipped(t, plain[:10]), gzipped(t, plain[10:])...), []string{"gzip"}, 200, ok},
		{"nested in one header", zlibbed(t, gzipped(t, plain)), []string{"gzip, deflate"}, 200, ok},
		{"nested in two headers", zlibbed(t, gzipped(t, plain)), []string{"gzip", "deflate"}, 200, ok},
		{"nested twice gzip", gzipped(t, gz), []string{"gzip,gzip"}, 200, ok},
		{"nested in the wrong order", zlibbed(t, gzipped(t, plain)), []string{"deflate, gzip"}, 500, internal},
		{"gzip not compressed", plain, []string{"gzip"}, 500, internal},
		{"gzip empty", nil, []string{"gzip"}, 500, internal},
		{"deflate empty", nil, []string{"deflate"}, 500, internal},
		{"gzip truncated", gz[:len(gz)-1], []string{"gzip"}, 500, internal},
		{"gzip with junk after", append(append([]byte{}, gz...), "junk"...), []string{"gzip"}, 500, internal},
		{"gzip corrupt checksum", func() []byte {
			b := append([]byte{}, gz...)
			b[len(b)-5] ^= 0xff
			return b
		}(), []string{"gzip"}, 500, internal},
		{"unknown encoding", gz, []string{"br"}, 500, internal},
		{"unknown after gzip", gz, []string{"gzip, garbage"}, 500, internal},
		{"oversized once decompressed", gzipped(t, big), []string{"gzip"}, 413, tooLarge},
		{"oversized inner of nested", gzipped(t, gzipped(t, big)), []string{"gzip, gzip"}, 413, tooLarge},
	}
	e := newTestEmulator(t, Options{MaxBodyBytes: 1024})
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			status, body := doEncoded(t, e, tt.body, tt.encodings...)
			if status != tt.wantStatus || body != tt.wantBody {
				t.Errorf("got %d %s, want %d %s", status, body, tt.wantStatus, tt.wantBody)
			}
		})
	}
}
