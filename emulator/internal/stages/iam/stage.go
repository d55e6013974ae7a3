package iam

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"slices"
	"sync"
	"sync/atomic"

	"github.com/dynamoemu/dynamoemu/emulator/internal/apierr"
	"github.com/dynamoemu/dynamoemu/emulator/internal/service"
	"github.com/dynamoemu/dynamoemu/internal/iampolicy"
	"github.com/dynamoemu/dynamoemu/internal/insights"
	"github.com/dynamoemu/dynamoemu/internal/storage"
)

// Identity is who an access key stands for in the policy mode: its
// principal, its identity-based policies and the condition keys it
// gives that the emulator cannot know (a web identity's user id).
type Identity struct {
	Principal iampolicy.Principal
	Policies  []*iampolicy.Policy
	// Keys are condition keys of every request of the identity, by
	// lower-case name ("www.amazon.com:user_id"): CheckKeys lets a
	// policy name them.
	Keys map[string]string
}

// Origin is where a request came from, for the global condition keys
// aws:SourceIp and aws:SecureTransport.
type Origin struct {
	SourceIP string // the client's address, no port ("": unknown)
	Secure   bool   // the request came over TLS
}

// request is what a request's context carries for the stage: who and
// where from, and its PartiQL statements once parsed (statementsOf).
type request struct {
	id     *Identity
	from   Origin
	parsed sync.Once
	stmts  []*statementOf
}

// identityKey is the context key of a request's *request.
type identityKey struct{}

// With returns ctx carrying the request's identity id and its origin.
func With(ctx context.Context, id *Identity, from Origin) context.Context {
	return context.WithValue(ctx, identityKey{}, &request{id: id, from: from})
}

// requestOf is what ctx carries (nil: no identity).
func requestOf(ctx context.Context) *request {
	r, _ := ctx.Value(identityKey{}).(*request)
	return r
}

// enabled counts the emulators of the process with the policy mode on.
var enabled atomic.Int64

// Enable turns the stage on for an emulator with the policy mode; the
// function it returns turns it off again (once).
func Enable() (disable func()) {
	enabled.Add(1)
	var once sync.Once
	return func() { once.Do(func() { enabled.Add(-1) }) }
}

// Stage is the IAM policy stage (service.Stage, service.Switch and
// service.Hooker).
type Stage struct{}

// Hooks evaluate each call of an operation that is not a data-plane one
// (checkCall).
func (Stage) Hooks() service.Hooks { return service.Hooks{CheckCall: checkCall} }

// Watches watches every table: whether a request is evaluated is its
// identity's to say.
func (Stage) Watches(service.Table) bool { return true }

// On reports whether an emulator of the process has the policy mode on.
func (Stage) On(service.Table) bool { return enabled.Load() > 0 }

// End does nothing: the stage decides before the use.
func (Stage) End(*service.TableUse, service.Outcome) {}

// Begin decides the use against the identity's and the table's
// policies.
func (Stage) Begin(u *service.TableUse) error {
	c := u.Call()
	req := requestOf(c.Context())
	if req == nil {
		return nil
	}
	t := u.Table()
	r := &iampolicy.Request{
		Principal: &req.id.Principal,
		Action:    "dynamodb:" + actionOf(u.Op(), u.Access()),
		Resource:  t.Info().ARN,
		Context:   map[string][]string{},
	}
	if u.Index() != "" {
		r.Resource += "/index/" + u.Index()
	}
	useKeys(r, u, req)
	if keys := batchKeys(c.Input(), t); keys != nil {
		r.Context["dynamodb:leadingkeys"] = keys
	} else if keys := leadingKeys(u); keys != nil {
		r.Context["dynamodb:leadingkeys"] = keys
	}
	globalKeys(r.Context, c, req)
	resourceTags(r.Context, t)
	return decide(r, req.id.Policies, resourcePolicies(t, ""))
}

// decide authorizes r against the identity's policies and the
// resource's, and returns AWS's AccessDeniedException when it is denied.
func decide(r *iampolicy.Request, identity, resource []*iampolicy.Policy) error {
	switch iampolicy.Authorize(r, identity, resource) {
	case iampolicy.Allowed:
		return nil
	case iampolicy.DeniedByIdentity:
		return apierr.AccessDenied(denial(r, "with an explicit deny in an identity-based policy"))
	case iampolicy.DeniedByResource:
		return apierr.AccessDenied(denial(r, "with an explicit deny in a resource-based policy"))
	}
	return apierr.AccessDenied(denial(r, "because no identity-based policy allows the "+r.Action+" action"))
}

// denial is AWS's AccessDeniedException message: "User: ARN is not
// authorized to perform: ACTION on resource: ARN " and the reason.
// The format is the IAM User Guide's ("Troubleshoot access denied
// error messages", docs.aws.amazon.com/IAM/latest/UserGuide/
// troubleshoot_access-denied.html); DynamoDB's own answers in public
// records have it word for word, e.g.
// github.com/AntonShuvaev/intellij-dynamodb issue 29 ("... is not
// authorized to perform: dynamodb:Query on resource:
// arn:aws:dynamodb:us-east-1:...:table/... because no identity-based
// policy allows the dynamodb:Query action").
func denial(r *iampolicy.Request, reason string) string {
	return "User: " + r.Principal.ARN + " is not authorized to perform: " + r.Action +
		" on resource: " + r.Resource + " " + reason
}

