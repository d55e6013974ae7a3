package sigv4

import (
	"bytes"
	"crypto/sha256"
	"crypto/subtle"
	"io"
	"net/http"
	"strings"
	"time"

	"github.com/dynamoemu/dynamoemu/emulator/internal/apierr"
)

// Key is a listed access key: its secret, and the namespace its requests
// reach (its access key id unless the listing names another).
type Key struct {
	Secret    string
	Namespace string
}

// Keyring is what the server verifies signatures with: the listed keys
// and admin tokens. Made by NewKeyring and read-only after (but Now,
// which a test sets before the first request).
type Keyring struct {
	keys   map[string]Key // by access key id
	tokens [][]byte
	Now    func() time.Time // time.Now; tests set another
}

// NewKeyring returns the keyring of keys, by access key id, and the admin
// tokens.
func NewKeyring(keys map[string]Key, tokens []string) *Keyring {
	k := &Keyring{keys: keys, Now: time.Now}
	for _, t := range tokens {
		k.tokens = append(k.tokens, []byte(t))
	}
	return k
}

// Check is a request whose signature has passed every check but the
// signature itself, which needs the body (Finish).
type Check struct {
	auth  Auth
	scope Scope
	key   Key
}

// KeyID is the access key id that signed the request.
func (c *Check) KeyID() string { return c.scope.KeyID }

// Region is the region of the credential that signed the request.
func (c *Check) Region() string { return c.scope.Region }

// Begin runs the checks of r's authentication that need no body (steps 1
// to 9 of signature.go) for DynamoDB's API; with api, r is an API call,
// whose X-Amz-Target must be signed (step 6b).
func (k *Keyring) Begin(r *http.Request, api bool) (*Check, error) {
	return k.begin(r, api, ServiceDynamoDB)
}

// begin is Begin for a request to service.
func (k *Keyring) begin(r *http.Request, api bool, service string) (*Check, error) {
	auth := authorization(r)
	q := r.URL.Query()
	_, inQuery := q[QAlgorithm]
	var a Auth
	var err error
	switch {
	case inQuery && auth != "":
		return nil, apierr.New(apierr.ErrInvalidSignature, apierr.MsgFoundBoth)
	case inQuery:
		a, err = ParseQueryAuth(q)
	default:
		a, err = ParseAuthorization(auth, r.Header.Get("X-Amz-Date"), r.Header.Get("Date"))
	}
	if err != nil {
		return nil, err
	}
	_, scope, err := CheckAuth(a, k.Now(), service)
	if err != nil {
		return nil, err
	}
	if api && !Signs(a, "x-amz-target") {
		return nil, apierr.New(apierr.ErrInvalidSignature, apierr.MsgTargetNotSigned)
	}
	key, ok := k.keys[scope.KeyID]
	if !ok {
		return nil, apierr.New(apierr.ErrUnrecognizedClient, apierr.MsgSecurityTokenInvalid)
	}
	return &Check{auth: a, scope: scope, key: key}, nil
}

// Finish checks the signature of r, whose body hashed to sum (steps 10
// and 11), and returns the namespace's credential.
func (k *Keyring) Finish(c *Check, r *http.Request, sum [sha256.Size]byte) (Credential, error) {
	in := InputOf(r, sum)
	if err := CheckSignature(&in, c.auth, c.scope, c.key.Secret); err != nil {
		return Credential{}, err
	}
	token := r.Header.Get("X-Amz-Security-Token")
	if c.auth.Query && token == "" {
		token = r.URL.Query().Get(QSecurityToken)
	}
	if token != "" {
		return Credential{}, apierr.New(apierr.ErrUnrecognizedClient, apierr.MsgSessionTokenInvalid)
	}
	return Credential{AccessKey: c.key.Namespace, Region: c.scope.Region, KeyID: c.scope.KeyID}, nil
}

// maxAdminSignedBody bounds the body an admin request may have with
// signatures checked: it is read whole to be hashed (the largest admin
// body, a fault rule set, is far smaller).
const maxAdminSignedBody = 1 << 20

// AdminAuth checks the credentials of r, a request to an admin endpoint:
// a bearer token of the keyring's, or a signature by a listed key for
// DynamoDB (Auth). A signed request's Check says its key and region
// (nil for a token).
func (k *Keyring) AdminAuth(r *http.Request) (*Check, error) {
	return k.Auth(r, ServiceDynamoDB, maxAdminSignedBody)
}

// Auth checks the credentials of r, a request to one of the server's
// own endpoints or to Lambda's API on its port: a bearer token of the
// keyring's (nil Check), or a signature scoped to service by a listed
// key (its Check: the key and region). A signed request's body, up to
// maxBody bytes (RequestEntityTooLarge past it, and at once for a body
// announced larger, before any of it is read), is read (and replaced by
// a reader of the same bytes) to be hashed.
func (k *Keyring) Auth(r *http.Request, service string, maxBody int64) (*Check, error) {
	if tok, ok := CutBearer(authorization(r)); ok {
		for _, t := range k.tokens {
			if subtle.ConstantTimeCompare([]byte(tok), t) == 1 {
				return nil, nil
			}
		}
		return nil, apierr.New(apierr.ErrUnrecognizedClient, apierr.MsgSecurityTokenInvalid)
	}
	c, err := k.begin(r, false, service)
	if err != nil {
		return nil, err
	}
	if r.ContentLength > maxBody {
		return nil, apierr.RequestEntityTooLarge()
	}
	body, err := io.ReadAll(io.LimitReader(r.Body, maxBody+1))
	if err != nil {
		return nil, apierr.Serialization("")
	}
	if int64(len(body)) > maxBody {
		return nil, apierr.RequestEntityTooLarge()
	}
	r.Body = io.NopCloser(bytes.NewReader(body))
	if _, err := k.Finish(c, r, sha256.Sum256(body)); err != nil {
		return nil, err
	}
	return c, nil
}

// CutBearer returns the token of an Authorization value of the Bearer
// scheme, whose name is case-insensitive (RFC 9110 section 11.1).
func CutBearer(h string) (string, bool) {
	const scheme = "bearer "
	if len(h) < len(scheme) || !strings.EqualFold(h[:len(scheme)], scheme) {
		return "", false
	}
	return h[len(scheme):], true
}

// authorization is r's Authorization header ("": none), read without
// canonicalising the key.
func authorization(r *http.Request) string {
	if v := r.Header["Authorization"]; len(v) > 0 {
		return v[0]
	}
	return ""
}
