package insights

import (
	"encoding/json"
	"strings"
)

// A OneTable schema (the OneTable Schema Specification, format
// "onetable:1.0.0" or "onetable:1.1.0") as a design of one table:
//
//	{"format": "onetable:1.1.0", "version": "0.1.0",
//	 "indexes": {"primary": {"hash": "PK", "sort": "SK"}, "GSI1": {"hash": "GS1PK", "sort": "GS1SK", "project": "all"}},
//	 "params": {"typeField": "_type"},
//	 "models": {"Post": {"PK": {"type": "string", "value": "post#${id}"}, "id": {"type": "string"}}},
//	 "queries": {"posts of a user": {"index": "GSI1", "model": "Post", "hash": "user#${email}",
//	             "operation": "Begins with", "sort": "post#", "type": "Entity", "limit": 100, "schema": "Current"}},
//	 "items": [...],
//	 "extensions": {"dynamoemu": {"table": "Blog", "entities": {...}, "patterns": [...]}}}
//
// indexes gives the table's key (primary) and its indexes (type "local":
// an LSI, keyed by primary's hash). Each model is an entity: a field
// whose attribute (its name, or its map when that is a plain attribute
// name) is a key attribute of the table or an index has the template of
// its value (${name} is a variable; ${name:size:pad}'s padding is
// dropped), or a variable named by the field when it has no value. Each
// saved query is a pattern: index, model, hash (the partition key
// template), operation and sort (the sort key template; not in the
// specification, whose queries save a hash alone) and type (Scan, Query
// or Entity); limit, filters and schema do not change which key serves
// it and are read for their shape only. A query with Equal on the
// table's full key (the hash alone when the table has no sort key) reads
// one item: it is a get, as OneTable's get runs it. A schema names no
// table: extensions.dynamoemu.table may name it, else the first request
// to a table the design does not name does (the report says so); its
// entities and patterns add templates and pattern lines of a design
// file, as in a Workbench model. Without patterns they are derived (design_derive.go). Sample
// items are not loaded (-load reads Workbench models). Any member the
// reader does not know is an error naming it.

// Members a OneTable model field may have: the specification's and the
// OneTable library's.
var oneTableFieldProps = []string{"type", "value", "map", "required", "default", "uuid", "generate", "validate",
	"enum", "hidden", "crypt", "filter", "nulls", "reference", "unique", "encode", "isoDates", "items",
	"partial", "scale", "schema", "timestamp", "ttl"}

// oneTableSortOp is the sort key condition of a saved query's operation.
func oneTableSortOp(op string) (SortOp, bool) {
	switch op {
	case "Equal":
		return SortEQ, true
	case "Less than":
		return SortLT, true
	case "Less than or equal":
		return SortLE, true
	case "Greater than":
		return SortGT, true
	case "Greater than or equal":
		return SortGE, true
	case "Begins with":
		return SortBeginsWith, true
	case "Between":
		return SortBetween, true
	}
	return SortNone, false
}

func parseOneTable(top *object) (*Design, error) {
	if err := top.only("format", "version", "indexes", "models", "params", "queries", "items", "description", "extensions"); err != nil {
		return nil, err
	}
	for _, n := range []string{"format", "version", "description"} {
		if _, err := top.str(n); err != nil {
			return nil, err
		}
	}
	if f, _ := top.str("format"); f != "" && !strings.HasPrefix(f, "onetable:") {
		return nil, top.errf("format", "%q is not onetable:<version>", f)
	}
	if _, err := top.array("items"); err != nil {
		return nil, err
	}
	if err := readOneTableParams(top); err != nil {
		return nil, err
	}
	var own ownBlock
	table := ""
	ext, err := top.object("extensions")
	if err != nil {
		return nil, err
	}
	if ext != nil { // other tools' extensions are theirs
		o, err := ext.object("dynamoemu")
		if err != nil {
			return nil, err
		}
		if o != nil {
			if own, err = readOwnBlock(o, "table"); err != nil {
				return nil, err
			}
			if table, err = o.str("table"); err != nil {
				return nil, err
			}
		}
	}
	if err := checkName(top, "extensions.dynamoemu.table", table, "table"); err != nil {
		return nil, err
	}
	// A schema names no table: without dynamoemu's extension the first
	// request to a table the design does not name names it.
	t := &DesignTable{Name: table, At: top.at("indexes"), Unnamed: table == ""}
	if err := readOneTableIndexes(top, t); err != nil {
		return nil, err
	}
	if err := readOneTableModels(top, t); err != nil {
		return nil, err
	}
	if err := readOneTableQueries(top, t); err != nil {
		return nil, err
	}
	if err := own.apply(t, FormatOneTable); err != nil {
		return nil, err
	}
	return finish(&Design{Tables: []*DesignTable{t}, Format: FormatOneTable})
}

