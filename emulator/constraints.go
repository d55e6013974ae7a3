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

// add records that value (already rendered by quoteValue or "null") at path
// fails constraint.
func (cs *constraints) add(value, path, constraint string) {
	if len(cs.msgs) >= maxConstraintErrors {
		return
	}
	cs.msgs = append(cs.msgs, "Value "+value+" at '"+path+"' failed to satisfy constraint: "+constraint)
}

// err returns the ValidationException for the collected violations, or nil.
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

func cEnum(values ...string) string {
	return "Member must satisfy enum value set: [" + strings.Join(values, ", ") + "]"
}

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
	if p == nil {
		cs.add("null", path, cNotNull)
		return false
	}
	return true
}

// enum records a violation when *p is set and not one of values.
func enum(cs *constraints, p *string, path string, values ...string) {
	if p == nil {
		return
	}
	for _, v := range values {
		if *p == v {
			return
		}
	}
	cs.add(quote(*p), path, cEnum(values...))
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
