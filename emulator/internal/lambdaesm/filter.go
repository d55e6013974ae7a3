package lambdaesm

import (
	"encoding/json"
	"errors"
	"math"
	"strconv"
	"strings"

	"github.com/dynamoemu/dynamoemu/emulator/internal/service"
	"github.com/dynamoemu/dynamoemu/emulator/internal/streamlog"
	"github.com/dynamoemu/dynamoemu/emulator/internal/streamsapi"
)

// Lambda's event filtering (FilterCriteria): each filter's Pattern is a
// JSON object whose members name fields of the record (nested objects
// name nested fields: {"dynamodb":{"NewImage":{"status":{"S":[...]}}}})
// and whose leaves are arrays of rules, any of which may match (OR).
// Every field a pattern names must match (AND); a record that matches
// no filter of the mapping is dropped, never delivered. The rules are
// EventBridge's, as Lambda's "Lambda event filtering" page lists them:
//
//	"f": [ "s", 12, true, null ]         equals (a string, the text of a
//	                                     number, a boolean, null); "" is empty
//	"f": [ {"prefix": "us-"} ]           begins with
//	"f": [ {"suffix": ".png"} ]          ends with
//	"f": [ {"equals-ignore-case": "x"} ] equals, case folded
//	"f": [ {"anything-but": ...} ]       a value, a list, or {"prefix"|"suffix"|"equals-ignore-case": ...}
//	"f": [ {"numeric": [">", 0, "<=", 5]} ] numeric range (JSON numbers only)
//	"f": [ {"exists": true|false} ]      present, absent
//	"$or": [ pattern, pattern ]          any of several patterns
//
// Strings match character by character; numbers match by their text in
// the record as equals (300 is not 300.0), numerically with "numeric".
// A DynamoDB number is a string ({"N":"5"}), so "numeric" never matches
// it (only JSON numbers such as SizeBytes and ApproximateCreationDateTime);
// match its text with equals or prefix. A field whose value is an array
// matches when any element does.
//
// The fields a pattern may name follow the newest record of Lambda's
// "Using event filtering with a DynamoDB event source" (2026, the copy
// with the corrected example record and the note "DynamoDB event source
// mappings only support filtering on the dynamodb key"): dynamodb is the
// record's one data key (as body is SQS's, data Kinesis's), and "Control
// which events Lambda sends to your function" keeps the metadata fields
// (eventName, eventID, awsRegion, ...) filterable, as AWS's CDK examples
// filter DynamoDB records on eventName. A pattern naming a field no
// DynamoDB record has (body, data) is taken: the field is absent, so only
// {"exists": false} matches it, as for any absent field; no record says
// Lambda refuses such a pattern.

// A record is matched in place: its fields as streamsapi.RecordFields
// reads them from the stream's record and stored images (the record is
// written as JSON only when a filter lets it through), plus the
// eventSourceARN Lambda adds (eventRecord).
type (
	node   = streamsapi.Field
	object = streamsapi.Object
)

// eventRecord is a record's fields and its eventSourceARN.
type eventRecord struct {
	streamsapi.Object
	arn string
}

func (e eventRecord) Field(name string) node {
	if name == "eventSourceARN" {
		return streamsapi.StringField(e.arn)
	}
	return e.Object.Field(name)
}

// recordView is the record r of s as a filter sees it.
func recordView(s service.Stream, r *streamlog.Record) object {
	return eventRecord{streamsapi.RecordFields(s, r), s.ARN()}
}

// errPattern is an invalid filter pattern.
var errPattern = errors.New("invalid filter pattern definition")

// pattern is one parsed filter.
type pattern struct {
	fields []fieldRule // AND
	ors    [][]*pattern
}

// fieldRule is a pattern's rule on one member: a nested pattern, or a
// list of value rules (OR).
type fieldRule struct {
	name   string
	nested *pattern
	rules  []valueRule
}

type ruleKind uint8

const (
	ruleEquals ruleKind = iota // lit: a string, the text of a number, a boolean or null
	rulePrefix
	ruleSuffix
	ruleEqualsFold
	ruleAnythingBut // lits: JSON texts; or sub (a prefix/suffix/fold rule)
	ruleNumeric
	ruleExists
)

type valueRule struct {
	kind   ruleKind
	lit    node   // equals: the value
	str    string // prefix/suffix/fold: the string
	lits   []node // anything-but: the values
	sub    *valueRule
	ranges []numCmp
	exists bool
}

type numCmp struct {
	op string
	v  float64
}

