package emulator

import (
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/dynamoemu/dynamoemu/emulator/internal/apierr"
	"github.com/dynamoemu/dynamoemu/emulator/internal/testkit"
)

func TestParseCredential(t *testing.T) {
	tests := []struct {
		name, auth, query string
		want              credential
		class             error // nil: no error
	}{
		{name: "sigv4", auth: "AWS4-HMAC-SHA256 Credential=AKID/20260101/eu-west-1/dynamodb/aws4_request, SignedHeaders=host, Signature=x",
			want: credential{accessKey: "AKID", region: "eu-west-1"}},
		{name: "presigned", query: "X-Amz-Credential=K2%2F20260101%2Fus-east-2%2Fdynamodb%2Faws4_request",
			want: credential{accessKey: "K2", region: "us-east-2"}},
		{name: "missing", class: apierr.ErrMissingAuthenticationToken},
		{name: "no credential", auth: "AWS4-HMAC-SHA256 Signature=x", class: apierr.ErrIncompleteSignature},
		{name: "no region", auth: "AWS4-HMAC-SHA256 Credential=AKID, Signature=x", class: apierr.ErrIncompleteSignature},
		{name: "empty key", auth: "AWS4-HMAC-SHA256 Credential=/d/r/dynamodb/aws4_request", class: apierr.ErrIncompleteSignature},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := httptest.NewRequest("POST", "/?"+tt.query, nil)
			if tt.auth != "" {
				r.Header.Set("Authorization", tt.auth)
			}
			got, err := parseCredential(r)
			if tt.class != nil {
				if !errors.Is(err, tt.class) {
					t.Fatalf("got %v, want %v", err, tt.class)
				}
				return
			}
			if err != nil || got != tt.want {
				t.Fatalf("got %+v, %v; want %+v", got, err, tt.want)
			}
		})
	}
}

// FuzzParseCredential: any Authorization header gives a credential with a
// non-empty access key or a classified error, never a panic.
func FuzzParseCredential(f *testing.F) {
	f.Add("AWS4-HMAC-SHA256 Credential=AKID/20260101/us-east-1/dynamodb/aws4_request, SignedHeaders=host, Signature=x")
	f.Add("Credential=")
	f.Add("Credential=a/b")
	f.Add("x Credential=k/d/r/s, Credential=")
	f.Fuzz(func(t *testing.T, auth string) {
		r := httptest.NewRequest("POST", "/", nil)
		r.Header["Authorization"] = []string{auth}
		c, err := parseCredential(r)
		if err != nil {
			if _, ok := apierr.Classify(err); !ok {
				t.Fatalf("unclassified error %v", err)
			}
			return
		}
		if c.accessKey == "" || strings.ContainsAny(c.accessKey, "/, ") {
			t.Fatalf("credential %+v from %q", c, auth)
		}
	})
}

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
		if len(tt.key) > DefaultMaxHeaderBytes {
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

// TestNewRequestID: a request id is a UUID's form, 32 random hex digits,
// no two alike and no digit stuck.
func TestNewRequestID(t *testing.T) {
	seen := map[string]bool{}
	var digits [36]map[byte]bool
	for range 2000 {
		id := newRequestID()
		if len(id) != 36 || seen[id] {
			t.Fatalf("id %q: wrong length or repeated", id)
		}
		seen[id] = true
		for i := range len(id) {
			c := id[i]
			if i == 8 || i == 13 || i == 18 || i == 23 {
				if c != '-' {
					t.Fatalf("id %q: no '-' at %d", id, i)
				}
				continue
			}
			if !strings.ContainsRune("0123456789abcdef", rune(c)) {
				t.Fatalf("id %q: %q at %d", id, c, i)
			}
			if digits[i] == nil {
				digits[i] = map[byte]bool{}
			}
			digits[i][c] = true
		}
	}
	for i, d := range digits {
		if d != nil && len(d) < 16 {
			t.Errorf("digit %d takes only %d values in 2000 ids", i, len(d))
		}
	}
}
