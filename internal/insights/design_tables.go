package insights

import (
	"encoding/json"

	"github.com/dynamoemu/dynamoemu/internal/shapes"
)

// Tables in CreateTable's shape (TableName, KeySchema, the indexes'
// KeySchema), as AWS's DynamoDB MCP server's data model and a
// CloudFormation template (through internal/iac) give them: the table's
// key and its indexes, no entities. Each level is decoded into a struct
// of the members read (decodeMembers); a member CreateTable does not
// take is an error naming it. The other members of CreateTable are
// taken as they are, not read.

// createTableMembers are CreateTable's request members
// (docs.aws.amazon.com/amazondynamodb/latest/APIReference/API_CreateTable.html).
var createTableMembers = []string{"AttributeDefinitions", "TableName", "KeySchema", "LocalSecondaryIndexes",
	"GlobalSecondaryIndexes", "BillingMode", "ProvisionedThroughput", "StreamSpecification", "SSESpecification",
	"Tags", "TableClass", "DeletionProtectionEnabled", "WarmThroughput", "ResourcePolicy", "OnDemandThroughput"}

// createIndexMembers are the members of one of CreateTable's indexes.
var createIndexMembers = []string{"IndexName", "KeySchema", "Projection", "ProvisionedThroughput", "OnDemandThroughput", "WarmThroughput"}

// readCreateTable reads one CreateTable input, the object o.
func readCreateTable(o *object) (*DesignTable, error) {
	if err := o.only(createTableMembers...); err != nil {
		return nil, err
	}
	// The members read; the shape is shapes.CreateTableInput, whose
	// nested structs would be decoded at once, not a level at a time.
	var ct struct {
		TableName              string            `json:"TableName"`
		KeySchema              []json.RawMessage `json:"KeySchema"` // of shapes.KeySchemaElement
		LocalSecondaryIndexes  []json.RawMessage `json:"LocalSecondaryIndexes"`
		GlobalSecondaryIndexes []json.RawMessage `json:"GlobalSecondaryIndexes"`
	}
	if err := decodeMembers(o.raw, o.format, o.path, membersOpen, &ct); err != nil {
		return nil, err
	}
	if ct.TableName == "" {
		return nil, o.errf("TableName", "missing or empty")
	}
	if err := checkName(o, "TableName", ct.TableName, "table"); err != nil {
		return nil, err
	}
	t := &DesignTable{Name: ct.TableName, At: o.path}
	var err error
	if t.Key, err = readKeySchema(o, ct.KeySchema); err != nil {
		return nil, err
	}
	for _, m := range []struct {
		member string
		xs     []json.RawMessage
	}{{"GlobalSecondaryIndexes", ct.GlobalSecondaryIndexes}, {"LocalSecondaryIndexes", ct.LocalSecondaryIndexes}} {
		for i, raw := range m.xs {
			x, err := readCreateIndex(raw, o.format, o.elem(m.member, i), t)
			if err != nil {
				return nil, err
			}
			if m.member == "LocalSecondaryIndexes" && x.Key.Partition != t.Key.Partition {
				return nil, (&object{format: o.format, path: x.At}).errf("KeySchema", "a local index's partition key is the table's (%s)", t.Key.Partition)
			}
			t.Indexes = append(t.Indexes, x)
		}
	}
	return t, nil
}

// readCreateIndex reads raw, the index of format at path at, of table t.
func readCreateIndex(raw json.RawMessage, format, at string, t *DesignTable) (*IndexDef, error) {
	x, err := members(raw, format, at)
	if err != nil {
		return nil, err
	}
	if err := x.only(createIndexMembers...); err != nil {
		return nil, err
	}
	var xj struct { // the members read, as for the table
		IndexName string            `json:"IndexName"`
		KeySchema []json.RawMessage `json:"KeySchema"`
	}
	if err := decodeMembers(raw, format, at, membersOpen, &xj); err != nil {
		return nil, err
	}
	if xj.IndexName == "" {
		return nil, x.errf("IndexName", "missing or empty")
	}
	if err := checkName(x, "IndexName", xj.IndexName, "index"); err != nil {
		return nil, err
	}
	if t.index(xj.IndexName) != nil {
		return nil, x.errf("IndexName", "index %q twice", xj.IndexName)
	}
	k, err := readKeySchema(x, xj.KeySchema)
	if err != nil {
		return nil, err
	}
	return &IndexDef{Name: xj.IndexName, Key: k, At: at}, nil
}

// readKeySchema reads ks, o's KeySchema: [{"AttributeName", "KeyType":
// HASH|RANGE}].
func readKeySchema(o *object, ks []json.RawMessage) (KeyDef, error) {
	if len(ks) == 0 || len(ks) > 2 {
		return KeyDef{}, o.errf("KeySchema", "a key schema is a HASH element and an optional RANGE element")
	}
	var k KeyDef
	for i, raw := range ks {
		var ke shapes.KeySchemaElement[string]
		if err := decodeMembers(raw, o.format, o.elem("KeySchema", i), membersClosed, &ke); err != nil {
			return KeyDef{}, err
		}
		e := &object{format: o.format, path: o.elem("KeySchema", i)}
		if ke.AttributeName == "" {
			return KeyDef{}, e.errf("AttributeName", "missing or empty")
		}
		if err := checkName(e, "AttributeName", ke.AttributeName, "attribute"); err != nil {
			return KeyDef{}, err
		}
		switch typ := ke.KeyType; {
		case typ == "":
			return KeyDef{}, e.errf("KeyType", "missing or empty")
		case typ == "HASH" && i == 0:
			k.Partition = ke.AttributeName
		case typ == "RANGE" && i == 1 && ke.AttributeName != k.Partition:
			k.Sort = ke.AttributeName
		default:
			return KeyDef{}, e.errf("KeyType", "%q: the first element is HASH, the second RANGE on another attribute", typ)
		}
	}
	return k, nil
}
