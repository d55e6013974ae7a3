package capture

import (
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"sync"
)

// Diff is one difference between a recorded answer and a replayed one.
type Diff struct {
	Path     string `json:"path"`               // "status", or the member's path: Items[2].price.N
	Recorded string `json:"recorded,omitempty"` // its recorded value as JSON; "" when absent
	Replayed string `json:"replayed,omitempty"` // its replayed value as JSON; "" when absent
}

func (d Diff) String() string {
	show := func(s string) string {
		if s == "" {
			return "(absent)"
		}
		return s
	}
	return fmt.Sprintf("%s: recorded %s, replayed %s", d.Path, show(d.Recorded), show(d.Replayed))
}

// timeMembers are compared by presence and JSON type: they hold when
// something happened.
var timeMembers = sync.OnceValue(func() map[string]bool {
	return map[string]bool{
		"CreationDateTime": true, "LastUpdateToTableDateTime": true, "LastIncreaseDateTime": true,
		"LastDecreaseDateTime": true, "ApproximateCreationDateTime": true, "BackupCreationDateTime": true,
		"BackupExpiryDateTime": true, "StartTime": true, "EndTime": true, "LatestStreamLabel": true,
		"StreamLabel": true, "EarliestRestorableDateTime": true, "LatestRestorableDateTime": true,
		"LastUpdateDateTime": true, "RestoreDateTime": true, "InaccessibleEncryptionDateTime": true,
		"ExportTime": true, "ExportFromTime": true, "ExportToTime": true, "ArchivalDateTime": true,
		"ReplicaInaccessibleDateTime": true, "CreationRequestDateTime": true, "TableCreationDateTime": true,
		"LastUpdateToPayPerRequestDateTime": true,
	}
})

// opaqueMembers are compared by presence and JSON type: each upstream
// makes its own. A replay binds the recorded value to the replayed one
// (Session).
var opaqueMembers = sync.OnceValue(func() map[string]bool {
	return map[string]bool{
		"TableId": true, "ShardIterator": true, "NextShardIterator": true, "NextToken": true,
		"ShardId": true, "ParentShardId": true, "LastEvaluatedShardId": true, "SequenceNumber": true,
		"StartingSequenceNumber": true, "EndingSequenceNumber": true, "eventID": true, "awsRegion": true,
		"ClientToken": true,
	}
})

// unorderedMembers are arrays whose order is not the answer's: compared
// as sets (SS, NS, BS) or multisets.
var unorderedMembers = sync.OnceValue(func() map[string]bool {
	return map[string]bool{
		"SS": true, "NS": true, "BS": true, "AttributeDefinitions": true, "GlobalSecondaryIndexes": true,
		"LocalSecondaryIndexes": true, "Replicas": true, "Tags": true, "ConsumedCapacity": true,
	}
})

// unorderedMaps are the members whose values, a map of table names to
// arrays, hold arrays in no order: BatchGetItem's Responses,
// ItemCollectionMetrics of BatchWriteItem.
var unorderedMaps = sync.OnceValue(func() map[string]bool {
	return map[string]bool{"Responses": true, "ItemCollectionMetrics": true}
})

// ignored reports whether the path of member names path is under one of
// the ignore paths (members joined by '.', '*' for any one member).
func ignored(path []string, ignore []string) bool {
	for _, ig := range ignore {
		parts := strings.Split(ig, ".")
		if len(parts) > len(path) {
			continue
		}
		match := true
		for i, p := range parts {
			if p != "*" && p != path[i] {
				match = false
				break
			}
		}
		if match {
			return true
		}
	}
	return false
}

// comparer walks a recorded and a replayed body, both normalised.
type comparer struct {
	ignore   []string
	diffs    []Diff
	anyOrder bool // every array compared as a multiset
}

// compareBodies compares two normalised bodies.
func compareBodies(recorded, replayed any, ignore []string) []Diff {
	c := &comparer{ignore: ignore}
	c.walk("", nil, recorded, replayed, false)
	return c.diffs
}

// OrderOnly reports whether a recorded answer and a replayed one differ
// in the order of arrays alone: compared with every array as a
// multiset, they are the same. prefix is the replay's table prefix.
func OrderOnly(recorded, replayed []byte, prefix string, ignore ...string) bool {
	rec, err1 := decode(recorded)
	rep, err2 := decode(replayed)
	if err1 != nil || err2 != nil {
		return false
	}
	c := &comparer{ignore: ignore, anyOrder: true}
	c.walk("", nil, normaliseValue(rec, ""), normaliseValue(rep, prefix), false)
	return len(c.diffs) == 0
}

func jsonText(v any) string {
	if v == nil {
		return "null"
	}
	b, err := encode(v)
	if err != nil {
		return fmt.Sprint(v)
	}
	return string(b)
}

func (c *comparer) add(shown string, rec, rep any, recOK, repOK bool) {
	d := Diff{Path: shown}
	if recOK {
		d.Recorded = jsonText(rec)
	}
	if repOK {
		d.Replayed = jsonText(rep)
	}
	if d.Path == "" {
		d.Path = "(body)"
	}
	c.diffs = append(c.diffs, d)
}

