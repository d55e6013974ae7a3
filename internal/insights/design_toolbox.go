package insights

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
// traffic (design_traffic.go), as for a template. Any member the reader
// does not know is an error naming it.

// FormatToolbox is a DynamoDB Toolbox table.
const FormatToolbox = "dynamodb-toolbox"

// isToolbox reports whether top is a Toolbox table: a partitionKey beside
// a name or indexes, and none of the other formats' members.
func isToolbox(top *object) bool { return top.has("partitionKey") && !top.has("DataModel") }

// parseToolbox reads a Toolbox table's keys and indexes.
func parseToolbox(top *object) (*Design, error) {
	top.format = FormatToolbox
	if err := top.only("name", "alias", "partitionKey", "sortKey", "indexes", "entityField", "entityAttributeSavedAs",
		"autoExecute", "autoParse", "removeNullAttributes"); err != nil {
		return nil, err
	}
	name, err := top.need("name")
	if err != nil {
		return nil, err
	}
	if err := checkName(top, "name", name, "table"); err != nil {
		return nil, err
	}
	t := &DesignTable{Name: name, FromTraffic: true, At: top.path}
	if t.Key.Partition, err = toolboxKey(top, "partitionKey", true); err != nil {
		return nil, err
	}
	if t.Key.Sort, err = toolboxKey(top, "sortKey", false); err != nil {
		return nil, err
	}
	xs, err := top.object("indexes")
	if err != nil {
		return nil, err
	}
	if xs != nil {
		for i, xn := range xs.names {
			x, err := members(xs.values[i], FormatToolbox, xs.at(xn))
			if err != nil {
				return nil, err
			}
			if err := x.only("type", "partitionKey", "sortKey"); err != nil {
				return nil, err
			}
			if err := checkName(x, "", xn, "index"); err != nil {
				return nil, err
			}
			kind, err := x.str("type")
			if err != nil {
				return nil, err
			}
			if kind == "" { // Toolbox 1: a local index has no partition key
				kind = "global"
				if !x.has("partitionKey") {
					kind = "local"
				}
			}
			var k KeyDef
			switch kind {
			case "global":
				if k.Partition, err = toolboxKey(x, "partitionKey", true); err != nil {
					return nil, err
				}
			case "local":
				if x.has("partitionKey") {
					return nil, x.errf("partitionKey", "a local index's partition key is the table's (%s)", t.Key.Partition)
				}
				k.Partition = t.Key.Partition
			default:
				return nil, x.errf("type", "%q: an index is global or local", kind)
			}
			if k.Sort, err = toolboxKey(x, "sortKey", kind == "local"); err != nil {
				return nil, err
			}
			t.Indexes = append(t.Indexes, &IndexDef{Name: xn, Key: k, At: x.path})
		}
	}
	return &Design{Tables: []*DesignTable{t}, Format: FormatToolbox}, nil
}

// toolboxKey returns key member role of o: an attribute's name, or
// {"name", "type"} (Toolbox 2). need says it must be there.
func toolboxKey(o *object, role string, need bool) (string, error) {
	if !o.has(role) {
		if need {
			return "", o.errf(role, "missing")
		}
		return "", nil
	}
	if s, err := o.str(role); err == nil {
		if s == "" {
			return "", o.errf(role, "missing or empty")
		}
		return s, nil
	}
	k, err := o.object(role)
	if err != nil {
		return "", o.errf(role, "want an attribute's name or {\"name\", \"type\"}")
	}
	if err := k.only("name", "type"); err != nil {
		return "", err
	}
	typ, err := k.str("type")
	if err != nil {
		return "", err
	}
	switch typ {
	case "", "string", "number", "binary":
	default:
		return "", k.errf("type", "%q: a key is a string, number or binary", typ)
	}
	return k.need("name")
}
