package faults

import (
	"slices"
	"strings"

	"github.com/dynamoemu/dynamoemu/internal/storage"
)

// matches reports whether the rule's match fields all hold for c. It
// allocates nothing: values are compared as the strings storage keeps.
func (r *ruleState) matches(c *Call) bool {
	if r.Table != "" && r.Table != c.Table {
		return false
	}
	if r.Index != "" && r.Index != c.Index {
		return false
	}
	if len(r.ops) > 0 && !slices.Contains(r.ops, c.Op) {
		return false
	}
	return keyMatches(c.Key.Partition, r.PartitionKey, r.PartitionKeyPrefix) &&
		keyMatches(c.Key.Sort, r.SortKey, r.SortKeyPrefix)
}

// keyMatches reports whether v satisfies an exact value and a prefix
// ("" for either: no condition). A condition never holds for a missing
// value.
func keyMatches(v storage.Value, exact, prefix string) bool {
	if exact == "" && prefix == "" {
		return true
	}
	if !v.Kind().IsScalarKey() {
		return false
	}
	s := v.Str()
	return (exact == "" || s == exact) && strings.HasPrefix(s, prefix)
}