// readOneTableParams checks params: the schema's settings, none of which
// changes the keys.
func readOneTableParams(top *object) error {
	p, err := top.object("params")
	if err != nil || p == nil {
		return err
	}
	return p.only("typeField", "isoDates", "createdField", "updatedField", "hidden", "nulls", "timestamps", "separator", "warn")
}

// readOneTableIndexes reads indexes into t's key and indexes.
func readOneTableIndexes(top *object, t *DesignTable) error {
	xs, err := top.object("indexes")
	if err != nil {
		return err
	}
	if xs == nil || !xs.has("primary") {
		return top.errf("indexes.primary", "missing: the table's key")
	}
	// primary first: a local index takes its hash.
	order := append([]string{"primary"}, xs.names...)
	for i, name := range order {
		if i > 0 && name == "primary" {
			continue
		}
		x, err := xs.object(name)
		if err != nil {
			return err
		}
		if err := x.only("hash", "sort", "project", "type", "follow"); err != nil {
			return err
		}
		typ, err := x.str("type")
		if err != nil {
			return err
		}
		if typ != "" && typ != "local" && typ != "global" {
			return x.errf("type", "%q is not local or global", typ)
		}
		var k KeyDef
		if k.Partition, err = x.str("hash"); err != nil {
			return err
		}
		if k.Sort, err = x.str("sort"); err != nil {
			return err
		}
		if typ == "local" {
			if name == "primary" {
				return x.errf("type", "the primary index is the table's key, not a local index")
			}
			if k.Partition != "" && k.Partition != t.Key.Partition {
				return x.errf("hash", "a local index's hash is the table's (%s)", t.Key.Partition)
			}
			k.Partition = t.Key.Partition
		}
		if k.Partition == "" {
			return x.errf("hash", "missing: an index has a partition key")
		}
		if k.Sort == k.Partition {
			return x.errf("sort", "the sort key attribute is the partition key attribute %q", k.Sort)
		}
		for _, f := range []struct{ field, attr string }{{"hash", k.Partition}, {"sort", k.Sort}} {
			if err := checkName(x, f.field, f.attr, "attribute"); err != nil {
				return err
			}
		}
		if name == "primary" {
			t.Key = k
			continue
		}
		if err := checkName(xs, name, name, "index"); err != nil {
			return err
		}
		t.Indexes = append(t.Indexes, &IndexDef{Name: name, Key: k, At: x.path})
	}
	return nil
}

// readOneTableModels reads models into t's entities.
func readOneTableModels(top *object, t *DesignTable) error {
	ms, err := top.object("models")
	if err != nil || ms == nil {
		return err
	}
	for _, name := range ms.names {
		m, err := ms.object(name)
		if err != nil {
			return err
		}
		if err := checkName(ms, name, name, "model"); err != nil {
			return err
		}
		e := &Entity{Name: name, Attrs: map[string]Template{}, At: m.path}
		for _, field := range m.names {
			f, err := m.object(field)
			if err != nil {
				return err
			}
			if err := f.only(oneTableFieldProps...); err != nil {
				return err
			}
			attr, err := f.str("map")
			if err != nil {
				return err
			}
			if attr == "" {
				attr = field
			}
			if strings.Contains(attr, ".") || !t.isKeyAttr(attr) {
				continue // packed into a map, or not a key: no template
			}
			if _, dup := e.Attrs[attr]; dup {
				return f.errf("map", "a second field for key attribute %q", attr)
			}
			value := "{" + field + "}"
			if raw := f.get("value"); raw != nil {
				var s string
				if json.Unmarshal(raw, &s) != nil {
					return f.errf("value", "a key attribute's value is a template string, found %s", kindOf(raw))
				}
				if value, _, err = convertTemplate(s, dollarBraces); err != nil {
					return f.errf("value", "%v", err)
				}
			} else if !isName(field) {
				return f.errf("", "key attribute %q has no value template, and its field name is no variable name", attr)
			}
			tpl, err := parseTemplate(value)
			if err != nil {
				return f.errf("value", "%v", err)
			}
			e.Attrs[attr] = tpl
		}
		t.Entities = append(t.Entities, e)
	}
	return nil
}

