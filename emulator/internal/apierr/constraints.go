package apierr

import (
	"iter"
	"slices"
	"strconv"
	"strings"
)

// Constraints collects AWS's model-level ("Coral") constraint violations of
// one request, which AWS reports together before any semantic check:
//
//	2 validation errors detected: Value null at 'keySchema' failed to
//	satisfy constraint: Member must not be null; Value 'X' at ...
//
// Paths use AWS's lower-camel member names with 1-based list positions
// ("attributeDefinitions.1.member.attributeType"). Like AWS, at most
// maxConstraintErrors are reported.
type Constraints struct {
	Msgs []string
	// long is the violation Msgs[longAt] ("" there) stands for when it
	// was given in pieces (AddLong).
	long   iter.Seq[string]
	longAt int
}

const MaxConstraintErrors = 10

// Violation is the one place a constraint violation's text is built, as
// AWS words it: "Value <value> at '<path>' failed to satisfy constraint:
// <constraint>". value is rendered already (Quote, QuoteInt, ListValue,
// "null"), or "" for the answers in which AWS echoes no value ("Value at
// 'Limit' failed to satisfy ...").
func Violation(value, path, constraint string) string {
	if value == "" {
		return "Value at '" + path + "' failed to satisfy constraint: " + constraint
	}
	return "Value " + value + " at '" + path + "' failed to satisfy constraint: " + constraint
}

// Add records that value (rendered as Violation says) at path fails
// constraint.
func (cs *Constraints) Add(value, path, constraint string) {
	cs.AddViolation(Violation(value, path, constraint))
}

// AddViolation records a violation built by Violation (or one of the
// helpers below); "" is none.
func (cs *Constraints) AddViolation(v string) {
	if v == "" || len(cs.Msgs) >= MaxConstraintErrors {
		return
	}
	cs.Msgs = append(cs.Msgs, v)
}

// AddLong records a violation given in pieces (a Violation's text
// joined), one too large to copy: AWS's echo of every element of a list
// far over its limit; nil is none. The error Err returns then has its
// message in pieces too (Error.Long), written once, into the answer's
// body. A second one is joined here.
func (cs *Constraints) AddLong(v iter.Seq[string]) {
	if v == nil || len(cs.Msgs) >= MaxConstraintErrors {
		return
	}
	if cs.long != nil {
		cs.AddViolation(join(v))
		return
	}
	cs.long, cs.longAt = v, len(cs.Msgs)
	cs.Msgs = append(cs.Msgs, "")
}

// join is the text of pieces.
func join(pieces iter.Seq[string]) string {
	var b strings.Builder
	for p := range pieces {
		b.WriteString(p)
	}
	return b.String()
}

// ConstraintErrors is the ValidationException of violations (the helpers'
// texts; "" are skipped), or nil when there are none. A request without
// violations allocates nothing.
func ConstraintErrors(violations ...string) error {
	var cs Constraints
	for _, v := range violations {
		cs.AddViolation(v)
	}
	return cs.Err()
}

// Err returns the ValidationException for the collected violations, or
// nil: "1 validation error detected: ..." or "N validation errors
// detected: ...; ...", the one place that message is built.
func (cs *Constraints) Err() error {
	if cs.long != nil {
		t := &longMessage{msgs: cs.Msgs, long: cs.long, at: cs.longAt} // not cs, which would escape in every caller
		return &Error{Class: ErrValidation, Long: t.pieces}
	}
	switch len(cs.Msgs) {
	case 0:
		return nil
	case 1:
		return Validation("1 validation error detected: " + cs.Msgs[0])
	}
	return Validation(strconv.Itoa(len(cs.Msgs)) + " validation errors detected: " + strings.Join(cs.Msgs, "; "))
}

// longMessage is Err's message with a violation given in pieces: msgs
// with msgs[at] the pieces of long.
type longMessage struct {
	msgs []string
	long iter.Seq[string]
	at   int
}

// pieces yields the message, as Err words it.
func (m *longMessage) pieces(yield func(string) bool) {
	if len(m.msgs) == 1 {
		if yield("1 validation error detected: ") {
			m.long(yield)
		}
		return
	}
	if !yield(strconv.Itoa(len(m.msgs)) + " validation errors detected: ") {
		return
	}
	for i, v := range m.msgs {
		if i > 0 && !yield("; ") {
			return
		}
		if i != m.at {
			if !yield(v) {
				return
			}
			continue
		}
		for p := range m.long {
			if !yield(p) {
				return
			}
		}
	}
}

// Constraint texts, as AWS words them.
const (
	MemberNotNull = "Member must not be null"
)

// EnumConstraint is the enum constraint of the value set set, listed as AWS lists
// it ("A, B, C").
func EnumConstraint(set string) string { return "Member must satisfy enum value set: [" + set + "]" }

func LenGE(n int) string {
	return "Member must have length greater than or equal to " + strconv.Itoa(n)
}
func LenLE(n int) string { return "Member must have length less than or equal to " + strconv.Itoa(n) }
func ValGE(n int64) string {
	return "Member must have value greater than or equal to " + strconv.FormatInt(n, 10)
}
func ValLE(n int64) string {
	return "Member must have value less than or equal to " + strconv.FormatInt(n, 10)
}

const NamePatternConstraint = "Member must satisfy regular expression pattern: [a-zA-Z0-9_.-]+"