// maxPatternDepth bounds a pattern's nesting.
const maxPatternDepth = 32

// parsePattern parses one filter's Pattern.
func parsePattern(text string) (*pattern, error) {
	d := json.NewDecoder(strings.NewReader(text))
	d.UseNumber()
	var v any
	if err := d.Decode(&v); err != nil {
		return nil, errPattern
	}
	if d.More() {
		return nil, errPattern
	}
	obj, ok := v.(map[string]any)
	if !ok {
		return nil, errPattern
	}
	return parseObject(obj, 0)
}

func parseObject(obj map[string]any, depth int) (*pattern, error) {
	if depth > maxPatternDepth || len(obj) == 0 {
		return nil, errPattern
	}
	p := &pattern{}
	for _, name := range sortedKeys(obj) {
		v := obj[name]
		if name == "$or" {
			list, ok := v.([]any)
			if !ok || len(list) < 2 {
				return nil, errPattern
			}
			var alts []*pattern
			for _, e := range list {
				o, ok := e.(map[string]any)
				if !ok {
					return nil, errPattern
				}
				sub, err := parseObject(o, depth+1)
				if err != nil {
					return nil, err
				}
				alts = append(alts, sub)
			}
			p.ors = append(p.ors, alts)
			continue
		}
		switch x := v.(type) {
		case map[string]any:
			sub, err := parseObject(x, depth+1)
			if err != nil {
				return nil, err
			}
			p.fields = append(p.fields, fieldRule{name: name, nested: sub})
		case []any:
			if len(x) == 0 {
				return nil, errPattern
			}
			fr := fieldRule{name: name}
			for _, e := range x {
				r, err := parseRule(e)
				if err != nil {
					return nil, err
				}
				fr.rules = append(fr.rules, r)
			}
			p.fields = append(p.fields, fr)
		default:
			return nil, errPattern // a leaf must be an array of rules
		}
	}
	return p, nil
}

// literal returns a scalar pattern value as the node it equals.
func literal(v any) (node, bool) {
	switch x := v.(type) {
	case nil:
		return node{Kind: streamsapi.FieldNull, Text: "null"}, true
	case bool:
		return streamsapi.BoolField(x), true
	case json.Number:
		return streamsapi.NumberField(string(x)), true
	case string:
		return streamsapi.StringField(x), true
	}
	return node{}, false
}

func parseRule(v any) (valueRule, error) {
	if lit, ok := literal(v); ok {
		return valueRule{kind: ruleEquals, lit: lit}, nil
	}
	obj, ok := v.(map[string]any)
	if !ok || len(obj) != 1 {
		return valueRule{}, errPattern
	}
	for op, arg := range obj {
		switch op {
		case "prefix", "suffix", "equals-ignore-case":
			s, ok := arg.(string)
			if !ok {
				return valueRule{}, errPattern
			}
			k := map[string]ruleKind{"prefix": rulePrefix, "suffix": ruleSuffix, "equals-ignore-case": ruleEqualsFold}[op]
			return valueRule{kind: k, str: s}, nil
		case "exists":
			b, ok := arg.(bool)
			if !ok {
				return valueRule{}, errPattern
			}
			return valueRule{kind: ruleExists, exists: b}, nil
		case "anything-but":
			return parseAnythingBut(arg)
		case "numeric":
			return parseNumeric(arg)
		}
	}
	return valueRule{}, errPattern
}

// parseAnythingBut parses the argument of an anything-but rule: a
// literal, a list of them, or a prefix, suffix or equals-ignore-case
// rule.
func parseAnythingBut(arg any) (valueRule, error) {
	r := valueRule{kind: ruleAnythingBut}
	switch x := arg.(type) {
	case []any:
		if len(x) == 0 {
			return valueRule{}, errPattern
		}
		for _, e := range x {
			lit, ok := literal(e)
			if !ok || e == nil {
				return valueRule{}, errPattern
			}
			r.lits = append(r.lits, lit)
		}
	case map[string]any:
		sub, err := parseRule(x)
		if err != nil || (sub.kind != rulePrefix && sub.kind != ruleSuffix && sub.kind != ruleEqualsFold) {
			return valueRule{}, errPattern
		}
		r.sub = &sub
	default:
		lit, ok := literal(x)
		if !ok || x == nil {
			return valueRule{}, errPattern
		}
		r.lits = []node{lit}
	}
	return r, nil
}

