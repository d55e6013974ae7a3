package emulator

import (
	"net/http"
	"strings"

	"github.com/dynamoemu/dynamoemu/emulator/internal/apierr"
)

// credential is what the emulator takes from SigV4: who and where. The
// signature itself is parsed away, not verified.
type credential struct {
	accessKey string
	region    string
}

// parseCredential reads the access key id and region from the request's SigV4
// Authorization header ("AWS4-HMAC-SHA256 Credential=AKID/DATE/REGION/SERVICE/aws4_request,
// SignedHeaders=..., Signature=...") or from a presigned X-Amz-Credential.
func parseCredential(r *http.Request) (credential, error) {
	auth := headerGet(r.Header, hdrAuthorization)
	if auth != "" {
		return credentialOf(auth, "")
	}
	return credentialOf("", r.URL.Query().Get("X-Amz-Credential"))
}

// credentialOf is parseCredential of an Authorization header auth and, when
// auth is "", a presigned X-Amz-Credential value.
func credentialOf(auth, presigned string) (credential, error) {
	var scope string
	if auth == "" {
		scope = presigned
		if scope == "" {
			return credential{}, apierr.MissingAuthenticationToken()
		}
	} else {
		i := strings.Index(auth, "Credential=")
		if i < 0 {
			return credential{}, apierr.New(apierr.ErrIncompleteSignature,
				"Authorization header requires 'Credential' parameter. Authorization="+auth)
		}
		scope = auth[i+len("Credential="):]
		for j := 0; j < len(scope); j++ {
			if scope[j] == ',' || scope[j] == ' ' { // strings.IndexAny builds a set per call
				scope = scope[:j]
				break
			}
		}
	}
	// scope is AKID/DATE/REGION/...: the first and third parts.
	accessKey, rest, ok1 := strings.Cut(scope, "/")
	_, rest, ok2 := strings.Cut(rest, "/")
	region, _, _ := strings.Cut(rest, "/")
	if !ok1 || !ok2 || accessKey == "" {
		return credential{}, apierr.New(apierr.ErrIncompleteSignature,
			"Credential should be scoped to a valid region. ")
	}
	if !validAccessKey(accessKey) {
		return credential{}, apierr.UnrecognizedClient()
	}
	return credential{accessKey: accessKey, region: region}, nil
}

// maxAccessKeyLen is the longest access key id AWS issues (IAM's
// AccessKeyId: 16 to 128 characters).
const maxAccessKeyLen = 128

// validAccessKey reports whether key is an access key id the emulator
// accepts: letters and digits only, as DynamoDB Local checks it (it answers
// any other character with UnrecognizedClientException), and at most
// AWS's 128 characters, which DynamoDB Local does not check. Short keys
// ("local", "fakeMyKeyId") stay valid, as in DynamoDB Local, though AWS
// issues none shorter than 16.
func validAccessKey(key string) bool {
	if len(key) > maxAccessKeyLen {
		return false
	}
	for i := 0; i < len(key); i++ {
		c := key[i]
		if !('a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9') {
			return false
		}
	}
	return true
}