func Quote(s string) string { return "'" + s + "'" }

func QuoteInt(n int64) string { return "'" + strconv.FormatInt(n, 10) + "'" }

// ARN checks a required ARN member (a backup's, an export's, a stream's,
// ...): AWS's models bound its length to 37..1024.
func ARN(cs *Constraints, arn *string, path string) {
	if !NotNull(cs, arn, path) {
		return
	}
	if n := len(*arn); n < 37 {
		cs.Add(Quote(*arn), path, LenGE(37))
	} else if n > 1024 {
		cs.Add(Quote(*arn), path, LenLE(1024))
	}
}

// NotNull records a violation when p is nil and reports whether p is set.
func NotNull[T any](cs *Constraints, p *T, path string) bool {
	cs.AddViolation(NullViolation(path, p == nil))
	return p != nil
}

// NullViolation is the violation of a required member that is absent, or "".
func NullViolation(path string, missing bool) string {
	if !missing {
		return ""
	}
	return Violation("null", path, MemberNotNull)
}

// EmptyListViolation is the violation of a list given with no members
// where AWS's model asks for at least one, or "".
func EmptyListViolation[T any](path string, list []T) string {
	return EmptyLenViolation(path, list != nil, len(list))
}

// EmptyLenViolation is EmptyListViolation for a list given (or not)
// with n elements.
func EmptyLenViolation(path string, given bool, n int) string {
	if !given || n > 0 {
		return ""
	}
	return Violation("'[]'", path, LenGE(1))
}

// Enum records a violation when *p is set and not one of values. The
// enum value set's text is built only for a violation: a valid request
// allocates nothing here.
func Enum(cs *Constraints, p *string, path string, values ...string) {
	if p == nil || slices.Contains(values, *p) {
		return
	}
	cs.AddViolation(Violation(Quote(*p), path, EnumConstraint(strings.Join(values, ", "))))
}

// EnumPtrViolation is the violation of *p, the member at path, outside
// its enum value set set ("A, B, C", in AWS's order), or "" when p is nil
// (absent) or *p in the set ("" is a value, outside every set).
func EnumPtrViolation(path string, p *string, set string) string {
	if p == nil || enumContains(set, *p) {
		return ""
	}
	return Violation(Quote(*p), path, EnumConstraint(set))
}

// EnumViolation is EnumPtrViolation for a member decoded as a string, in
// which "" means absent.
func EnumViolation(path, value, set string) string {
	if value == "" {
		return ""
	}
	return EnumPtrViolation(path, &value, set)
}

// EnumContains reports whether set ("A, B, C", as EnumConstraint takes
// it) holds value.
func EnumContains(set, value string) bool { return enumContains(set, value) }

// enumContains reports whether set ("A, B, C") holds value.
func enumContains(set, value string) bool {
	for len(set) > 0 {
		i := 0
		for i < len(set) && set[i] != ',' {
			i++
		}
		if set[:i] == value {
			return true
		}
		set = set[min(i+2, len(set)):] // skip ", "
	}
	return false
}

// LimitViolation is the violation of a Limit member (at path) outside
// 1..max (max 0: no upper bound), or "". AWS echoes the value, except in
// Query's answer (echo false): "Value at 'Limit' failed to satisfy
// constraint: Member must have value greater than or equal to 1" (AWS's
// recorded answer; Scan says "Value '0' at 'limit'").
func LimitViolation(limit *int64, path string, max int64, echo bool) string {
	if limit == nil {
		return ""
	}
	value := ""
	if echo {
		value = QuoteInt(*limit)
	}
	switch {
	case *limit < 1:
		return Violation(value, path, ValGE(1))
	case max > 0 && *limit > max:
		return Violation(value, path, ValLE(max))
	}
	return ""
}

// maxResourceARNLen is the longest ResourceArn of AWS's model.
const maxResourceARNLen = 1283

// ResourceARNConstraints checks a ResourceArn member (the tagging
// operations', the resource policies'): 1 to 1283 characters.
func ResourceARNConstraints(cs *Constraints, arn string) {
	if len(arn) < 1 {
		cs.Add(Quote(arn), "resourceArn", LenGE(1))
	}
	if len(arn) > maxResourceARNLen {
		cs.Add(Quote(arn), "resourceArn", LenLE(maxResourceARNLen))
	}
}

// NameConstraints checks an index name (or ExclusiveStartTableName):
// pattern, then length 3..255, as AWS lists them.
func NameConstraints(cs *Constraints, s string, path string) {
	if !namePattern(s) {
		cs.Add(Quote(s), path, NamePatternConstraint)
	}
	if len(s) < 3 {
		cs.Add(Quote(s), path, LenGE(3))
	}
	if len(s) > 255 {
		cs.Add(Quote(s), path, LenLE(255))
	}
}

// namePattern reports whether s matches [a-zA-Z0-9_.-]+.
func namePattern(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		if !NameChar(s[i]) {
			return false
		}
	}
	return true
}

// ListValue renders a list the way AWS's messages show it: "[a, b]".
func ListValue(items []string) string { return "'[" + strings.Join(items, ", ") + "]'" }

// NameChar reports whether b may appear in a table or index name.
func NameChar(b byte) bool {
	return 'a' <= b && b <= 'z' || 'A' <= b && b <= 'Z' || '0' <= b && b <= '9' ||
		b == '_' || b == '.' || b == '-'
}