// readOneTableQueries reads the saved queries into t's patterns.
func readOneTableQueries(top *object, t *DesignTable) error {
	qs, err := top.object("queries")
	if err != nil || qs == nil {
		return err
	}
	for _, name := range qs.names {
		q, err := qs.object(name)
		if err != nil {
			return err
		}
		if err := q.only("name", "hash", "sort", "index", "limit", "model", "operation", "schema", "type", "filters"); err != nil {
			return err
		}
		if err := checkName(qs, name, name, "query"); err != nil {
			return err
		}
		for _, n := range []string{"name", "schema"} {
			if _, err := q.str(n); err != nil {
				return err
			}
		}
		if _, err := q.array("filters"); err != nil {
			return err
		}
		pt := &Pattern{Name: name, Access: Query, At: q.path}
		typ, err := q.str("type")
		if err != nil {
			return err
		}
		switch typ {
		case "Scan":
			pt.Access = Scan
		case "", "Query", "Entity":
		default:
			return q.errf("type", "%q is not Scan, Query or Entity", typ)
		}
		index, err := q.str("index")
		if err != nil {
			return err
		}
		if index != "primary" {
			pt.Index = index
		}
		model, err := q.str("model")
		if err != nil {
			return err
		}
		switch {
		case model != "":
			pt.Entities = []string{model}
		case typ == "Entity":
			return q.errf("model", "missing: an Entity query names its model")
		default:
			key, _ := t.keyOf(pt.Index)
			for _, e := range t.Entities {
				if e.inKey(key) {
					pt.Entities = append(pt.Entities, e.Name)
				}
			}
		}
		if pt.Access == Query {
			if err := readOneTableKeyCondition(q, pt); err != nil {
				return err
			}
			// Equal on the table's full key reads one item: a get.
			if pt.Index == "" && (t.Key.Sort != "" && pt.SortOp == SortEQ || t.Key.Sort == "" && pt.SortOp == SortNone) {
				pt.Access = Get
			}
		}
		for _, prev := range t.Patterns {
			if prev.Name == name {
				return q.errf("", "pattern %q twice", name)
			}
		}
		t.Patterns = append(t.Patterns, pt)
	}
	return nil
}

// readOneTableKeyCondition reads a saved query's hash, operation and sort.
func readOneTableKeyCondition(q *object, pt *Pattern) error {
	tpl := func(field, s string) (Template, error) {
		text, _, err := convertTemplate(s, dollarBraces)
		if err == nil {
			var t Template
			if t, err = parseTemplate(text); err == nil {
				return t, nil
			}
		}
		return Template{}, q.errf(field, "%v", err)
	}
	hash, err := q.need("hash")
	if err != nil {
		return err
	}
	if pt.PK, err = tpl("hash", hash); err != nil {
		return err
	}
	pt.HasPK = true
	op, err := q.str("operation")
	if err != nil {
		return err
	}
	raw := q.get("sort")
	if raw == nil {
		return nil // an operation without a sort value selects the whole partition
	}
	so, ok := oneTableSortOp(op)
	if !ok {
		return q.errf("operation", "%q is not Equal, Less than, Less than or equal, Greater than, Greater than or equal, Begins with or Between", op)
	}
	pt.SortOp = so
	if so == SortBetween {
		var two []string
		if json.Unmarshal(raw, &two) != nil || len(two) != 2 {
			return q.errf("sort", "Between takes two templates: [\"low\", \"high\"]")
		}
		if pt.SK, err = tpl("sort", two[0]); err != nil {
			return err
		}
		pt.SK2, err = tpl("sort", two[1])
		return err
	}
	sort, err := q.need("sort")
	if err != nil {
		return err
	}
	pt.SK, err = tpl("sort", sort)
	return err
}
