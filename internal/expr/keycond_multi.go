package expr

import (
	"github.com/dynamoemu/dynamoemu/internal/lease"
	"strings"

	"github.com/dynamoemu/dynamoemu/internal/storage"
)

// Key conditions on multi-attribute keys: a global secondary index may key
// on up to four partition key attributes and four sort key attributes.
// AWS's rules (developer guide, "Multi-attribute keys pattern"): every
// partition key attribute by equality; sort key attributes left to right,
// equality on a prefix, then at most one condition (=, <, <=, >, >=,
// BETWEEN, begins_with) on the next one. The messages are DynamoDB Local
// 3.3.0's (AWS's wording for these is not published).

// MultiKeySchema is an index key of several attributes, in KeySchema order.
type MultiKeySchema struct {
	Partition, Sort []storage.KeyAttr
}

// MultiKeyCondition is a compiled key condition on a MultiKeySchema: the
// values of every partition key attribute (schema order), the values of
// the sort key attributes fixed by equality (a prefix), and the condition
// on the next sort key attribute (Op SortAny: none).
type MultiKeyCondition struct {
	Partition  []storage.Value
	SortPrefix []storage.Value
	Sort       storage.SortCondition
}

const (
	msgMultiHashEquality  = "HASH key attributes %s must have equality conditions specified in the query"
	msgMultiRangeEquality = "RANGE key attributes %s must have equality conditions specified in the query because a condition is present on key attribute %s"
)

// MultiKeyCondition compiles a KeyConditionExpression against a
// multi-attribute index key.
func (c *Compiler) MultiKeyCondition(text string, ks MultiKeySchema) (*MultiKeyCondition, error) {
	lease.Check(c)
	var buf [8]keyTerm
	terms, pos, err := c.keyTerms(text, len(ks.Partition)+len(ks.Sort), buf[:0])
	if err != nil {
		return nil, err
	}
	kc, kerr := bindMultiKeyTerms(terms, ks, pos)
	if kerr != nil {
		return nil, kerr
	}
	return kc, nil
}

func bindMultiKeyTerms(terms []keyTerm, ks MultiKeySchema, pos int) (*MultiKeyCondition, *Error) {
	byName := make(map[string]*keyTerm, len(terms))
	for i := range terms {
		byName[terms[i].name] = &terms[i]
	}
	// DynamoDB Local names the partition key attributes without an
	// equality first, even when the condition names other attributes
	// (the table's key, say).
	kc := &MultiKeyCondition{}
	var missing []string
	for _, a := range ks.Partition {
		if t := byName[a.Name]; t == nil || t.op != storage.SortEQ {
			missing = append(missing, a.Name)
		}
	}
	if len(missing) > 0 {
		return nil, &Error{Pos: pos, Msg: sprintf(msgMultiHashEquality, strings.Join(missing, ", "))}
	}
	for i := range terms {
		if t := &terms[i]; !hasAttr(ks.Partition, t.name) && !hasAttr(ks.Sort, t.name) {
			return nil, &Error{Pos: t.pos, Msg: msgKeyMissed}
		}
	}
	// Values are checked against the key types, as for one-attribute keys.
	for _, list := range [2][]storage.KeyAttr{ks.Partition, ks.Sort} {
		for _, a := range list {
			t := byName[a.Name]
			if t == nil {
				continue
			}
			for _, v := range t.values {
				if v.IsValid() && v.Kind() != a.Kind {
					return nil, &Error{Pos: t.pos, Msg: msgKeyTypeMismatch}
				}
			}
			if t.unindexable || !t.values[0].IsValid() {
				return nil, &Error{Pos: t.pos, Msg: msgKeyNotSupported}
			}
		}
	}
	for _, a := range ks.Partition {
		kc.Partition = append(kc.Partition, byName[a.Name].values[0])
	}
	last := -1 // the last sort key attribute with a condition
	for i, a := range ks.Sort {
		if byName[a.Name] != nil {
			last = i
		}
	}
	for i := 0; i < last; i++ {
		if t := byName[ks.Sort[i].Name]; t == nil || t.op != storage.SortEQ {
			missing = append(missing, ks.Sort[i].Name)
		}
	}
	if len(missing) > 0 {
		return nil, &Error{Pos: pos, Msg: sprintf(msgMultiRangeEquality, strings.Join(missing, ", "), ks.Sort[last].Name)}
	}
	for i := 0; i < last; i++ {
		kc.SortPrefix = append(kc.SortPrefix, byName[ks.Sort[i].Name].values[0])
	}
	if last >= 0 {
		t := byName[ks.Sort[last].Name]
		kc.Sort = storage.SortCondition{Op: t.op, Values: t.values}
	}
	return kc, nil
}

// MultiKeyConditions compiles the legacy KeyConditions map of a Query on
// a multi-attribute index key.
func MultiKeyConditions(conds []NamedCondition, ks MultiKeySchema) (*MultiKeyCondition, error) {
	terms, err := legacyKeyTerms(conds, len(ks.Partition)+len(ks.Sort))
	if err != nil {
		return nil, err
	}
	if len(terms) == 0 || len(terms) > len(ks.Partition)+len(ks.Sort) {
		return nil, errPlain(msgKeyLength)
	}
	kc, kerr := bindMultiKeyTerms(terms, ks, -1)
	if kerr != nil {
		return nil, kerr
	}
	return kc, nil
}

func hasAttr(list []storage.KeyAttr, name string) bool {
	for _, a := range list {
		if a.Name == name {
			return true
		}
	}
	return false
}

// Match reports whether an item's key attribute values (by name) satisfy
// the condition.
func (kc *MultiKeyCondition) Match(ks MultiKeySchema, it storage.Item) bool {
	for i, a := range ks.Partition {
		if !storage.Equal(it[a.Name], kc.Partition[i]) {
			return false
		}
	}
	for i, v := range kc.SortPrefix {
		if !storage.Equal(it[ks.Sort[i].Name], v) {
			return false
		}
	}
	if kc.Sort.Op == storage.SortAny {
		return true
	}
	one := KeyCondition{Partition: kc.Partition[0], Sort: kc.Sort}
	return one.Match(kc.Partition[0], it[ks.Sort[len(kc.SortPrefix)].Name])
}
