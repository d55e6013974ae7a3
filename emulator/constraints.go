package emulator

import (
	"strconv"
	"strings"
)

// constraints collects AWS's model-level ("Coral") constraint violations of
// one request, which AWS reports together before any semantic check:
//
//	2 validation errors detected: Value null at 'keySchema' failed to
//	satisfy constraint: Member must not be null; Value 'X' at ...
//
// Paths use AWS's lower-camel member names with 1-based list positions
// ("attributeDefinitions.1.member.attributeType"). Like AWS, at most
// maxConstraintErrors are reported.
type constraints struct {
	msgs []string
}

const maxConstraintErrors = 10

// violation is the one place a constraint violation's text is built, as
// AWS words it: "Value <value> at '<path>' failed to satisfy constraint:
// <constraint>". value is rendered already (quote, quoteInt, listValue,
// "null"), or "" for the answers in which AWS echoes no value ("Value at
// 'Limit' failed to satisfy ...").
func violation(value, path, constraint string) string {
	if value == "" {
		return "Value at '" + path + "' failed to satisfy constraint: " + constraint
	}
	return "Value " + value + " at '" + path + "' failed to satisfy constraint: " + constraint
}

// add records that value (rendered as violation says) at path fails
// constraint.
func (cs *constraints) add(value, path, constraint string) {
	cs.addViolation(violation(value, path, constraint))
}

// addViolation records a violation built by violation (or one of the
// helpers below); "" is none.
func (cs *constraints) addViolation(v string) {
	if v == "" || len(cs.msgs) >= maxConstraintErrors {
		return
	}
	cs.msgs = append(cs.msgs, v)
}

// constraintErrors is the ValidationException of violations (the helpers'
// texts; "" are skipped), or nil when there are none. A request without
// violations allocates nothing.
func constraintErrors(violations ...string) error {
	var cs constraints
	for _, v := range violations {
		cs.addViolation(v)
	}
	return cs.err()
}

// err returns the ValidationException for the collected violations, or
// nil: "1 validation error detected: ..." or "N validation errors
// detected: ...; ...", the one place that message is built.
func (cs *constraints) err() error {
	switch len(cs.msgs) {
	case 0:
		return nil
	case 1:
		return errValidation("1 validation error detected: " + cs.msgs[0])
	}
	return errValidation(strconv.Itoa(len(cs.msgs)) + " validation errors detected: " + strings.Join(cs.msgs, "; "))
}

// Constraint texts, as AWS words them.
const (
	cNotNull = "Member must not be null"
)

// cEnum is the enum constraint of the value set set, listed as AWS lists
// it ("A, B, C").
func cEnum(set string) string { return "Member must satisfy enum value set: [" + set + "]" }

func cLenGE(n int) string {
	return "Member must have length greater than or equal to " + strconv.Itoa(n)
}
func cLenLE(n int) string { return "Member must have length less than or equal to " + strconv.Itoa(n) }
func cValGE(n int64) string {
	return "Member must have value greater than or equal to " + strconv.FormatInt(n, 10)
}
func cValLE(n int64) string {
	return "Member must have value less than or equal to " + strconv.FormatInt(n, 10)
}

const cNamePattern = "Member must satisfy regular expression pattern: [a-zA-Z0-9_.-]+"

func quote(s string) string { return "'" + s + "'" }

func quoteInt(n int64) string { return "'" + strconv.FormatInt(n, 10) + "'" }

// notNull records a violation when p is nil and reports whether p is set.
func notNull[T any](cs *constraints, p *T, path string) bool {
	cs.addViolation(nullViolation(path, p == nil))
	return p != nil
}

// nullViolation is the violation of a required member that is absent, or "".
func nullViolation(path string, missing bool) string {
	if !missing {
		return ""
	}
	return violation("null", path, cNotNull)
}

// emptyListViolation is the violation of a list given with no members
// where AWS's model asks for at least one, or "".
func emptyListViolation[T any](path string, list []T) string {
	if list == nil || len(list) > 0 {
		return ""
	}
	return violation("'[]'", path, cLenGE(1))
}

// enum records a violation when *p is set and not one of values.
func enum(cs *constraints, p *string, path string, values ...string) {
	cs.addViolation(enumPtrViolation(path, p, strings.Join(values, ", ")))
}

// enumPtrViolation is the violation of *p, the member at path, outside
// its enum value set set ("A, B, C", in AWS's order), or "" when p is nil
// (absent) or *p in the set ("" is a value, outside every set).
func enumPtrViolation(path string, p *string, set string) string {
	if p == nil || enumContains(set, *p) {
		return ""
	}
	return violation(quote(*p), path, cEnum(set))
}

// enumViolation is enumPtrViolation for a member decoded as a string, in
// which "" means absent.
func enumViolation(path, value, set string) string {
	if value == "" {
		return ""
	}
	return enumPtrViolation(path, &value, set)
}

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

// limitViolation is the violation of a Limit member (at path) outside
// 1..max (max 0: no upper bound), or "". AWS echoes the value, except in
// Query's answer (echo false): "Value at 'Limit' failed to satisfy
// constraint: Member must have value greater than or equal to 1" (AWS's
// recorded answer; Scan says "Value '0' at 'limit'").
func limitViolation(limit *int64, path string, max int64, echo bool) string {
	if limit == nil {
		return ""
	}
	value := ""
	if echo {
		value = quoteInt(*limit)
	}
	switch {
	case *limit < 1:
		return violation(value, path, cValGE(1))
	case max > 0 && *limit > max:
		return violation(value, path, cValLE(max))
	}
	return ""
}

// nameConstraints checks an index name (or ExclusiveStartTableName):
// pattern, then length 3..255, as AWS lists them.
func nameConstraints(cs *constraints, s string, path string) {
	if !namePattern(s) {
		cs.add(quote(s), path, cNamePattern)
	}
	if len(s) < 3 {
		cs.add(quote(s), path, cLenGE(3))
	}
	if len(s) > 255 {
		cs.add(quote(s), path, cLenLE(255))
	}
}

// namePattern reports whether s matches [a-zA-Z0-9_.-]+.
func namePattern(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		if !nameChar(s[i]) {
			return false
		}
	}
	return true
}

// listValue renders a list the way AWS's messages show it: "[a, b]".
func listValue(items []string) string { return "'[" + strings.Join(items, ", ") + "]'" }
