package transfers

import (
	"github.com/dynamoemu/dynamoemu/emulator/internal/service"
	"strings"
	"time"

	"github.com/dynamoemu/dynamoemu/emulator/internal/apierr"
)

// The Describe and List operations of exports, imports and bulk
// operations (exports.go, imports.go, bulk_ops.go) share their shape: a
// lookup by ARN in the namespace's transferSet, and a page of summaries
// after a NextToken. Each kind gives its list, its ARN and its
// description.

// transferKind is one kind of operation in a transferSet.
type transferKind[J, D any] struct {
	jobs func(*transferSet) []J // its list; set.mu held
	arn  func(J) string         // a job's ARN
	at   func(J, time.Time) D   // a job's description at a time
	gone func(arn string) error // the answer for an unknown ARN
	// shape, when set, tells an ARN of this kind from other ARNs, which
	// are a ValidationException with message invalid.
	shape   func(arn string) bool
	invalid string
	// badToken is the answer for a NextToken that names nothing.
	badToken func(token string) error
	// token returns a job's ClientToken, start time and request.
	token func(J) (token string, start time.Time, request string)
}

// clientTokenWindow is how long a ClientToken names its operation
// (AWS's API reference: 8 hours).
const clientTokenWindow = 8 * time.Hour

// reused returns the description of the job started within the window
// with ClientToken token (nil: none asked): found; conflict when its
// request was not req.
func (k transferKind[J, D]) reused(c service.Call, token *string, req []byte, conflict error) (d D, found bool, err error) {
	if token == nil {
		return d, false, nil
	}
	set := moves.Of(c)
	set.mu.Lock()
	defer set.mu.Unlock()
	for _, j := range k.jobs(set) {
		if tok, start, r := k.token(j); tok == *token && c.Now().Sub(start) < clientTokenWindow {
			if r != string(req) {
				return d, true, conflict
			}
			return k.at(j, c.Now()), true, nil
		}
	}
	return d, false, nil
}

// describe checks the ARN member (AWS's 37..1024 characters) and
// returns the description of the job it names.
func (k transferKind[J, D]) describe(c service.Call, arn *string, member string) (D, error) {
	var zero D
	var cs apierr.Constraints
	apierr.ARN(&cs, arn, member)
	if err := cs.Err(); err != nil {
		return zero, err
	}
	if k.shape != nil && !k.shape(*arn) {
		return zero, apierr.Validation(k.invalid)
	}
	set := moves.Of(c)
	set.mu.Lock()
	defer set.mu.Unlock()
	for _, j := range k.jobs(set) {
		if k.arn(j) == *arn {
			return k.at(j, c.Now()), nil
		}
	}
	return zero, k.gone(*arn)
}

// listPage is what a List operation asks: its page size member (1 to 25;
// def when absent), its token, and the order.
type listPage struct {
	size        *int64
	member      string // the size member's name in messages
	def         int
	token       *string
	newestFirst bool
	more        func(*apierr.Constraints) // the operation's other member checks, after the size's
}

// list checks the page size and returns a page of the descriptions at
// now of the jobs keep takes, with the next page's token ("" at the
// end); a token that names no job is AWS's invalid-token
// ValidationException.
func (k transferKind[J, D]) list(c service.Call, p listPage, keep func(J) bool) ([]D, string, error) {
	var cs apierr.Constraints
	if p.size != nil {
		if *p.size < 1 {
			cs.Add(apierr.QuoteInt(*p.size), p.member, apierr.ValGE(1))
		} else if *p.size > 25 {
			cs.Add(apierr.QuoteInt(*p.size), p.member, apierr.ValLE(25))
		}
	}
	if p.more != nil {
		p.more(&cs)
	}
	if err := cs.Err(); err != nil {
		return nil, "", err
	}
	max := p.def
	if p.size != nil {
		max = int(*p.size)
	}
	set := moves.Of(c)
	set.mu.Lock()
	defer set.mu.Unlock()
	jobs := k.jobs(set)
	kept := make([]J, 0, len(jobs))
	for i := range jobs {
		j := jobs[i]
		if p.newestFirst {
			j = jobs[len(jobs)-1-i]
		}
		if keep(j) {
			kept = append(kept, j)
		}
	}
	pg, next, ok := page(kept, k.arn, decodePageToken(str(p.token)), max)
	if !ok {
		return nil, "", k.badToken(str(p.token))
	}
	out := make([]D, len(pg))
	for i, j := range pg {
		out[i] = k.at(j, c.Now())
	}
	return out, encodePageToken(next), nil
}

// transferARNShape returns the test of an ARN of kind ("export",
// "import"): arn:<partition>:dynamodb:<region>:<account>:table/<table
// name, 3 to 255 characters>/<kind>/<id>.
func transferARNShape(kind string) func(string) bool {
	return func(arn string) bool {
		parts := strings.SplitN(arn, ":", 6)
		if len(parts) != 6 || parts[0] != "arn" || parts[2] != "dynamodb" {
			return false
		}
		rest, ok := strings.CutPrefix(parts[5], "table/")
		if !ok {
			return false
		}
		name, id, ok := strings.Cut(rest, "/"+kind+"/")
		return ok && len(name) >= 3 && len(name) <= 255 && !strings.Contains(name, "/") && id != "" && !strings.Contains(id, "/")
	}
}

// transferTokenPattern checks an export's or import's ClientToken against
// its model's pattern ^[^\$]+$ (AWS API reference; an empty token is
// refused so, as a public test suite run against AWS records for exports).
func transferTokenPattern(cs *apierr.Constraints, token *string) {
	if token != nil && (*token == "" || strings.Contains(*token, "$")) {
		cs.Add(apierr.Quote(*token), "clientToken", apierr.ConstraintTransferClientToken)
	}
}
