package emulator

import (
	"fmt"
	"net/http"

	"github.com/dynamoemu/dynamoemu/emulator/internal/apierr"
	"github.com/dynamoemu/dynamoemu/emulator/internal/boundary"
	"github.com/dynamoemu/dynamoemu/emulator/internal/sigv4"
)

// The conventions' tenant guard at the edge, for what the service does
// not serve: the admin endpoints (their rows declare boundary.Admin) and
// the changes of Lambda's event source mappings (a mapping hands every
// record of a stream, every tenant's, to its function: a whole-table
// read). A caller the conventions bind to a tenant by its access key
// (conventions.Config.Callers) is refused both, whatever the table
// (docs/conventions.md, "What a tenant-bound caller may do"); an admin
// token, a cross-tenant caller and a caller bound to no tenant keep every
// right. The access key is the signature's when Options.Credentials
// verified one, else the one the request's Authorization names, as the
// DynamoDB API reads it without credentials.

// requestKey is the access key a request to the edge is made with: c's
// (nil: an admin token, or no credentials checked), else r's
// Authorization's when no credentials are checked ("": none).
func (e *Emulator) requestKey(r *http.Request, c *sigv4.Check) string {
	if c != nil {
		return c.KeyID()
	}
	if e.keys != nil {
		return "" // an admin token: the account's root
	}
	cred, err := sigv4.ParseCredential(r)
	if err != nil {
		return ""
	}
	return cred.AccessKey
}

// refuseBound refuses the caller with key access a, what the call does,
// when the conventions bind it to a tenant (nil: they do not).
func (e *Emulator) refuseBound(key string, a boundary.Access, what string) error {
	cfg := e.opts.Conventions
	if cfg == nil || key == "" {
		return nil
	}
	tenant, cross := cfg.CallerTenant(key, "")
	if cross || tenant == "" {
		return nil
	}
	return apierr.AccessDenied(fmt.Sprintf(apierr.MsgConvEdgeGuarded, tenant, what, a))
}
