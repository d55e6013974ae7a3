package iampolicy

import (
	"net/netip"
	"strings"
)

// Principal is who makes a request.
type Principal struct {
	ARN      string            // arn:aws:iam::ACCOUNT:user/NAME
	UserName string            // aws:username
	UserID   string            // aws:userid
	Tags     map[string]string // aws:PrincipalTag/KEY, by key as given
}

// Account is the account id of the principal's ARN ("" if it has none).
func (p *Principal) Account() string {
	parts := strings.SplitN(p.ARN, ":", 6)
	if len(parts) < 6 {
		return ""
	}
	return parts[4]
}

// Request is one authorization.
type Request struct {
	Principal *Principal
	Action    string // service:Action
	Resource  string // the resource's ARN
	// Context holds the request's condition keys, lower case: a key
	// absent from it is absent from the request; a multivalued key
	// holds its values (none: the empty set). A policy variable
	// ${KEY} stands for a single-valued key's value.
	Context map[string][]string
	// Unbounded holds the multivalued keys (lower case) whose values are
	// every value there is, whatever Context lists for them: the
	// dynamodb:Attributes of a request that reads whole items, which
	// names no attribute and returns any. A ForAllValues condition on
	// one holds only when a pattern of the policy matches anything
	// ("*"); a ForAnyValue one holds unless it does, for a negated
	// operator, and always for a positive one.
	Unbounded map[string]bool
}

// Decision is Authorize's answer.
type Decision uint8

// Decisions.
const (
	// ImplicitDeny: no statement allows the request.
	ImplicitDeny Decision = iota
	// Allowed: a statement allows it and none denies it.
	Allowed
	// DeniedByIdentity: a statement of an identity policy denies it.
	DeniedByIdentity
	// DeniedByResource: a statement of the resource's policy denies it.
	DeniedByResource
)

// Authorize decides r against the principal's identity policies and
// the resource's policies (same account): an explicit Deny wins, then
// an Allow of either kind, else an implicit deny.
func Authorize(r *Request, identity, resource []*Policy) Decision {
	allowed := false
	for _, p := range identity {
		switch p.effect(r, false) {
		case effectDeny:
			return DeniedByIdentity
		case effectAllow:
			allowed = true
		}
	}
	for _, p := range resource {
		switch p.effect(r, true) {
		case effectDeny:
			return DeniedByResource
		case effectAllow:
			allowed = true
		}
	}
	if allowed {
		return Allowed
	}
	return ImplicitDeny
}

type effect uint8

const (
	effectNone effect = iota
	effectAllow
	effectDeny
)

// effect is what the policy says of r: Deny if a matching statement
// denies it, else Allow if one allows it. A resource policy's
// statements apply only to the principals they name.
func (p *Policy) effect(r *Request, resource bool) effect {
	out := effectNone
	for i := range p.Statements {
		s := &p.Statements[i]
		if resource && !s.namesPrincipal(r.Principal) {
			continue
		}
		if !s.matches(r) {
			continue
		}
		if !s.Allow {
			return effectDeny
		}
		out = effectAllow
	}
	return out
}

// namesPrincipal reports whether the statement's Principal takes in p.
func (s *Statement) namesPrincipal(p *Principal) bool {
	account := p.Account()
	for _, x := range s.Principals {
		switch {
		case x == "*", x == p.ARN:
			return true
		case account != "" && (x == account || x == "arn:aws:iam::"+account+":root"):
			return true
		}
	}
	return false
}

// matches reports whether the statement applies to r: its action, its
// resource and all its conditions.
func (s *Statement) matches(r *Request) bool {
	hit := false
	for _, a := range s.Actions {
		if wildMatch(strings.ToLower(a), strings.ToLower(r.Action)) {
			hit = true
			break
		}
	}
	if hit == s.NotAction {
		return false
	}
	hit = false
	for _, res := range s.Resources {
		pat, ok := substitute(res, r)
		if ok && wildMatch(pat, r.Resource) {
			hit = true
			break
		}
	}
	if hit == s.NotResource {
		return false
	}
	for i := range s.Conditions {
		if !s.Conditions[i].holds(r) {
			return false
		}
	}
	return true
}

