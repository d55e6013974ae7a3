package insights

import (
	"encoding/json"

	"github.com/dynamoemu/dynamoemu/internal/jsonkind"
)

// A DynamoDB Toolbox table in its JSON-able form (the object given to
// new Table) as a design:
//
//	{"name": "Blog",
//	 "partitionKey": {"name": "PK", "type": "string"},
//	 "sortKey": {"name": "SK_GSI1PK", "type": "string"},
//	 "indexes": {"GSI1": {"type": "global", "partitionKey": {...}, "sortKey": {...}},
//	             "LSI1": {"type": "local", "sortKey": {...}}}}
//
// Toolbox 1's keys are attribute names ("partitionKey": "PK"), its
// indexes global when they have a partition key and local when they
// have only a sort key; Toolbox 1 and 2 are both read. The table's
// entities (their attributes are functions and classes, not JSON) and
// access patterns are not in the table: the patterns come from the
// traffic (design_traffic.go), as for a template.
//
// The members are closed (membersClosed): Toolbox's Table constructor
// takes a fixed TypeScript object type (name, partitionKey, sortKey,
// indexes, entityAttributeSavedAs, ...; dynamodb-toolbox's
// dist/.../table/table.d.ts), an index is {type, partitionKey, sortKey}
// and a key {name, type}; so a member the reader does not know is an
// error naming it. The index names are the table's data, read in the
// file's order (orderedMembers).

// FormatToolbox is a DynamoDB Toolbox table.
const FormatToolbox = "dynamodb-toolbox"

// isToolbox reports whether top is a Toolbox table: a partitionKey beside
// a name or indexes, and none of the other formats' members.
func isToolbox(top *object) bool { return top.has("partitionKey") && !top.has("DataModel") }

// toolboxTable is a Toolbox table's JSON-able form.
type toolboxTable struct {
	Name         string          `json:"name"`
	PartitionKey json.RawMessage `json:"partitionKey"` // a name (Toolbox 1) or a toolboxKeyObject (2)
	SortKey      json.RawMessage `json:"sortKey"`
	Indexes      orderedMembers  `json:"indexes"` // of toolboxIndex
	// settings that say nothing of the keys
	Alias                  json.RawMessage `json:"alias"`
	EntityField            json.RawMessage `json:"entityField"`
	EntityAttributeSavedAs json.RawMessage `json:"entityAttributeSavedAs"`
	AutoExecute            json.RawMessage `json:"autoExecute"`
	AutoParse              json.RawMessage `json:"autoParse"`
	RemoveNullAttributes   json.RawMessage `json:"removeNullAttributes"`
}

// toolboxIndex is one of a Toolbox table's indexes.
type toolboxIndex struct {
	Type         string          `json:"type"` // global, local; "" in Toolbox 1
	PartitionKey json.RawMessage `json:"partitionKey"`
	SortKey      json.RawMessage `json:"sortKey"`
}

// toolboxKeyObject is a Toolbox 2 key.
type toolboxKeyObject struct {
	Name string `json:"name"`
	Type string `json:"type"`
}

// parseToolbox reads a Toolbox table's keys and indexes.
func parseToolbox(top *object) (*Design, error) {
	top.format = FormatToolbox
	var tt toolboxTable
	if err := decodeMembers(top.raw, FormatToolbox, top.path, membersClosed, &tt); err != nil {
		return nil, err
	}
	if tt.Name == "" {
		return nil, top.errf("name", "missing or empty")
	}
	if err := checkName(top, "name", tt.Name, "table"); err != nil {
		return nil, err
	}
	t := &DesignTable{Name: tt.Name, FromTraffic: true, At: top.path}
	var err error
	if t.Key.Partition, err = toolboxKey(tt.PartitionKey, top.at("partitionKey"), true); err != nil {
		return nil, err
	}
	if t.Key.Sort, err = toolboxKey(tt.SortKey, top.at("sortKey"), false); err != nil {
		return nil, err
	}
	if name := tt.Indexes.twice(); name != "" {
		return nil, top.errf("indexes."+name, "the member appears twice")
	}
	for _, nx := range tt.Indexes {
		x, err := toolboxIndexDef(nx, top.at("indexes."+nx.Name), t.Key.Partition)
		if err != nil {
			return nil, err
		}
		t.Indexes = append(t.Indexes, x)
	}
	return &Design{Tables: []*DesignTable{t}, Format: FormatToolbox}, nil
}

// toolboxIndexDef reads index nx, at path at, of a table whose partition
// key is pk.
func toolboxIndexDef(nx namedRaw, at, pk string) (*IndexDef, error) {
	var ti toolboxIndex
	if err := decodeMembers(nx.Value, FormatToolbox, at, membersClosed, &ti); err != nil {
		return nil, err
	}
	x := &object{format: FormatToolbox, path: at}
	if err := checkName(x, "", nx.Name, "index"); err != nil {
		return nil, err
	}
	kind := ti.Type
	if kind == "" { // Toolbox 1: a local index has no partition key
		kind = "global"
		if ti.PartitionKey == nil {
			kind = "local"
		}
	}
	var k KeyDef
	var err error
	switch kind {
	case "global":
		if k.Partition, err = toolboxKey(ti.PartitionKey, x.at("partitionKey"), true); err != nil {
			return nil, err
		}
	case "local":
		if ti.PartitionKey != nil {
			return nil, x.errf("partitionKey", "a local index's partition key is the table's (%s)", pk)
		}
		k.Partition = pk
	default:
		return nil, x.errf("type", "%q: an index is global or local", kind)
	}
	if k.Sort, err = toolboxKey(ti.SortKey, x.at("sortKey"), kind == "local"); err != nil {
		return nil, err
	}
	return &IndexDef{Name: nx.Name, Key: k, At: at}, nil
}

// toolboxKey reads a key member raw at path at: an attribute's name, or
// {"name", "type"} (Toolbox 2). need says it must be there.
func toolboxKey(raw json.RawMessage, at string, need bool) (string, error) {
	ko := &object{format: FormatToolbox, path: at}
	if raw == nil {
		if need {
			return "", ko.errf("", "missing")
		}
		return "", nil
	}
	var name string
	if err := json.Unmarshal(raw, &name); err == nil {
		if name == "" {
			return "", ko.errf("", "missing or empty")
		}
		return name, nil
	}
	if jsonkind.Of(raw) != "an object" {
		return "", ko.errf("", "want an attribute's name or {\"name\", \"type\"}")
	}
	var k toolboxKeyObject
	if err := decodeMembers(raw, FormatToolbox, at, membersClosed, &k); err != nil {
		return "", err
	}
	switch k.Type {
	case "", "string", "number", "binary":
	default:
		return "", ko.errf("type", "%q: a key is a string, number or binary", k.Type)
	}
	if k.Name == "" {
		return "", ko.errf("name", "missing or empty")
	}
	return k.Name, nil
}
