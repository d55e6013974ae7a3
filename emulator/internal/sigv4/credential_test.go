package sigv4

import (
	"errors"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/dynamoemu/dynamoemu/emulator/internal/apierr"
)

func TestParseCredential(t *testing.T) {
	tests := []struct {
		name, auth, query string
		want              Credential
		class             error // nil: no error
	}{
		{name: "sigv4", auth: "AWS4-HMAC-SHA256 Credential=AKID/20260101/eu-west-1/dynamodb/aws4_request, SignedHeaders=host, Signature=x",
			want: Credential{AccessKey: "AKID", Region: "eu-west-1"}},
		{name: "presigned", query: "X-Amz-Credential=K2%2F20260101%2Fus-east-2%2Fdynamodb%2Faws4_request",
			want: Credential{AccessKey: "K2", Region: "us-east-2"}},
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
			got, err := ParseCredential(r)
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
		c, err := ParseCredential(r)
		if err != nil {
			if _, ok := apierr.Classify(err); !ok {
				t.Fatalf("unclassified error %v", err)
			}
			return
		}
		if c.AccessKey == "" || strings.ContainsAny(c.AccessKey, "/, ") {
			t.Fatalf("credential %+v from %q", c, auth)
		}
	})
}
