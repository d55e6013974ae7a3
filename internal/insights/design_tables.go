package insights

// Tables in CreateTable's shape (TableName, KeySchema, the indexes'
// KeySchema), as AWS's DynamoDB MCP server's data model and a
// CloudFormation template (through internal/iac) give them: the table's
// key and its indexes, no entities. The other members of CreateTable are
// read for their shape only; a member CreateTable does not take is an
// error naming it.

// createTableMembers are CreateTable's request members.
var createTableMembers = []string{"AttributeDefinitions", "TableName", "KeySchema", "LocalSecondaryIndexes",
	"GlobalSecondaryIndexes", "BillingMode", "ProvisionedThroughput", "StreamSpecification", "SSESpecification",
	"Tags", "TableClass", "DeletionProtectionEnabled", "WarmThroughput", "ResourcePolicy", "OnDemandThroughput"}

// readCreateTable reads one CreateTable input.
func readCreateTable(o *object) (*DesignTable, error) {
	if err := o.only(createTableMembers...); err != nil {
		return nil, err
	}
	name, err := o.need("TableName")
	if err != nil {
		return nil, err
	}
	if err := checkName(o, "TableName", name, "table"); err != nil {
		return nil, err
	}
	t := &DesignTable{Name: name, At: o.path}
	if t.Key, err = readKeySchema(o); err != nil {
		return nil, err
	}
	for _, member := range []string{"GlobalSecondaryIndexes", "LocalSecondaryIndexes"} {
		xs, err := o.array(member)
		if err != nil {
			return nil, err
		}
		for i, raw := range xs {
			x, err := members(raw, o.format, o.elem(member, i))
			if err != nil {
				return nil, err
			}
			if err := x.only("IndexName", "KeySchema", "Projection", "ProvisionedThroughput", "OnDemandThroughput", "WarmThroughput"); err != nil {
				return nil, err
			}
			xn, err := x.need("IndexName")
			if err != nil {
				return nil, err
			}
			if err := checkName(x, "IndexName", xn, "index"); err != nil {
				return nil, err
			}
			if t.index(xn) != nil {
				return nil, x.errf("IndexName", "index %q twice", xn)
			}
			k, err := readKeySchema(x)
			if err != nil {
				return nil, err
			}
			if member == "LocalSecondaryIndexes" && k.Partition != t.Key.Partition {
				return nil, x.errf("KeySchema", "a local index's partition key is the table's (%s)", t.Key.Partition)
			}
			t.Indexes = append(t.Indexes, &IndexDef{Name: xn, Key: k, At: x.path})
		}
	}
	return t, nil
}

// readKeySchema reads o's KeySchema: [{"AttributeName", "KeyType": HASH|RANGE}].
func readKeySchema(o *object) (KeyDef, error) {
	ks, err := o.array("KeySchema")
	if err != nil {
		return KeyDef{}, err
	}
	if len(ks) == 0 || len(ks) > 2 {
		return KeyDef{}, o.errf("KeySchema", "a key schema is a HASH element and an optional RANGE element")
	}
	var k KeyDef
	for i, raw := range ks {
		e, err := members(raw, o.format, o.elem("KeySchema", i))
		if err != nil {
			return KeyDef{}, err
		}
		if err := e.only("AttributeName", "KeyType"); err != nil {
			return KeyDef{}, err
		}
		attr, err := e.need("AttributeName")
		if err != nil {
			return KeyDef{}, err
		}
		if err := checkName(e, "AttributeName", attr, "attribute"); err != nil {
			return KeyDef{}, err
		}
		typ, err := e.need("KeyType")
		if err != nil {
			return KeyDef{}, err
		}
		switch {
		case typ == "HASH" && i == 0:
			k.Partition = attr
		case typ == "RANGE" && i == 1 && attr != k.Partition:
			k.Sort = attr
		default:
			return KeyDef{}, e.errf("KeyType", "%q: the first element is HASH, the second RANGE on another attribute", typ)
		}
	}
	return k, nil
}
