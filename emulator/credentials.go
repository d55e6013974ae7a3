package emulator

import (
	"bytes"
	"crypto/sha256"
	"crypto/subtle"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"
	"time"

	"github.com/dynamoemu/dynamoemu/emulator/internal/apierr"
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

// keyring is what the emulator verifies signatures with: the listed keys
// and tokens. Set by New and read-only after.
type keyring struct {
	keys   map[string]Credential // by access key id
	tokens [][]byte
	now    func() time.Time // time.Now; tests set another
}

// newKeyring returns the keyring of creds and tokens, or nil when creds
// is empty (signatures are not checked).
func newKeyring(creds []Credential, tokens []string) *keyring {
	if len(creds) == 0 {
		return nil
	}
	k := &keyring{keys: make(map[string]Credential, len(creds)), now: time.Now}
	for _, c := range creds {
		k.keys[c.AccessKeyID] = c
	}
	for _, t := range tokens {
		k.tokens = append(k.tokens, []byte(t))
	}
	return k
}

// sigCheck is a request whose signature has passed every check but the
// signature itself, which needs the body (finish).
type sigCheck struct {
	auth  sigv4.Auth
	scope sigv4.Scope
	key   Credential
}

// begin runs the checks of r's authentication that need no body (steps 1
// to 9 of emulator/internal/sigv4); with api, r is an API call, whose X-Amz-Target must
// be signed (step 6b).
func (k *keyring) begin(r *http.Request, api bool) (*sigCheck, error) {
	auth := headerGet(r.Header, hdrAuthorization)
	q := r.URL.Query()
	_, inQuery := q[sigv4.QAlgorithm]
	var a sigv4.Auth
	var err error
	switch {
	case inQuery && auth != "":
		return nil, apierr.New(apierr.ErrInvalidSignature, apierr.MsgFoundBoth)
	case inQuery:
		a, err = sigv4.ParseQueryAuth(q)
	default:
		a, err = sigv4.ParseAuthorization(auth, r.Header.Get("X-Amz-Date"), r.Header.Get("Date"))
	}
	if err != nil {
		return nil, err
	}
	_, scope, err := sigv4.CheckAuth(a, k.now())
	if err != nil {
		return nil, err
	}
	if api && !sigv4.Signs(a, "x-amz-target") {
		return nil, apierr.New(apierr.ErrInvalidSignature, apierr.MsgTargetNotSigned)
	}
	key, ok := k.keys[scope.KeyID]
	if !ok {
		return nil, apierr.New(apierr.ErrUnrecognizedClient, apierr.MsgSecurityTokenInvalid)
	}
	return &sigCheck{auth: a, scope: scope, key: key}, nil
}

// finish checks the signature of r, whose body hashed to sum (steps 10 and
// 11), and returns the namespace's credential.
func (k *keyring) finish(c *sigCheck, r *http.Request, sum [sha256.Size]byte) (sigv4.Credential, error) {
	in := sigv4.InputOf(r, sum)
	if err := sigv4.CheckSignature(&in, c.auth, c.scope, c.key.SecretAccessKey); err != nil {
		return sigv4.Credential{}, err
	}
	token := r.Header.Get("X-Amz-Security-Token")
	if c.auth.Query && token == "" {
		token = r.URL.Query().Get(sigv4.QSecurityToken)
	}
	if token != "" {
		return sigv4.Credential{}, apierr.New(apierr.ErrUnrecognizedClient, apierr.MsgSessionTokenInvalid)
	}
	ns := c.key.Namespace
	if ns == "" {
		ns = c.key.AccessKeyID
	}
	return sigv4.Credential{AccessKey: ns, Region: c.scope.Region}, nil
}

// maxAdminSignedBody bounds the body an admin request may have with
// signatures checked: it is read whole to be hashed (the largest admin
// body, a fault rule set, is far smaller).
const maxAdminSignedBody = 1 << 20

// adminAuth checks the credentials of r, a request to an admin endpoint:
// a bearer token of Options.AdminTokens, or a signature by a listed key.
// A signed request's body is read (and replaced by a reader of the same
// bytes) to be hashed.
func (k *keyring) adminAuth(r *http.Request) error {
	if tok, ok := cutBearer(headerGet(r.Header, hdrAuthorization)); ok {
		for _, t := range k.tokens {
			if subtle.ConstantTimeCompare([]byte(tok), t) == 1 {
				return nil
			}
		}
		return apierr.New(apierr.ErrUnrecognizedClient, apierr.MsgSecurityTokenInvalid)
	}
	c, err := k.begin(r, false)
	if err != nil {
		return err
	}
	body, err := io.ReadAll(io.LimitReader(r.Body, maxAdminSignedBody+1))
	if err != nil {
		return apierr.Serialization("")
	}
	if len(body) > maxAdminSignedBody {
		return apierr.RequestEntityTooLarge()
	}
	r.Body = io.NopCloser(bytes.NewReader(body))
	_, err = k.finish(c, r, sha256.Sum256(body))
	return err
}

// cutBearer returns the token of an Authorization value of the Bearer
// scheme, whose name is case-insensitive (RFC 9110 section 11.1).
func cutBearer(h string) (string, bool) {
	const scheme = "bearer "
	if len(h) < len(scheme) || !strings.EqualFold(h[:len(scheme)], scheme) {
		return "", false
	}
	return h[len(scheme):], true
}
