package emulator

import (
	"net/http"
	"strings"
	"testing"

	"github.com/dynamoemu/dynamoemu/emulator/internal/testkit"
)

// TestAccessKeys: letters and digits, at most 128 of them.
func TestAccessKeys(t *testing.T) {
	e := newTestEmulator(t, Options{})
	const target = "DynamoDB_20120810.ListTables"
	tests := []struct {
		key  string
		want int
	}{
		{"local", 200}, {"fakeMyKeyId", 200}, {"a", 200}, {"AKIAIOSFODNN7EXAMPLE", 200}, {strings.Repeat("k", 128), 200},
		{strings.Repeat("k", 129), 400}, {strings.Repeat("k", 1<<20), 400},
		{"a-b", 400}, {"a_b", 400}, {"a.b", 400}, {"a+b", 400}, {"é", 400}, {"k\xff", 400},
	}
	for _, tt := range tests {
		res, body := do(t, e, target, testkit.Auth(tt.key, "us-east-1"), `{}`)
		if len(tt.key) > defaultMaxHeaderBytes {
			// A Server answers 431 to such a head; the handler checks the key.
			res, body = testkit.Do(t, e.Handler(), target, testkit.Auth(tt.key, "us-east-1"), `{}`)
		}
		if res.StatusCode != tt.want {
			t.Errorf("key %.20q (%d bytes): got %d %s, want %d", tt.key, len(tt.key), res.StatusCode, body, tt.want)
			continue
		}
		if len(tt.key) > maxHeadPart {
			// Over DynamoDB's 16 KB of header fields (edge.go).
			if body != headTooLargeBody {
				t.Errorf("key of %d bytes: got %s, want the head refusal", len(tt.key), body)
			}
			continue
		}
		if tt.want == 400 {
			if want := `{"__type":"com.amazon.coral.service#UnrecognizedClientException","message":"The Access Key ID or security token is invalid."}`; body != want {
				t.Errorf("key %.20q: got %s, want %s", tt.key, body, want)
			}
		}
	}
}

// TestHeaderKeysCanonical: headerGet looks a key up as it is, which finds
// what net/http stored only when the key is canonical.
func TestHeaderKeysCanonical(t *testing.T) {
	for _, k := range []string{hdrTarget, hdrAuthorization, hdrContentType, hdrOrigin, headerTenantCode} {
		if c := http.CanonicalHeaderKey(k); c != k {
			t.Errorf("header key %q is not canonical (%q)", k, c)
		}
	}
	h := http.Header{}
	h.Set("x-amz-target", "DynamoDB_20120810.GetItem")
	if got := headerGet(h, hdrTarget); got != "DynamoDB_20120810.GetItem" {
		t.Errorf("headerGet: %q", got)
	}
	if got := headerGet(h, hdrOrigin); got != "" {
		t.Errorf("headerGet of a missing header: %q", got)
	}
}
