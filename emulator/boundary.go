package emulator

import (
	"fmt"
	"net/http"

	"github.com/dynamoemu/dynamoemu/emulator/internal/apierr"
	"github.com/dynamoemu/dynamoemu/emulator/internal/boundary"
	"github.com/dynamoemu/dynamoemu/emulator/internal/sigv4"
	convstage "github.com/dynamoemu/dynamoemu/emulator/internal/stages/conventions"
)

// The conventions' tenant guard at the edge, for what the service does
// not serve: the admin endpoints and Lambda's event source mapping API.
// Each declares what it touches (boundary.Decl: an admin row's decl, with
// the tables its resource names; lambdaesm.Decls), and judgeBound judges
// it as the service's CheckCall hook judges an operation's declaration
// (convstage.GuardEdge: rule B10 on each table that opts in). A caller
// the conventions bind to a tenant by its access key
// (conventions.Config.Callers), or by its x-tenant-code header when its
// key binds it to none (as the service reads it: a header never widens,
// a key the configuration binds or names cross-tenant keeps its own),
// may describe and list; it is refused a
// whole-table read or change, or an admin action, of a table that opts
// in (docs/conventions.md, "What a tenant-bound caller may do"), an
// admin action or a change of every table (those not made yet
// included), and any act on the emulator's own state (boundary.Own); an
// admin token, a cross-tenant caller and a caller bound to no tenant keep
// every right. The access key is the signature's when
// Options.Credentials verified one, else the one the request's
// Authorization names, as the DynamoDB API reads it without credentials.

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

// judgeBound judges a call the service does not serve, r (checked c:
// requestKey): op, declared d, on the tables tables gives (table names;
// "*": every table), asked only of a caller bound to a tenant, by its key
// or its x-tenant-code header. nil: it may go on.
func (e *Emulator) judgeBound(r *http.Request, c *sigv4.Check, op string, d boundary.Decl, tables func() []string) error {
	cfg := e.opts.Conventions
	if cfg == nil {
		return nil
	}
	key, hdr := e.requestKey(r, c), headerGet(r.Header, headerTenantCode)
	tenant, cross := cfg.CallerTenant(key, hdr)
	if cross || tenant == "" || d.Access == boundary.Account || d.Access == boundary.Describe || d.On == boundary.Nothing {
		return nil
	}
	refuse := func(what string) error {
		return apierr.AccessDenied(fmt.Sprintf(apierr.MsgConvEdgeGuarded, tenant, op, what))
	}
	if d.On == boundary.Own {
		return refuse(d.Access.String() + " of the emulator's state")
	}
	now, spaces := e.svc.Now(), e.svc.Spaces()
	for _, name := range tables() {
		if name == "*" && d.Access != boundary.WholeRead {
			return refuse(d.Access.String() + " of every table, those not made yet included")
		}
		for _, sp := range spaces {
			names := []string{name}
			if name == "*" {
				names = sp.TableNames()
			}
			for _, n := range names {
				if err := convstage.GuardEdge(sp, key, hdr, op, now, d, n); err != nil {
					return err
				}
			}
		}
	}
	return nil
}
