package emulator

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"slices"
	"strings"

	"github.com/gorilla/mux"

	"github.com/dynamoemu/dynamoemu/emulator/internal/sigv4"
	"github.com/dynamoemu/dynamoemu/emulator/internal/stages/iam"
	"github.com/dynamoemu/dynamoemu/internal/faults"
)

// The admin endpoints under the IAM policy mode (docs/iam.md, "The
// admin endpoints"). Each admin row of the endpoints table (routes.go)
// names an action, dynamoemu:<Action>, and the resource it acts on: the
// tables it touches (DynamoDB's table ARNs, table/* for every table) or
// one of the emulator's own resources,
// arn:aws:dynamoemu:REGION:000000000000:KIND/NAME (a snapshot, a branch,
// the clock, a report, the IAM identities). A request signed by a key
// with an identity is decided with IAM's logic against the identity's
// policies (iam.Authorize), once per resource, before the handler runs;
// one denied resource refuses the request with AccessDeniedException, as
// DynamoDB's. An admin token, or a key without an identity, acts as the
// account's root: nothing is evaluated.

// adminAccount is the account of the emulator's ARNs (DynamoDB Local's).
const adminAccount = "000000000000"

// adminResource says the resources a request to an admin row acts on,
// given the region of its signature.
type adminResource func(e *Emulator, r *http.Request, region string) []string

// tableARN is DynamoDB's ARN of table (or "*") in region.
func tableARN(region, table string) string {
	return "arn:aws:dynamodb:" + region + ":" + adminAccount + ":table/" + table
}

// ownARN is the ARN of one of the emulator's resources: kind, or
// kind/name.
func ownARN(region, kind string) string {
	return "arn:aws:dynamoemu:" + region + ":" + adminAccount + ":" + kind
}

// allTables: every table (table/*).
func allTables(_ *Emulator, _ *http.Request, region string) []string {
	return []string{tableARN(region, "*")}
}

// own is the emulator's resource kind; a {var} of the route's path (a
// snapshot's id, a branch's name) is its value in the request.
func own(kind string) adminResource {
	return func(_ *Emulator, r *http.Request, region string) []string {
		name := kind
		for k, v := range mux.Vars(r) {
			name = strings.ReplaceAll(name, "{"+k+"}", v)
		}
		return []string{ownARN(region, name)}
	}
}

// peekBody returns r's body and puts it back for the handler. The body
// of a signed admin request was read whole to be hashed and is bounded
// (sigv4.Keyring.AdminAuth); an unsigned one's, up to maxPeek.
func peekBody(r *http.Request) []byte {
	b, _ := io.ReadAll(io.LimitReader(r.Body, maxPeek))
	r.Body = struct {
		io.Reader
		io.Closer
	}{io.MultiReader(bytes.NewReader(b), r.Body), r.Body}
	return b
}

// maxPeek bounds what peekBody reads of a body not read yet (an unsigned
// request's, for the tenant guard): the rest is the handler's, which
// bounds it.
const maxPeek = 1 << 20

// lagTable is the table a lag request's body names (in its region, if
// it gives one); table/* when it names none (the handler refuses it).
func lagTable(_ *Emulator, r *http.Request, region string) []string {
	var req struct {
		Table  string `json:"table"`
		Region string `json:"region"`
	}
	_ = json.Unmarshal(peekBody(r), &req)
	if req.Region != "" {
		region = req.Region
	}
	if req.Table == "" {
		req.Table = "*"
	}
	return []string{tableARN(region, req.Table)}
}

// faultTables are the tables whose fault rules a PUT replaces: each
// table a rule set now or in the body names; for a rule that names none
// (it matches every table) table/* and every table there is; table/*
// when no rule is set or given.
// A body that does not parse acts on the rules set now alone (the
// handler refuses it).
func faultTables(e *Emulator, r *http.Request, region string) []string {
	_, rules := e.inj.Rules()
	if c, err := faults.ParseConfig(peekBody(r)); err == nil {
		rules = append(slices.Clip(rules), c.Rules...)
	}
	var out []string
	add := func(a string) {
		if !slices.Contains(out, a) {
			out = append(out, a)
		}
	}
	for _, rule := range rules {
		if rule.Table != "" {
			add(tableARN(region, rule.Table))
			continue
		}
		for _, a := range everyTable(e, r, region) {
			add(a)
		}
	}
	if len(out) == 0 {
		return allTables(e, r, region)
	}
	return out
}

// everyTable is table/* and the ARN of every table of every namespace:
// what a fault rule that names no table touches, and the removal of every
// rule, so that an identity denied the action on one table may do
// neither (a Deny of table/orders does not match table/*).
func everyTable(e *Emulator, r *http.Request, region string) []string {
	out := allTables(e, r, region)
	for _, sp := range e.svc.Spaces() {
		for _, name := range sp.TableNames() {
			out = append(out, tableARN(sp.Region(), name))
		}
	}
	return out
}

// authorizeAdmin decides a request to the admin row row, signed with c
// (nil: an admin token), under the policy mode: nil when it may go on.
func (e *Emulator) authorizeAdmin(row *endpoint, r *http.Request, c *sigv4.Check) error {
	if e.iam == nil || c == nil || row.action == "" {
		return nil
	}
	id := e.iam.identity(c.KeyID())
	if id == nil {
		return nil
	}
	keys := map[string][]string{"aws:requestedregion": {c.Region()}}
	for _, res := range row.resource(e, r, c.Region()) {
		if err := iam.Authorize(id, "dynamoemu:"+row.action, res, keys); err != nil {
			return err
		}
	}
	return nil
}
