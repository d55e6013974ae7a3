package sigv4

import (
	"net/http"
	"strings"

	"github.com/dynamoemu/dynamoemu/emulator/internal/apierr"
)

// Credential is what the emulator takes of a request's SigV4 credential
// without Options.Credentials: who and where. The signature itself is
// parsed away, not verified.
type Credential struct {
	AccessKey string
	Region    string
	// KeyID is the access key id that signed, where it is not AccessKey
	// (Finish: a key whose Namespace names the tables it shares).
	KeyID string
}

// ParseCredential reads the access key id and region from the request's SigV4
// Authorization header ("AWS4-HMAC-SHA256 Credential=AKID/DATE/REGION/SERVICE/aws4_request,
// SignedHeaders=..., Signature=...") or from a presigned X-Amz-Credential.
func ParseCredential(r *http.Request) (Credential, error) {
	if auth := authorization(r); auth != "" {
		return CredentialOf(auth, "")
	}
	return CredentialOf("", r.URL.Query().Get("X-Amz-Credential"))
}

// CredentialOf is ParseCredential of an Authorization header auth and, when
// auth is "", a presigned X-Amz-Credential value.
func CredentialOf(auth, presigned string) (Credential, error) {
	var scope string
	if auth == "" {
		scope = presigned
		if scope == "" {
			return Credential{}, apierr.MissingAuthenticationToken()
		}
	} else {
		i := strings.Index(auth, "Credential=")
		if i < 0 {
			return Credential{}, apierr.New(apierr.ErrIncompleteSignature,
				"Authorization header requires 'Credential' parameter. Authorization="+auth)
		}
		scope = auth[i+len("Credential="):]
		// Up to the first ',' or ' ': two IndexBytes, vector-wide, not a
		// loop over the bytes (BenchmarkCredentialOf, best of 5: 61 ->
		// 46 ns) nor strings.IndexAny, which builds a set per call.
		if j := strings.IndexByte(scope, ','); j >= 0 {
			scope = scope[:j]
		}
		if j := strings.IndexByte(scope, ' '); j >= 0 {
			scope = scope[:j]
		}
	}
	// scope is AKID/DATE/REGION/...: the first and third parts.
	accessKey, rest, ok1 := strings.Cut(scope, "/")
	_, rest, ok2 := strings.Cut(rest, "/")
	region, _, _ := strings.Cut(rest, "/")
	if !ok1 || !ok2 || accessKey == "" {
		return Credential{}, apierr.New(apierr.ErrIncompleteSignature,
			"Credential should be scoped to a valid region. ")
	}
	if !ValidAccessKey(accessKey) {
		return Credential{}, apierr.UnrecognizedClient()
	}
	return Credential{AccessKey: accessKey, Region: region}, nil
}

// maxAccessKeyLen is the longest access key id AWS issues (IAM's
// AccessKeyId: 16 to 128 characters).
const maxAccessKeyLen = 128

// ValidAccessKey reports whether key is an access key id the emulator
// accepts: letters and digits only, as DynamoDB Local checks it (it answers
// any other character with UnrecognizedClientException), and at most
// AWS's 128 characters, which DynamoDB Local does not check. Short keys
// ("local", "fakeMyKeyId") stay valid, as in DynamoDB Local, though AWS
// issues none shorter than 16.
func ValidAccessKey(key string) bool {
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