// parseNumeric parses the argument of a numeric rule: one or two
// comparisons, each an operator and a finite number.
func parseNumeric(arg any) (valueRule, error) {
	list, ok := arg.([]any)
	if !ok || len(list) == 0 || len(list)%2 != 0 || len(list) > 4 {
		return valueRule{}, errPattern
	}
	r := valueRule{kind: ruleNumeric}
	for i := 0; i < len(list); i += 2 {
		op, ok1 := list[i].(string)
		n, ok2 := list[i+1].(json.Number)
		if !ok1 || !ok2 {
			return valueRule{}, errPattern
		}
		f, err := n.Float64()
		if err != nil || math.IsInf(f, 0) {
			return valueRule{}, errPattern
		}
		switch op {
		case "=", "<", "<=", ">", ">=":
		default:
			return valueRule{}, errPattern
		}
		r.ranges = append(r.ranges, numCmp{op: op, v: f})
	}
	return r, nil
}

// match reports whether the object o (nil: absent, or not an object)
// matches p.
func (p *pattern) match(o object) bool {
	for i := range p.fields {
		f := &p.fields[i]
		var v node
		if o != nil {
			v = o.Field(f.name)
		}
		if f.nested != nil {
			if !f.nested.match(v.Obj) { // absent (or a leaf): only exists:false can match below
				return false
			}
			continue
		}
		if !matchRules(f.rules, v) {
			return false
		}
	}
	for _, alts := range p.ors {
		any := false
		for _, a := range alts {
			if a.match(o) {
				any = true
				break
			}
		}
		if !any {
			return false
		}
	}
	return true
}

// matchRules reports whether any of rules matches the value v. A list
// matches when any element does.
func matchRules(rules []valueRule, v node) bool {
	for i := range rules {
		r := &rules[i]
		if r.kind == ruleExists {
			if r.exists == (v.Kind != streamsapi.FieldAbsent && v.Kind != streamsapi.FieldObject) {
				return true
			}
			continue
		}
		switch v.Kind {
		case streamsapi.FieldAbsent:
			continue
		case streamsapi.FieldList:
			for _, e := range v.List {
				if r.matchValue(e) {
					return true
				}
			}
			continue
		}
		if r.matchValue(v) {
			return true
		}
	}
	return false
}

// matchValue matches one value of the record: a scalar (an object or a
// list matches no value rule).
func (r *valueRule) matchValue(v node) bool {
	if !v.Scalar() {
		return false
	}
	isStr := v.Kind == streamsapi.FieldString
	switch r.kind {
	case ruleEquals:
		return r.lit.Equal(v)
	case rulePrefix:
		return isStr && strings.HasPrefix(v.Text, r.str)
	case ruleSuffix:
		return isStr && strings.HasSuffix(v.Text, r.str)
	case ruleEqualsFold:
		return isStr && strings.EqualFold(v.Text, r.str)
	case ruleAnythingBut:
		if r.sub != nil {
			return isStr && !r.sub.matchValue(v)
		}
		for _, l := range r.lits {
			if l.Equal(v) {
				return false
			}
		}
		return true
	case ruleNumeric:
		if v.Kind != streamsapi.FieldNumber {
			return false
		}
		f, err := strconv.ParseFloat(v.Text, 64)
		if err != nil {
			return false
		}
		for _, c := range r.ranges {
			var ok bool
			switch c.op {
			case "=":
				ok = f == c.v
			case "<":
				ok = f < c.v
			case "<=":
				ok = f <= c.v
			case ">":
				ok = f > c.v
			case ">=":
				ok = f >= c.v
			}
			if !ok {
				return false
			}
		}
		return true
	}
	return false
}

// filterSet is a mapping's filters: a record passes when it matches
// any (no filters: every record passes).
type filterSet []*pattern

// parseFilters parses a FilterCriteria's patterns.
func parseFilters(fc *FilterCriteria) (filterSet, error) {
	if fc == nil {
		return nil, nil
	}
	var out filterSet
	for _, f := range fc.Filters {
		if f.Pattern == nil {
			return nil, errPattern
		}
		p, err := parsePattern(*f.Pattern)
		if err != nil {
			return nil, err
		}
		out = append(out, p)
	}
	return out, nil
}

// pass reports whether the record o passes the filters.
func (fs filterSet) pass(o object) bool {
	if len(fs) == 0 {
		return true
	}
	for _, p := range fs {
		if p.match(o) {
			return true
		}
	}
	return false
}

func sortedKeys(m map[string]any) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	for i := 1; i < len(keys); i++ {
		for j := i; j > 0 && keys[j] < keys[j-1]; j-- {
			keys[j], keys[j-1] = keys[j-1], keys[j]
		}
	}
	return keys
}
