package httploop

import (
	"net/http"
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
		if got := ResponseCoding(h); got != tt.want {
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
		if got := ResponseCoding(http.Header{"Accept-Encoding": tt.vals}); got != tt.want {
			t.Errorf("Accept-Encoding %q: got %q, want %q", tt.vals, got, tt.want)
		}
	}
}