// negated reports whether the operator is a negated one.
func negated(op string) bool { return strings.Contains(op, "Not") }

// holds reports whether the condition holds for r.
func (c *Condition) holds(r *Request) bool {
	vals, present := r.Context[c.Key]
	unbounded := r.Unbounded[c.Key]
	if c.Op == "Null" {
		absent := !unbounded && (!present || len(vals) == 0)
		for _, want := range c.Values {
			if (want == "true") == absent {
				return true
			}
		}
		return false
	}
	if unbounded {
		return c.holdsForEvery(r)
	}
	if !present {
		switch {
		case c.IfExists:
			return true
		case c.Set == ForAllValues:
			return true // the empty set: every value matches
		case c.Set == ForAnyValue:
			return false
		}
		return negated(c.Op)
	}
	switch c.Set {
	case ForAllValues:
		for _, v := range vals {
			if !c.matchOne(v, r) {
				return false
			}
		}
		return true
	case ForAnyValue:
		for _, v := range vals {
			if c.matchOne(v, r) {
				return true
			}
		}
		return false
	}
	// A single-valued operator on a key: a negated operator holds when
	// no value is among the policy's, a positive one when a value is.
	if len(vals) == 0 {
		return negated(c.Op)
	}
	if negated(c.Op) {
		for _, v := range vals {
			if !c.matchOne(v, r) {
				return false
			}
		}
		return true
	}
	for _, v := range vals {
		if c.matchOne(v, r) {
			return true
		}
	}
	return false
}

// holdsForEvery is holds for a key whose values are every value there
// is (Request.Unbounded): a positive operator matches some of them
// whenever the policy has a value to match; every one of them only
// when a value matches anything. A negated operator holds for some of
// them unless a value matches anything, and never for all of them.
func (c *Condition) holdsForEvery(r *Request) bool {
	some, all := false, false
	for _, want := range c.Values {
		w, ok := substitute(want, r)
		if !ok {
			continue
		}
		some = true
		if (c.Op == "StringLike" || c.Op == "StringNotLike") && strings.Trim(w, "*") == "" {
			all = true
		}
	}
	switch {
	case negated(c.Op) && c.Set == ForAnyValue:
		return !all
	case negated(c.Op):
		return !some // every value passes: none of the policy's can match one
	case c.Set == ForAllValues:
		return all
	}
	return some
}

// matchOne reports whether the request's value v passes the operator
// against the policy's values: for a positive operator, v matches one
// of them; for a negated one, v matches none.
func (c *Condition) matchOne(v string, r *Request) bool {
	hit := false
	for _, want := range c.Values {
		w, ok := substitute(want, r)
		if !ok {
			continue
		}
		if c.compare(w, v) {
			hit = true
			break
		}
	}
	if negated(c.Op) {
		return !hit
	}
	return hit
}

// compare is the operator's positive test of the request's value v
// against the policy's w.
func (c *Condition) compare(w, v string) bool {
	if c.Op != "StringLike" && c.Op != "StringNotLike" {
		w = unescape(w)
	}
	switch c.Op {
	case "StringEquals", "StringNotEquals":
		return v == w
	case "StringEqualsIgnoreCase", "StringNotEqualsIgnoreCase":
		return strings.EqualFold(v, w)
	case "StringLike", "StringNotLike":
		return wildMatch(w, v)
	case "Bool":
		return strings.EqualFold(v, w)
	case "IpAddress", "NotIpAddress":
		return ipIn(v, w)
	}
	return false
}

// ipIn reports whether the address v is w, an address or a CIDR block.
func ipIn(v, w string) bool {
	a, err := netip.ParseAddr(v)
	if err != nil {
		return false
	}
	a = a.Unmap()
	if p, err := netip.ParsePrefix(w); err == nil {
		return p.Contains(a)
	}
	b, err := netip.ParseAddr(w)
	return err == nil && b.Unmap() == a
}

