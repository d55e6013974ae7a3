package iampolicy

import (
	"encoding/json"
	"errors"
	"fmt"
	"net/netip"
	"strings"
)

// Sentinel errors of Parse, each wrapped with where it was found.
var (
	// ErrSyntax: the document is not a JSON policy of the grammar.
	ErrSyntax = errors.New("policy syntax")
	// ErrUnsupported: the document uses an element or operator the
	// evaluator does not hold.
	ErrUnsupported = errors.New("unsupported in policy")
)

// maxDocument bounds the documents Parse reads: IAM's largest inline
// policy is 10,240 characters, a DynamoDB resource policy 20 KB; 64 KB
// leaves room for a test's hand-written file.
const maxDocument = 64 << 10

// Policy is a parsed policy document.
type Policy struct {
	Statements []Statement
}

// Statement is one statement of a policy.
type Statement struct {
	Sid   string
	Allow bool // Effect: Allow (false: Deny)
	// Principals are the principals a resource policy's statement names
	// ("*": anyone; an account id or its root ARN: anyone of that
	// account); nil in an identity policy.
	Principals []string
	// Actions match the action (NotAction: every action but these).
	Actions   []string
	NotAction bool
	// Resources match the resource (NotResource: every resource but
	// these); policy variables are replaced before matching.
	Resources   []string
	NotResource bool
	Conditions  []Condition
}

// Condition is one key of one operator of a statement's Condition
// block: all of a statement's conditions must hold.
type Condition struct {
	Op       string // the base operator, as IAM spells it ("StringLike")
	Set      SetOp  // ForAllValues:, ForAnyValue: or none
	IfExists bool
	Key      string   // the condition key, lower case
	Name     string   // the condition key as the policy spells it
	Values   []string // any of which may match
}

// SetOp is a condition's set qualifier.
type SetOp uint8

// Set qualifiers.
const (
	SetNone SetOp = iota
	ForAllValues
	ForAnyValue
)

// operator is the spelling of a base operator held, given its lower
// case ("": not held).
func operator(lower string) string {
	switch lower {
	case "stringequals":
		return "StringEquals"
	case "stringnotequals":
		return "StringNotEquals"
	case "stringequalsignorecase":
		return "StringEqualsIgnoreCase"
	case "stringnotequalsignorecase":
		return "StringNotEqualsIgnoreCase"
	case "stringlike":
		return "StringLike"
	case "stringnotlike":
		return "StringNotLike"
	case "bool":
		return "Bool"
	case "null":
		return "Null"
	case "ipaddress":
		return "IpAddress"
	case "notipaddress":
		return "NotIpAddress"
	}
	return ""
}

// Parse reads a policy document.
func Parse(doc []byte) (*Policy, error) {
	if len(doc) > maxDocument {
		return nil, fmt.Errorf("%w: document of %d bytes, more than %d", ErrSyntax, len(doc), maxDocument)
	}
	var raw struct {
		Version   string          `json:"Version"`
		Statement json.RawMessage `json:"Statement"`
	}
	if err := json.Unmarshal(doc, &raw); err != nil {
		return nil, fmt.Errorf("%w: %v", ErrSyntax, err)
	}
	if raw.Statement == nil {
		return nil, fmt.Errorf("%w: no Statement", ErrSyntax)
	}
	var list []json.RawMessage
	if err := json.Unmarshal(raw.Statement, &list); err != nil {
		list = []json.RawMessage{raw.Statement} // a single statement object
	}
	p := &Policy{Statements: make([]Statement, 0, len(list))}
	for i, r := range list {
		s, err := parseStatement(r)
		if err != nil {
			return nil, fmt.Errorf("statement %d: %w", i+1, err)
		}
		p.Statements = append(p.Statements, s)
	}
	return p, nil
}

// rawStatement is a statement as JSON has it.
type rawStatement struct {
	Sid          string                                `json:"Sid"`
	Effect       string                                `json:"Effect"`
	Principal    json.RawMessage                       `json:"Principal"`
	NotPrincipal json.RawMessage                       `json:"NotPrincipal"`
	Action       json.RawMessage                       `json:"Action"`
	NotAction    json.RawMessage                       `json:"NotAction"`
	Resource     json.RawMessage                       `json:"Resource"`
	NotResource  json.RawMessage                       `json:"NotResource"`
	Condition    map[string]map[string]json.RawMessage `json:"Condition"`
}

func parseStatement(r json.RawMessage) (Statement, error) {
	var rs rawStatement
	if err := json.Unmarshal(r, &rs); err != nil {
		return Statement{}, fmt.Errorf("%w: %v", ErrSyntax, err)
	}
	s := Statement{Sid: rs.Sid}
	switch rs.Effect {
	case "Allow":
		s.Allow = true
	case "Deny":
	default:
		return s, fmt.Errorf("%w: Effect %q is neither Allow nor Deny", ErrSyntax, rs.Effect)
	}
	if rs.NotPrincipal != nil {
		return s, fmt.Errorf("%w: NotPrincipal", ErrUnsupported)
	}
	if rs.Principal != nil {
		ps, err := parsePrincipal(rs.Principal)
		if err != nil {
			return s, err
		}
		s.Principals = ps
	}
	var err error
	if s.Actions, s.NotAction, err = either(rs.Action, rs.NotAction, "Action"); err != nil {
		return s, err
	}
	if s.Resources, s.NotResource, err = either(rs.Resource, rs.NotResource, "Resource"); err != nil {
		return s, err
	}
	for op, keys := range rs.Condition {
		for key, vals := range keys {
			c, err := parseCondition(op, key, vals)
			if err != nil {
				return s, err
			}
			s.Conditions = append(s.Conditions, c)
		}
	}
	return s, nil
}

