package emulator

import (
	"errors"
	"fmt"
	"strings"

	"github.com/dynamoemu/dynamoemu/emulator/internal/sigv4"
)

// Signed requests, opt-in. By default the emulator takes any credentials,
// as DynamoDB Local does: the access key id and region of a request's
// SigV4 credential name its namespace, and the signature is parsed away
// (internal/sigv4/credential.go). With Options.Credentials (cmd/dynamoemu's -credentials FILE)
// it accepts only the keys listed and verifies every request's signature
// as AWS does (emulator/internal/sigv4), so a server shared on a team network lets in
// only its keys:
//
//   - the API (POST) needs a valid signature by a listed key, in an
//     Authorization header or in the query string; a key's Namespace, if
//     set, stands for its access key id in the namespace (so several keys
//     may share a database, and a key may be rotated without losing it);
//   - the admin endpoints (every path under /dynamoemu/ but the console's
//     files) need the same: a signature by a listed key (any region, the
//     service dynamodb, as `curl --aws-sigv4 aws:amz:us-east-1:dynamodb
//     --user KEY:SECRET` signs), or "Authorization: Bearer TOKEN" with one
//     of Options.AdminTokens;
//   - Lambda's event source mapping API on the same port
//     (/2015-03-31/event-source-mappings) needs a signature by a listed
//     key scoped to the service lambda (as the AWS CLI and the SDKs'
//     Lambda clients sign), or an admin token (stream_handlers.go);
//   - the console's files (a page, styles and scripts: no data) load
//     without credentials; the page then asks for an access key and its
//     secret and signs every call it makes, in the browser;
//   - GET / (the health check) answers without credentials, as AWS's
//     endpoint does.
//
// Signature checks use the real time (a test's clock moved by Advance
// does not age signatures). The connection loop (internal/httploop) reads only
// a few headers; with Credentials the Server serves every request with
// net/http, which keeps them all.

// Credential is one access key the emulator accepts with
// Options.Credentials.
type Credential struct {
	// AccessKeyID is the key's id: letters and digits, 1 to 128.
	AccessKeyID string
	// SecretAccessKey is the key's secret: what SigV4 signs with.
	SecretAccessKey string
	// Namespace, if not empty, names the key's database in place of its
	// access key id (letters and digits, 1 to 128): keys with the same
	// Namespace and region share tables. Empty: the access key id.
	Namespace string
}

// minAdminToken is the shortest admin token accepted: a token is a
// password, and 16 characters of any kind is the least worth typing.
const minAdminToken = 16

// validateCredentials checks Options.Credentials and AdminTokens.
func validateCredentials(creds []Credential, tokens []string) error {
	seen := make(map[string]bool, len(creds))
	for i, c := range creds {
		switch {
		case c.AccessKeyID == "" || !sigv4.ValidAccessKey(c.AccessKeyID):
			return fmt.Errorf("emulator: credential %d: access key id %q is not 1 to 128 letters and digits", i+1, c.AccessKeyID)
		case seen[c.AccessKeyID]:
			return fmt.Errorf("emulator: credential %d: access key id %q is listed twice", i+1, c.AccessKeyID)
		case c.SecretAccessKey == "":
			return fmt.Errorf("emulator: credential %d (%s): empty secret access key", i+1, c.AccessKeyID)
		case c.Namespace != "" && !sigv4.ValidAccessKey(c.Namespace):
			return fmt.Errorf("emulator: credential %d (%s): namespace %q is not 1 to 128 letters and digits", i+1, c.AccessKeyID, c.Namespace)
		}
		seen[c.AccessKeyID] = true
	}
	if len(tokens) > 0 && len(creds) == 0 {
		return errors.New("emulator: AdminTokens need Credentials (without them the admin endpoints need no token)")
	}
	for i, t := range tokens {
		if len(t) < minAdminToken || strings.ContainsFunc(t, func(r rune) bool { return r <= ' ' || r >= 0x7f }) {
			return fmt.Errorf("emulator: admin token %d: want at least %d printable ASCII characters, no blanks", i+1, minAdminToken)
		}
	}
	return nil
}

// newKeyring returns the keyring of creds and tokens, or nil when creds
// is empty (signatures are not checked).
func newKeyring(creds []Credential, tokens []string) *sigv4.Keyring {
	if len(creds) == 0 {
		return nil
	}
	keys := make(map[string]sigv4.Key, len(creds))
	for _, c := range creds {
		ns := c.Namespace
		if ns == "" {
			ns = c.AccessKeyID
		}
		keys[c.AccessKeyID] = sigv4.Key{Secret: c.SecretAccessKey, Namespace: ns}
	}
	return sigv4.NewKeyring(keys, tokens)
}
