package httploop

import (
	"net/http"
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
		{"gzip;q= 0;q=1", ""},
		{"gzip;q =0;q=1", "gzip"},
		{"gzip; q=0;q=1", ""},
		{"gzip;nq=0;q=1", ""},
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

// FuzzAcceptedCoding: whatever the Accept-Encoding value, the reader does
// not panic and picks gzip, deflate or nothing; it picks nothing for a
// value that names neither coding nor "*"; and a weight written before
// the entries does not change the pick of the entries after it.
func FuzzAcceptedCoding(f *testing.F) {
	for _, s := range []string{"gzip", "deflate;q=0.5, gzip;q=0.2", "*;q=0.5,identity", "gzip;q =0;q=1", "gzip;nq=0;q=1", "gzip;q=0.x", ";;,,q=", "GZIP;Q=0"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, accept string) {
		got := AcceptedCoding(accept)
		switch got {
		case "", CodingGzip, CodingDeflate:
		default:
			t.Fatalf("%q: coding %q", accept, got)
		}
		low := strings.ToLower(accept)
		if got != "" && !strings.Contains(low, "gzip") && !strings.Contains(low, "deflate") && !strings.Contains(low, "*") {
			t.Fatalf("%q: %q, though it names no coding", accept, got)
		}
		if again := AcceptedCoding("identity;q=0, " + accept); again != got {
			t.Fatalf("%q: %q, and %q after an identity entry", accept, got, again)
		}
	})
}
