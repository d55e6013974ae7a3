package insights

import (
	"encoding/json"
	"strconv"

	"github.com/dynamoemu/dynamoemu/internal/jsonkind"
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

// FormatDynamoose is a Dynamoose schema.
const FormatDynamoose = "dynamoose"

// dynamooseAttr is an attribute's settings in a JSON-able schema. They
// are closed (membersClosed): Dynamoose's documentation gives an
// attribute's settings as a fixed set (dynamoosejs.com, Schema,
// "Attribute Settings"); the functions of validate, get, set and
// default are not JSON, their other forms are.
type dynamooseAttr struct {
	HashKey  bool            `json:"hashKey"`
	RangeKey bool            `json:"rangeKey"`
	Index    json.RawMessage `json:"index"` // a dynamooseIndexDef or an array of them
	// settings that say nothing of the keys
	Type         json.RawMessage `json:"type"`
	Schema       json.RawMessage `json:"schema"`
	Default      json.RawMessage `json:"default"`
	ForceDefault json.RawMessage `json:"forceDefault"`
	Validate     json.RawMessage `json:"validate"`
	Required     json.RawMessage `json:"required"`
	Enum         json.RawMessage `json:"enum"`
	Get          json.RawMessage `json:"get"`
	Set          json.RawMessage `json:"set"`
	Map          json.RawMessage `json:"map"`
	Alias        json.RawMessage `json:"alias"`
	Aliases      json.RawMessage `json:"aliases"`
	DefaultMap   json.RawMessage `json:"defaultMap"`
	Name         json.RawMessage `json:"name"`
}

// dynamooseIndexDef is one index an attribute declares (closed, as the
// settings: Dynamoose's "index" setting's members).
type dynamooseIndexDef struct {
	Name       string          `json:"name"`
	Type       string          `json:"type"`   // global, local; "" for global
	Global     *bool           `json:"global"` // Dynamoose 2's spelling of type
	RangeKey   string          `json:"rangeKey"`
	Project    json.RawMessage `json:"project"`
	Throughput json.RawMessage `json:"throughput"`
}

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
		var a dynamooseAttr
		at := top.at(name)
		if err := decodeMembers(top.values[i], FormatDynamoose, at, membersClosed, &a); err != nil {
			return nil, err
		}
		if err := dynamooseKeyRoles(&a, at, name, t); err != nil {
			return nil, err
		}
		more, err := dynamooseIndexes(a.Index, at, name, t)
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

// dynamooseKeyRoles makes attribute a, named name at path at, t's
// partition or sort key when it says hashKey or rangeKey.
func dynamooseKeyRoles(a *dynamooseAttr, at, name string, t *DesignTable) error {
	o := &object{format: FormatDynamoose, path: at}
	for _, r := range []struct {
		role string
		on   bool
		key  *string
	}{{"hashKey", a.HashKey, &t.Key.Partition}, {"rangeKey", a.RangeKey, &t.Key.Sort}} {
		if !r.on {
			continue
		}
		if *r.key != "" {
			return o.errf(r.role, "the table's %s is %s already", r.role, *r.key)
		}
		*r.key = name
	}
	return nil
}

// dynamooseIndexes reads raw, the index member (one index or a list) of
// attribute name at path at: global indexes join t, local ones are
// returned, to be keyed once the table's partition key is known.
func dynamooseIndexes(raw json.RawMessage, at, name string, t *DesignTable) ([]dynamooseLSI, error) {
	if raw == nil {
		return nil, nil
	}
	list := []json.RawMessage{raw}
	path := func(int) string { return at + ".index" }
	if jsonkind.Of(raw) == "an array" {
		if err := json.Unmarshal(raw, &list); err != nil {
			return nil, &DesignError{Format: FormatDynamoose, Field: at + ".index", Msg: "not JSON: " + err.Error()}
		}
		path = func(j int) string { return at + ".index[" + strconv.Itoa(j) + "]" }
	}
	var locals []dynamooseLSI
	for j, r := range list {
		var x dynamooseIndexDef
		if err := decodeMembers(r, FormatDynamoose, path(j), membersClosed, &x); err != nil {
			return nil, err
		}
		local, err := dynamooseIndex(&x, path(j), name, t)
		if err != nil {
			return nil, err
		}
		if local != nil {
			locals = append(locals, *local)
		}
	}
	return locals, nil
}

// dynamooseIndex reads one index x, at path at, of attribute name: a
// global one joins t, a local one is returned.
func dynamooseIndex(x *dynamooseIndexDef, at, name string, t *DesignTable) (*dynamooseLSI, error) {
	o := &object{format: FormatDynamoose, path: at}
	if x.Name == "" {
		return nil, o.errf("name", "missing or empty")
	}
	if err := checkName(o, "name", x.Name, "index"); err != nil {
		return nil, err
	}
	switch {
	case x.Type == "local" || x.Type == "" && x.Global != nil && !*x.Global:
		return &dynamooseLSI{name: x.Name, sort: name, at: at}, nil
	case x.Type != "" && x.Type != "global":
		return nil, o.errf("type", "%q: an index is global or local", x.Type)
	}
	if t.index(x.Name) != nil {
		return nil, o.errf("name", "index %q twice", x.Name)
	}
	t.Indexes = append(t.Indexes, &IndexDef{Name: x.Name, Key: KeyDef{Partition: name, Sort: x.RangeKey}, At: at})
	return nil, nil
}
