package insights

import (
	"encoding/json"
	"strings"
)

// A Dynamoose schema in its JSON-able form (the object given to
// dynamoose.Schema, with each type written as its name) as a design:
//
//	{"PK": {"type": "String", "hashKey": true},
//	 "SK_GSI1PK": {"type": "String", "rangeKey": true,
//	   "index": {"name": "GSI1", "type": "global", "rangeKey": "GSI1SK_GSI2SK_GSI3SK"}},
//	 "GSI2PK": {"type": "String", "index": {"name": "GSI2", "rangeKey": "GSI1SK_GSI2SK_GSI3SK"}},
//	 "title": "String"}
//
// The attribute with hashKey is the table's partition key, the one with
// rangeKey its sort key. An attribute's index (an object, or an array of
// them) is an index whose partition key is that attribute and whose sort
// key is the index's rangeKey: global unless its type is "local" (or
// Dynamoose 2's "global": false), when it is a local index whose sort key
// is that attribute. A schema names no table (the model does) and says
// nothing of entities or access patterns: the table's name and the
// patterns come from the traffic (design_traffic.go), as for a template.
// Any member the reader does not know is an error naming it.

// FormatDynamoose is a Dynamoose schema.
const FormatDynamoose = "dynamoose"

// dynamooseAttrMembers are an attribute's settings a JSON-able schema
// may hold (the functions of validate, get, set and default are not
// JSON, their other forms are).
var dynamooseAttrMembers = []string{"type", "schema", "default", "forceDefault", "validate", "required", "enum",
	"get", "set", "index", "hashKey", "rangeKey", "map", "alias", "aliases", "defaultMap", "name"}

// isDynamoose reports whether top is a Dynamoose schema: every member an
// attribute (a type's name or an object of settings), one of them the
// hash key.
func isDynamoose(top *object) bool {
	hash := false
	for _, raw := range top.values {
		var s string
		if json.Unmarshal(raw, &s) == nil {
			continue
		}
		var settings map[string]json.RawMessage
		if json.Unmarshal(raw, &settings) != nil {
			return false
		}
		if string(settings["hashKey"]) == "true" {
			hash = true
		}
	}
	return hash
}

// parseDynamoose reads a Dynamoose schema's keys and indexes.
func parseDynamoose(top *object) (*Design, error) {
	top.format = FormatDynamoose
	t := &DesignTable{Unnamed: true, FromTraffic: true, At: top.path}
	var locals []dynamooseLSI
	for i, name := range top.names {
		var typ string
		if json.Unmarshal(top.values[i], &typ) == nil {
			continue
		}
		a, err := members(top.values[i], FormatDynamoose, top.at(name))
		if err != nil {
			return nil, err
		}
		if err := a.only(dynamooseAttrMembers...); err != nil {
			return nil, err
		}
		if err := dynamooseKeyRoles(a, name, t); err != nil {
			return nil, err
		}
		more, err := dynamooseIndexes(a, name, t)
		if err != nil {
			return nil, err
		}
		locals = append(locals, more...)
	}
	if t.Key.Partition == "" {
		return nil, &DesignError{Format: FormatDynamoose, Msg: "no attribute is the hashKey"}
	}
	for _, l := range locals {
		if t.index(l.name) != nil {
			return nil, &DesignError{Format: FormatDynamoose, Field: l.at, Msg: "index " + l.name + " twice"}
		}
		t.Indexes = append(t.Indexes, &IndexDef{Name: l.name, Key: KeyDef{Partition: t.Key.Partition, Sort: l.sort}, At: l.at})
	}
	return &Design{Tables: []*DesignTable{t}, Format: FormatDynamoose}, nil
}

// dynamooseLSI is a local index an attribute declares: its name, its
// sort key (the attribute) and where it is.
type dynamooseLSI struct {
	name, sort string
	at         string
}

// dynamooseKeyRoles makes attribute a, named name, t's partition or sort
// key when it says hashKey or rangeKey.
func dynamooseKeyRoles(a *object, name string, t *DesignTable) error {
	for _, role := range []string{"hashKey", "rangeKey"} {
		on, err := dynamooseFlag(a, role)
		if err != nil {
			return err
		}
		if !on {
			continue
		}
		key := &t.Key.Partition
		if role == "rangeKey" {
			key = &t.Key.Sort
		}
		if *key != "" {
			return a.errf(role, "the table's %s is %s already", role, *key)
		}
		*key = name
	}
	return nil
}

// dynamooseIndexes reads attribute a's index member (one index or a
// list): global indexes join t, local ones are returned, to be keyed
// once the table's partition key is known.
func dynamooseIndexes(a *object, name string, t *DesignTable) ([]dynamooseLSI, error) {
	raw := a.get("index")
	if raw == nil {
		return nil, nil
	}
	var list []json.RawMessage
	if json.Unmarshal(raw, &list) != nil {
		list = []json.RawMessage{raw}
	}
	var locals []dynamooseLSI
	for j, r := range list {
		at := a.at("index")
		if len(list) > 1 || strings.HasPrefix(strings.TrimSpace(string(raw)), "[") {
			at = a.elem("index", j)
		}
		x, err := members(r, FormatDynamoose, at)
		if err != nil {
			return nil, err
		}
		local, err := dynamooseIndex(x, name, t)
		if err != nil {
			return nil, err
		}
		if local != nil {
			locals = append(locals, *local)
		}
	}
	return locals, nil
}

// dynamooseIndex reads one index x of attribute name: a global one joins
// t, a local one is returned.
func dynamooseIndex(x *object, name string, t *DesignTable) (*dynamooseLSI, error) {
	if err := x.only("name", "type", "global", "rangeKey", "project", "throughput"); err != nil {
		return nil, err
	}
	xn, err := x.need("name")
	if err != nil {
		return nil, err
	}
	if err := checkName(x, "name", xn, "index"); err != nil {
		return nil, err
	}
	kind, err := x.str("type")
	if err != nil {
		return nil, err
	}
	global, err := dynamooseFlag(x, "global")
	if err != nil {
		return nil, err
	}
	switch {
	case kind == "local" || kind == "" && x.has("global") && !global:
		return &dynamooseLSI{name: xn, sort: name, at: x.path}, nil
	case kind != "" && kind != "global":
		return nil, x.errf("type", "%q: an index is global or local", kind)
	}
	sort, err := x.str("rangeKey")
	if err != nil {
		return nil, err
	}
	if t.index(xn) != nil {
		return nil, x.errf("name", "index %q twice", xn)
	}
	t.Indexes = append(t.Indexes, &IndexDef{Name: xn, Key: KeyDef{Partition: name, Sort: sort}, At: x.path})
	return nil, nil
}

// dynamooseFlag returns boolean member name of o (false when absent).
func dynamooseFlag(o *object, name string) (bool, error) {
	raw := o.get(name)
	if raw == nil {
		return false, nil
	}
	var b bool
	if err := json.Unmarshal(raw, &b); err != nil {
		return false, o.errf(name, "want true or false, found %s", kindOf(raw))
	}
	return b, nil
}
