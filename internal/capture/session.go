package capture

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"strconv"
	"strings"
	"sync"
)

// Session is one replay of a capture against an upstream: what it puts
// in the place of the placeholders of a request, and what it learned
// from the answers so far.
type Session struct {
	// Prefix replaces ${prefix}: fresh for each replay, so that a replay
	// never meets an earlier one's tables.
	Prefix string
	// Region and Account replace ${region} and ${account} in a
	// request's ARN that no earlier answer bound.
	Region, Account string

	mu sync.Mutex // guards bound
	// bound maps a recorded (normalised) opaque value or ARN to the one
	// this upstream answered in its place.
	bound map[string]string
}

// NewSession returns a session that puts prefix in the place of
// ${prefix}, us-east-1 and 000000000000 in an unbound ARN's.
func NewSession(prefix string) *Session {
	return &Session{Prefix: prefix, Region: "us-east-1", Account: "000000000000", bound: map[string]string{}}
}

// Request is e's request as this session sends it: each string (and
// member name) that an earlier answer bound is replaced by what it was
// bound to, the placeholders of the others filled.
func (s *Session) Request(e Exchange) ([]byte, error) {
	v, err := decode(e.Request)
	if err != nil {
		return nil, fmt.Errorf("exchange %d: request: %v", e.Seq, err)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	return encode(s.fillValue(v, ""))
}

// idempotencyTokens are the request members that make a retry
// idempotent: a replay sends a token of its own in each one's place, so
// that a second replay against one endpoint is not taken for a retry of
// the first with other parameters.
var idempotencyTokens = sync.OnceValue(func() map[string]bool {
	return map[string]bool{"ClientRequestToken": true, "ClientToken": true}
})

func (s *Session) fillValue(v any, name string) any {
	switch v := v.(type) {
	case map[string]any:
		out := make(map[string]any, len(v))
		for k, x := range v {
			out[s.fillString(k)] = s.fillValue(x, k)
		}
		return out
	case []any:
		for i, x := range v {
			v[i] = s.fillValue(x, name)
		}
		return v
	case string:
		if idempotencyTokens()[name] {
			sum := sha256.Sum256([]byte(s.Prefix + "\x00" + v))
			return hex.EncodeToString(sum[:16])
		}
		return s.fillString(v)
	}
	return v
}

func (s *Session) fillString(str string) string {
	if b, ok := s.bound[str]; ok {
		return b
	}
	return fill(str, s.Prefix, s.Region, s.Account)
}

// Compare compares the answer status and body to e's recorded one, both
// normalised, and returns their differences: none when e is not
// checked, and none of the paths in e.Ignore or ignore. Either way it
// binds the opaque values and ARNs of the recorded answer to this one's
// for the requests that follow. body is what the upstream answered (an
// empty one reads as {}).
func (s *Session) Compare(e Exchange, status int, body []byte, ignore ...string) ([]Diff, error) {
	rec, raw, diffs, err := s.diff(e, status, body, ignore)
	if err != nil || raw == nil {
		return diffs, err
	}
	s.mu.Lock()
	s.bind(rec, raw, "")
	s.mu.Unlock()
	return diffs, nil
}

// Diff is Compare without the binding: how the answer departs from e's
// recorded one, for pairing the answers of overlapping exchanges.
func (s *Session) Diff(e Exchange, status int, body []byte, ignore ...string) ([]Diff, error) {
	_, _, diffs, err := s.diff(e, status, body, ignore)
	return diffs, err
}

// diff returns e's recorded answer normalised, the replayed one as
// decoded (nil when it is not JSON) and their differences.
func (s *Session) diff(e Exchange, status int, body []byte, ignore []string) (any, any, []Diff, error) {
	if len(strings.TrimSpace(string(body))) == 0 {
		body = []byte("{}")
	}
	raw, err := decode(body)
	if err != nil {
		if !e.Checked() {
			return nil, nil, nil, nil
		}
		return nil, nil, []Diff{{Path: "(body)", Recorded: string(e.Response), Replayed: strconv.Quote(string(body))}}, nil
	}
	rec, err := decode(e.Response)
	if err != nil {
		return nil, nil, nil, fmt.Errorf("exchange %d: response: %v", e.Seq, err)
	}
	rec = normaliseValue(rec, "")
	if !e.Checked() {
		return rec, raw, nil, nil
	}
	var diffs []Diff
	if status != e.Status {
		diffs = append(diffs, Diff{Path: "status", Recorded: strconv.Itoa(e.Status), Replayed: strconv.Itoa(status)})
	}
	ig := append(append([]string(nil), e.Ignore...), ignore...)
	return rec, raw, append(diffs, compareBodies(rec, normaliseValue(raw, s.Prefix), ig)...), nil
}

// bind walks a recorded (normalised) answer beside the raw replayed one
// and binds each recorded opaque value or ARN to the replayed value in
// its place.
func (s *Session) bind(rec, raw any, name string) {
	switch r := rec.(type) {
	case map[string]any:
		p, ok := raw.(map[string]any)
		if !ok {
			return
		}
		if dataMembers()[name] {
			return
		}
		for k, pv := range p {
			nk, sub := k, k
			if tableKeyed()[name] {
				nk, sub = normaliseString(k, s.Prefix), ""
			}
			if rv, ok := r[nk]; ok {
				s.bind(rv, pv, sub)
			}
		}
	case []any:
		p, ok := raw.([]any)
		if !ok {
			return
		}
		sub := name
		if tableKeyed()[name] {
			sub = ""
		}
		for i := range min(len(r), len(p)) {
			s.bind(r[i], p[i], sub)
		}
	case string:
		p, ok := raw.(string)
		if ok && r != p && (opaqueMembers()[name] || strings.HasPrefix(r, "arn:")) {
			s.bound[r] = p
		}
	}
}