// substitute replaces the policy variables of s with the request's
// values; ok is false when a variable has none (the element then
// matches nothing).
func substitute(s string, r *Request) (string, bool) {
	if !strings.Contains(s, "${") {
		return s, true
	}
	var b strings.Builder
	for {
		i := strings.Index(s, "${")
		if i < 0 {
			b.WriteString(s)
			return b.String(), true
		}
		j := strings.IndexByte(s[i:], '}')
		if j < 0 {
			b.WriteString(s)
			return b.String(), true
		}
		b.WriteString(s[:i])
		name, def, hasDef := splitVariable(s[i+2 : i+j])
		v, ok := variable(name, r)
		if !ok && hasDef {
			v, ok = def, true
		}
		if !ok {
			return "", false
		}
		b.WriteString(v)
		s = s[i+j+1:]
	}
}

// splitVariable reads the inside of ${...}: a key's name, and the
// default value after a comma in single quotes (${key, 'default'}: the
// IAM User Guide's "IAM policy elements: Variables and tags",
// "Specifying default values"), which stands for the variable when the
// request has no value for the key; spaces around the name and the
// quoted default are ignored, and two quotes in the default are one.
func splitVariable(in string) (name, def string, hasDef bool) {
	name, rest, found := strings.Cut(in, ",")
	name = strings.TrimSpace(name)
	if !found {
		return name, "", false
	}
	rest = strings.TrimSpace(rest)
	if len(rest) < 2 || rest[0] != '\'' || rest[len(rest)-1] != '\'' {
		return in, "", false // not a default: the whole text names no key
	}
	return name, strings.ReplaceAll(rest[1:len(rest)-1], "''", "'"), true
}

// variable is the value of the policy variable name for r: the
// request's single-valued key of that name, else the principal's ARN,
// user name, user id or tag.
func variable(name string, r *Request) (string, bool) {
	switch name {
	case "*":
		return "\x00star", true // an escaped star matches only itself (wildMatch)
	case "?":
		return "\x00qmark", true
	case "$":
		return "$", true
	}
	lower := strings.ToLower(name)
	if vals, ok := r.Context[lower]; ok {
		return first(vals)
	}
	p := r.Principal
	if p == nil {
		return "", false
	}
	switch lower {
	case "aws:username":
		return p.UserName, p.UserName != ""
	case "aws:userid":
		return p.UserID, p.UserID != ""
	case "aws:principalarn":
		return p.ARN, p.ARN != ""
	}
	if key, ok := strings.CutPrefix(lower, "aws:principaltag/"); ok {
		for k, v := range p.Tags {
			if strings.EqualFold(k, key) {
				return v, true
			}
		}
	}
	return "", false
}

// first is a single-valued key's value (false: not one value).
func first(vals []string) (string, bool) {
	if len(vals) != 1 {
		return "", false
	}
	return vals[0], true
}

// wildMatch reports whether s matches pattern, in which * matches any
// run of characters and ? any one; the escapes ${*} and ${?} (as
// substitute leaves them) match the character itself.
func wildMatch(pattern, s string) bool {
	pattern = strings.ReplaceAll(strings.ReplaceAll(pattern, "\x00star", "\x01"), "\x00qmark", "\x02")
	// Iterative matching with one backtrack point: linear in practice,
	// never exponential.
	p, i := 0, 0
	star, mark := -1, 0
	for i < len(s) {
		switch {
		case p < len(pattern) && pattern[p] == '*':
			star, mark = p, i
			p++
		case p < len(pattern) && (pattern[p] == '?' || lit(pattern[p]) == s[i]):
			p++
			i++
		case star >= 0:
			p = star + 1
			mark++
			i = mark
		default:
			return false
		}
	}
	for p < len(pattern) && pattern[p] == '*' {
		p++
	}
	return p == len(pattern)
}

// lit is the character a pattern byte stands for literally.
func lit(c byte) byte {
	switch c {
	case '\x01':
		return '*'
	case '\x02':
		return '?'
	}
	return c
}

// unescape turns the escapes substitute leaves for ${*} and ${?} back
// into the characters, for the operators that take no wildcards.
func unescape(s string) string {
	if !strings.Contains(s, "\x00") {
		return s
	}
	return strings.ReplaceAll(strings.ReplaceAll(s, "\x00star", "*"), "\x00qmark", "?")
}