// jsonKind is a decoded value's JSON type.
func jsonKind(v any) string {
	switch v.(type) {
	case map[string]any:
		return "object"
	case []any:
		return "array"
	case string:
		return "string"
	case json.Number:
		return "number"
	case bool:
		return "boolean"
	}
	return "null"
}

// walk compares rec and rep, found at the member path names (shown as
// shown); inMap says the value is one of an unordered map's arrays.
func (c *comparer) walk(shown string, names []string, rec, rep any, inMap bool) {
	if ignored(names, c.ignore) {
		return
	}
	name := ""
	if len(names) > 0 {
		name = names[len(names)-1]
	}
	if timeMembers()[name] || opaqueMembers()[name] {
		if jsonKind(rec) != jsonKind(rep) {
			c.add(shown, rec, rep, true, true)
		}
		return
	}
	if name == "__type" && len(names) == 1 {
		r, _ := rec.(string)
		p, _ := rep.(string)
		if errorType(r) != errorType(p) {
			c.add(shown, rec, rep, true, true)
		}
		return
	}
	switch r := rec.(type) {
	case map[string]any:
		p, ok := rep.(map[string]any)
		if !ok {
			c.add(shown, rec, rep, true, true)
			return
		}
		keys := make([]string, 0, len(r)+len(p))
		for k := range r {
			keys = append(keys, k)
		}
		for k := range p {
			if _, dup := r[k]; !dup {
				keys = append(keys, k)
			}
		}
		slices.Sort(keys)
		for _, k := range keys {
			sub := k
			if shown != "" {
				sub = shown + "." + k
			}
			subNames := append(slices.Clip(names), k)
			rv, rok := r[k]
			pv, pok := p[k]
			if !rok || !pok {
				if !ignored(subNames, c.ignore) {
					c.add(sub, rv, pv, rok, pok)
				}
				continue
			}
			c.walk(sub, subNames, rv, pv, unorderedMaps()[name] && len(names) == 1)
		}
	case []any:
		p, ok := rep.([]any)
		if !ok {
			c.add(shown, rec, rep, true, true)
			return
		}
		if c.unordered(name, inMap) {
			r, p = sortedCopy(r), sortedCopy(p)
		}
		for i := 0; i < max(len(r), len(p)); i++ {
			sub := shown + "[" + strconv.Itoa(i) + "]"
			switch {
			case i >= len(p):
				if !ignored(names, c.ignore) {
					c.add(sub, r[i], nil, true, false)
				}
			case i >= len(r):
				c.add(sub, nil, p[i], false, true)
			default:
				c.walk(sub, names, r[i], p[i], false)
			}
		}
	default:
		if !sameScalar(rec, rep) {
			c.add(shown, rec, rep, true, true)
		}
	}
}

// unordered reports whether the array at member name (one of an
// unordered map's values when inMap) is compared as a multiset.
func (c *comparer) unordered(name string, inMap bool) bool {
	return unorderedMembers()[name] || inMap || c.anyOrder
}

// sameScalar reports whether two scalars are equal: numbers by value
// (1.0 is 1: no JSON reader tells them apart; an attribute value's N is
// a string, compared as written), the others by their JSON text.
func sameScalar(rec, rep any) bool {
	if jsonKind(rec) != jsonKind(rep) {
		return false
	}
	if r, ok := rec.(json.Number); ok {
		p := rep.(json.Number)
		if r == p {
			return true
		}
		rf, err1 := strconv.ParseFloat(string(r), 64)
		pf, err2 := strconv.ParseFloat(string(p), 64)
		return err1 == nil && err2 == nil && rf == pf
	}
	return jsonText(rec) == jsonText(rep)
}

// errorType is an error's __type after its '#'.
func errorType(t string) string {
	if i := strings.LastIndexByte(t, '#'); i >= 0 {
		return t[i+1:]
	}
	return t
}

// sortedCopy is an unordered array sorted by its elements' JSON with the
// time and opaque members left out, so that two answers listing the same
// elements pair them up.
func sortedCopy(a []any) []any {
	type keyed struct {
		key string
		v   any
	}
	ks := make([]keyed, len(a))
	for i, v := range a {
		ks[i] = keyed{jsonText(stripVolatile(v)), v}
	}
	slices.SortStableFunc(ks, func(x, y keyed) int { return strings.Compare(x.key, y.key) })
	out := make([]any, len(a))
	for i, k := range ks {
		out[i] = k.v
	}
	return out
}

// stripVolatile is v without its time and opaque members.
func stripVolatile(v any) any {
	switch v := v.(type) {
	case map[string]any:
		out := make(map[string]any, len(v))
		for k, x := range v {
			if !timeMembers()[k] && !opaqueMembers()[k] {
				out[k] = stripVolatile(x)
			}
		}
		return out
	case []any:
		out := make([]any, len(v))
		for i, x := range v {
			out[i] = stripVolatile(x)
		}
		return out
	}
	return v
}