// either reads an element that comes as name or as Not+name, exactly
// one of them.
func either(pos, neg json.RawMessage, name string) ([]string, bool, error) {
	switch {
	case pos != nil && neg != nil:
		return nil, false, fmt.Errorf("%w: both %s and Not%s", ErrSyntax, name, name)
	case pos == nil && neg == nil:
		return nil, false, fmt.Errorf("%w: no %s", ErrSyntax, name)
	case neg != nil:
		v, err := stringList(neg, "Not"+name)
		return v, true, err
	}
	v, err := stringList(pos, name)
	return v, false, err
}

// parsePrincipal reads "*" or {"AWS": one or a list}.
func parsePrincipal(r json.RawMessage) ([]string, error) {
	var star string
	if json.Unmarshal(r, &star) == nil {
		if star != "*" {
			return nil, fmt.Errorf("%w: Principal %q is not \"*\" or an object", ErrSyntax, star)
		}
		return []string{"*"}, nil
	}
	var m map[string]json.RawMessage
	if err := json.Unmarshal(r, &m); err != nil {
		return nil, fmt.Errorf("%w: Principal: %v", ErrSyntax, err)
	}
	var out []string
	for k, v := range m {
		if k != "AWS" {
			return nil, fmt.Errorf("%w: Principal %q (only AWS principals)", ErrUnsupported, k)
		}
		l, err := stringList(v, "Principal")
		if err != nil {
			return nil, err
		}
		out = append(out, l...)
	}
	return out, nil
}

// stringList reads a string or a non-empty list of strings.
func stringList(r json.RawMessage, name string) ([]string, error) {
	var one string
	if json.Unmarshal(r, &one) == nil {
		return []string{one}, nil
	}
	var l []string
	if err := json.Unmarshal(r, &l); err != nil || len(l) == 0 {
		return nil, fmt.Errorf("%w: %s is not a string or a list of strings", ErrSyntax, name)
	}
	return l, nil
}

// parseCondition reads one key of an operator's block: its values are
// a scalar or a list of scalars (strings, booleans, numbers).
func parseCondition(op, key string, vals json.RawMessage) (Condition, error) {
	c := Condition{Key: strings.ToLower(key), Name: key}
	name := op
	if q, rest, ok := strings.Cut(op, ":"); ok {
		switch strings.ToLower(q) {
		case "forallvalues":
			c.Set = ForAllValues
		case "foranyvalue":
			c.Set = ForAnyValue
		default:
			return c, fmt.Errorf("%w: condition operator %q", ErrUnsupported, op)
		}
		name = rest
	}
	lower := strings.ToLower(name)
	if base, ok := strings.CutSuffix(lower, "ifexists"); ok {
		c.IfExists, lower = true, base
	}
	spelt := operator(lower)
	if spelt == "" {
		return c, fmt.Errorf("%w: condition operator %q", ErrUnsupported, op)
	}
	c.Op = spelt
	var list []json.RawMessage
	if err := json.Unmarshal(vals, &list); err != nil {
		list = []json.RawMessage{vals}
	}
	if len(list) == 0 {
		return c, fmt.Errorf("%w: %s %s has no values", ErrSyntax, op, key)
	}
	for _, v := range list {
		var x any
		if err := json.Unmarshal(v, &x); err != nil {
			return c, fmt.Errorf("%w: %s %s: %v", ErrSyntax, op, key, err)
		}
		switch x := x.(type) {
		case string:
			c.Values = append(c.Values, x)
		case bool:
			c.Values = append(c.Values, fmt.Sprint(x))
		case float64:
			c.Values = append(c.Values, string(v))
		default:
			return c, fmt.Errorf("%w: %s %s: a value is not a string, boolean or number", ErrSyntax, op, key)
		}
	}
	if c.Op == "IpAddress" || c.Op == "NotIpAddress" {
		for _, v := range c.Values {
			if _, err := netip.ParsePrefix(v); err != nil && !validAddr(v) {
				return c, fmt.Errorf("%w: %s %s: %q is not an IP address or CIDR block", ErrSyntax, op, key, v)
			}
		}
	}
	if c.Op == "Null" || c.Op == "Bool" {
		for _, v := range c.Values {
			if v != "true" && v != "false" {
				return c, fmt.Errorf("%w: %s %s: %q is not true or false", ErrSyntax, op, key, v)
			}
		}
	}
	return c, nil
}

// validAddr reports whether s is an IP address.
func validAddr(s string) bool {
	_, err := netip.ParseAddr(s)
	return err == nil
}

// Keys are the condition keys the policy's conditions name and the
// policy variables (${KEY}) its Resource elements and condition values
// use, each once, as the policy spells them first: what a request must
// give for the policy to be evaluated as written.
func (p *Policy) Keys() []string {
	var out []string
	seen := map[string]bool{}
	add := func(k string) {
		if l := strings.ToLower(k); !seen[l] {
			seen[l] = true
			out = append(out, k)
		}
	}
	for i := range p.Statements {
		s := &p.Statements[i]
		for _, r := range s.Resources {
			variables(r, add)
		}
		for _, c := range s.Conditions {
			add(c.Name)
			for _, v := range c.Values {
				variables(v, add)
			}
		}
	}
	return out
}

// variables calls f with the name of each policy variable of s but the
// escapes ${*}, ${?} and ${$}.
func variables(s string, f func(string)) {
	for {
		i := strings.Index(s, "${")
		if i < 0 {
			return
		}
		j := strings.IndexByte(s[i:], '}')
		if j < 0 {
			return
		}
		if name, _, _ := splitVariable(s[i+2 : i+j]); name != "*" && name != "?" && name != "$" {
			f(name)
		}
		s = s[i+j+1:]
	}
}