// actionOf is the IAM action a use of op stands for (AWS's Service
// Authorization Reference for DynamoDB, "API operations defined by
// Amazon DynamoDB"): a transaction's actions are authorized as the
// item operations they stand for, a ConditionCheck as
// ConditionCheckItem (developer guide, transaction-apis-iam.html);
// PartiQL's statements as PartiQLSelect, PartiQLInsert, PartiQLUpdate
// and PartiQLDelete.
func actionOf(op string, a insights.Access) string {
	switch op {
	case "TransactGetItems":
		return "GetItem"
	case "TransactWriteItems":
		switch a {
		case insights.Put:
			return "PutItem"
		case insights.Update:
			return "UpdateItem"
		case insights.Delete:
			return "DeleteItem"
		}
		return "ConditionCheckItem"
	case "ExecuteStatement", "BatchExecuteStatement", "ExecuteTransaction":
		switch a {
		case insights.Put:
			return "PartiQLInsert"
		case insights.Update:
			return "PartiQLUpdate"
		case insights.Delete:
			return "PartiQLDelete"
		}
		return "PartiQLSelect"
	}
	return op
}

// leadingKeys are the partition key values the use names, as IAM's
// dynamodb:LeadingKeys holds them (nil: none, a Scan).
func leadingKeys(u *service.TableUse) []string {
	if parts := u.Parts(); parts != nil {
		out := make([]string, 0, len(parts))
		for _, kc := range parts {
			if kc.Partition.IsValid() {
				out = append(out, keyString(kc.Partition))
			}
		}
		return out
	}
	if p := u.Key().Partition; p.IsValid() {
		return []string{keyString(p)}
	}
	return nil
}

// batchKeys is dynamodb:LeadingKeys of a BatchGetItem or BatchWriteItem
// on table t: every partition key value the request names on t, each
// once, in request order (nil for another request). AWS authorizes a
// batch once per table, dynamodb:BatchGetItem or BatchWriteItem on it,
// so a multivalued key holds the whole batch's values there: under
// ForAnyValue one matching key allows every item, under ForAllValues
// one other denies them all (awslabs/amazon-dynamodb-tools issue 325:
// a BatchWriteItem with one key a LeadingKeys policy denies failed
// whole). Each item's use is decided with the same values.
func batchKeys(in any, t service.Table) []string {
	pk := t.Schema().Partition.Name
	var out []string
	add := func(item map[string]storageValue) {
		if v, ok := item[pk]; ok && v.IsValid() {
			if s := keyString(v); !slices.Contains(out, s) {
				out = append(out, s)
			}
		}
	}
	switch in := in.(type) {
	case *service.BatchGetItemInput:
		ka := in.RequestItems[t.Info().Name]
		if ka == nil {
			ka = in.RequestItems[t.Info().ARN] // a table named by its ARN
		}
		if ka != nil {
			for _, k := range ka.Keys {
				add(k)
			}
		}
	case *service.BatchWriteItemInput:
		ws, ok := in.RequestItems[t.Info().Name]
		if !ok {
			ws = in.RequestItems[t.Info().ARN]
		}
		for _, w := range ws {
			switch {
			case w.PutRequest != nil:
				add(w.PutRequest.Item)
			case w.DeleteRequest != nil:
				add(w.DeleteRequest.Key)
			}
		}
	}
	return out // nil: not a batch, or none found (each use then names its own)
}

// keyString is a key value as a condition compares it: a string, a
// number's text, a binary's base64.
func keyString(v storage.Value) string {
	if v.Kind() == storage.KindB {
		return base64.StdEncoding.EncodeToString(v.Bytes())
	}
	return v.Str()
}

// policySlot is the slot of the table's definition where the resource
// policies feature (emulator/internal/resources, policies.go) keeps
// PutResourcePolicy's documents: a JSON list of {stream, doc, rev}.
const policySlot = "policies"

// resourcePolicies are the resource-based policies of the table
// (stream "") or of its stream of that label ("*": any of its
// streams), parsed (one that does not parse counts as none:
// PutResourcePolicy checks only that a document is JSON).
func resourcePolicies(t service.Table, stream string) []*iampolicy.Policy {
	slot := t.Definition().Slot(policySlot)
	if slot == nil {
		return nil
	}
	var ps []struct {
		Stream string `json:"stream"`
		Doc    string `json:"doc"`
	}
	if json.Unmarshal(slot, &ps) != nil {
		return nil
	}
	var out []*iampolicy.Policy
	for _, p := range ps {
		if p.Stream != stream && (stream != "*" || p.Stream == "") {
			continue
		}
		if pol := parsed(p.Doc); pol != nil {
			out = append(out, pol)
		}
	}
	return out
}

// cache holds the resource policies parsed, by document.
var cache struct {
	mu   sync.Mutex // guards docs
	docs map[string]*iampolicy.Policy
}

// maxCached bounds the documents cached: past it the cache starts over.
const maxCached = 256

// parsed is the document doc parsed (nil: it does not parse).
func parsed(doc string) *iampolicy.Policy {
	cache.mu.Lock()
	defer cache.mu.Unlock()
	if p, ok := cache.docs[doc]; ok {
		return p
	}
	p, err := iampolicy.Parse([]byte(doc))
	if err != nil {
		p = nil
	}
	if cache.docs == nil || len(cache.docs) >= maxCached {
		cache.docs = map[string]*iampolicy.Policy{}
	}
	cache.docs[doc] = p
	return p
}
