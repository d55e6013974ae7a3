package insights

import (
	"encoding/json"
	"slices"
	"strings"

	"github.com/dynamoemu/dynamoemu/internal/jsonkind"
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
// file, as in a Workbench model. Without patterns they are derived
// (design_derive.go). Sample items are not loaded (-load reads Workbench
// models).
//
// Each level is read into a Go struct (decodeMembers, design_decode.go).
// The members are closed (membersClosed) where OneTable's documentation
// gives a fixed set: the top level and a saved query ("All other
// properties are RESERVED": OneTable Schema Specification 1.1.0,
// sensedeep/dynamodb-onetable doc/schema-1.1.0.md), params and a model's
// field ("All other values ... MUST be considered RESERVED", with the
// library's own members: doc.onetable.io, Schemas: Params and Models),
// an index (the specification's hash, sort and project, the library's
// type and follow: doc.onetable.io, Modeling); so a member the reader
// does not know is an error naming it. extensions is open: its members
// are other tools' ("a reliably unique property name"), and only
// dynamoemu's is read. The names of indexes, models, a model's fields
// and queries are the schema's data, read in the file's order
// (orderedMembers).

// oneTableSchema is a OneTable schema's top level.
type oneTableSchema struct {
	Format      string            `json:"format"`
	Version     string            `json:"version"`
	Indexes     orderedMembers    `json:"indexes"` // of oneTableIndex
	Models      orderedMembers    `json:"models"`  // of models: objects of oneTableField
	Params      json.RawMessage   `json:"params"`  // a oneTableParams
	Queries     orderedMembers    `json:"queries"` // of oneTableQuery
	Items       []json.RawMessage `json:"items"`
	Description string            `json:"description"`
	Extensions  json.RawMessage   `json:"extensions"` // a oneTableExtensions
}

// oneTableIndex is one of the schema's indexes: the specification's
// hash, sort and project, the library's type and follow.
type oneTableIndex struct {
	Hash    string          `json:"hash"`
	Sort    string          `json:"sort"`
	Project json.RawMessage `json:"project"` // all, keys or a list of attributes
	Type    string          `json:"type"`    // local, global; "" for global
	Follow  bool            `json:"follow"`
}

// oneTableParams is the schema's settings, none of which changes the keys.
type oneTableParams struct {
	TypeField    string          `json:"typeField"`
	IsoDates     bool            `json:"isoDates"`
	CreatedField string          `json:"createdField"`
	UpdatedField string          `json:"updatedField"`
	Hidden       bool            `json:"hidden"`
	Nulls        bool            `json:"nulls"`
	Timestamps   json.RawMessage `json:"timestamps"` // true, false, "create" or "update"
	Separator    string          `json:"separator"`
	Warn         bool            `json:"warn"`
}

// oneTableField is one field of a model: the specification's members and
// the OneTable library's. Only map and value say anything of the keys.
type oneTableField struct {
	Type      string          `json:"type"`
	Value     json.RawMessage `json:"value"` // a template string, for a key attribute
	Map       string          `json:"map"`
	Required  bool            `json:"required"`
	Default   json.RawMessage `json:"default"`
	UUID      json.RawMessage `json:"uuid"`
	Generate  json.RawMessage `json:"generate"`
	Validate  json.RawMessage `json:"validate"`
	Enum      json.RawMessage `json:"enum"`
	Hidden    json.RawMessage `json:"hidden"`
	Crypt     json.RawMessage `json:"crypt"`
	Filter    json.RawMessage `json:"filter"`
	Nulls     json.RawMessage `json:"nulls"`
	Reference json.RawMessage `json:"reference"`
	Unique    json.RawMessage `json:"unique"`
	Encode    json.RawMessage `json:"encode"`
	IsoDates  json.RawMessage `json:"isoDates"`
	Items     json.RawMessage `json:"items"`
	Partial   json.RawMessage `json:"partial"`
	Scale     json.RawMessage `json:"scale"`
	Schema    json.RawMessage `json:"schema"`
	Timestamp json.RawMessage `json:"timestamp"`
	TTL       json.RawMessage `json:"ttl"`
}

// oneTableQuery is a saved query.
type oneTableQuery struct {
	Name      string            `json:"name"`
	Hash      string            `json:"hash"`
	Sort      json.RawMessage   `json:"sort"` // a template, or two for Between
	Index     string            `json:"index"`
	Limit     json.RawMessage   `json:"limit"`
	Model     string            `json:"model"`
	Operation string            `json:"operation"`
	Schema    string            `json:"schema"`
	Type      string            `json:"type"` // Scan, Query, Entity
	Filters   []json.RawMessage `json:"filters"`
}

// oneTableExtensions is the extensions member: open, only dynamoemu's
// block is read.
type oneTableExtensions struct {
	Dynamoemu json.RawMessage `json:"dynamoemu"`
}

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
	var s oneTableSchema
	if err := decodeMembers(top.raw, FormatOneTable, top.path, membersClosed, &s); err != nil {
		return nil, err
	}
	if s.Format != "" && !strings.HasPrefix(s.Format, "onetable:") {
		return nil, top.errf("format", "%q is not onetable:<version>", s.Format)
	}
	if s.Params != nil {
		if err := decodeMembers(s.Params, FormatOneTable, top.at("params"), membersClosed, &oneTableParams{}); err != nil {
			return nil, err
		}
	}
	own, table, err := readOneTableExtensions(s.Extensions, top.at("extensions"))
	if err != nil {
		return nil, err
	}
	if err := checkName(top, "extensions.dynamoemu.table", table, "table"); err != nil {
		return nil, err
	}
	// A schema names no table: without dynamoemu's extension the first
	// request to a table the design does not name names it.
	t := &DesignTable{Name: table, At: top.at("indexes"), Unnamed: table == ""}
	if err := readOneTableIndexes(s.Indexes, t); err != nil {
		return nil, err
	}
	if err := readOneTableModels(s.Models, t); err != nil {
		return nil, err
	}
	if err := readOneTableQueries(s.Queries, t); err != nil {
		return nil, err
	}
	if err := own.apply(t, FormatOneTable); err != nil {
		return nil, err
	}
	return finish(&Design{Tables: []*DesignTable{t}, Format: FormatOneTable})
}

// readOneTableExtensions reads raw, the extensions member at path at:
// dynamoemu's block and the table it names, if any. Other tools'
// extensions are theirs.
func readOneTableExtensions(raw json.RawMessage, at string) (ownBlock, string, error) {
	if raw == nil {
		return ownBlock{}, "", nil
	}
	var ext oneTableExtensions
	if err := decodeMembers(raw, FormatOneTable, at, membersOpen, &ext); err != nil || ext.Dynamoemu == nil {
		return ownBlock{}, "", err
	}
	o, err := members(ext.Dynamoemu, FormatOneTable, at+".dynamoemu")
	if err != nil {
		return ownBlock{}, "", err
	}
	own, err := readOwnBlock(o, "table")
	if err != nil {
		return own, "", err
	}
	table, err := o.str("table")
	return own, table, err
}

// readOneTableIndexes reads indexes into t's key and indexes, primary
// first: a local index takes its hash.
func readOneTableIndexes(xs orderedMembers, t *DesignTable) error {
	if name := xs.twice(); name != "" {
		return &DesignError{Format: FormatOneTable, Field: "indexes." + name, Msg: "the member appears twice"}
	}
	i := slices.IndexFunc(xs, func(nx namedRaw) bool { return nx.Name == "primary" })
	if i < 0 {
		return &DesignError{Format: FormatOneTable, Field: "indexes.primary", Msg: "missing: the table's key"}
	}
	order := append(orderedMembers{xs[i]}, slices.Delete(slices.Clone(xs), i, i+1)...)
	for _, nx := range order {
		if err := readOneTableIndex(nx, t); err != nil {
			return err
		}
	}
	return nil
}

// readOneTableIndex reads index nx: t's key when it is primary, else one
// of t's indexes.
func readOneTableIndex(nx namedRaw, t *DesignTable) error {
	at := "indexes." + nx.Name
	var x oneTableIndex
	if err := decodeMembers(nx.Value, FormatOneTable, at, membersClosed, &x); err != nil {
		return err
	}
	xo := &object{format: FormatOneTable, path: at}
	primary := nx.Name == "primary"
	k := KeyDef{Partition: x.Hash, Sort: x.Sort}
	switch x.Type {
	case "", "global":
	case "local":
		if primary {
			return xo.errf("type", "the primary index is the table's key, not a local index")
		}
		if k.Partition != "" && k.Partition != t.Key.Partition {
			return xo.errf("hash", "a local index's hash is the table's (%s)", t.Key.Partition)
		}
		k.Partition = t.Key.Partition
	default:
		return xo.errf("type", "%q is not local or global", x.Type)
	}
	if k.Partition == "" {
		return xo.errf("hash", "missing: an index has a partition key")
	}
	if k.Sort == k.Partition {
		return xo.errf("sort", "the sort key attribute is the partition key attribute %q", k.Sort)
	}
	for _, f := range []struct{ field, attr string }{{"hash", k.Partition}, {"sort", k.Sort}} {
		if err := checkName(xo, f.field, f.attr, "attribute"); err != nil {
			return err
		}
	}
	if primary {
		t.Key = k
		return nil
	}
	if err := checkName(xo, "", nx.Name, "index"); err != nil {
		return err
	}
	t.Indexes = append(t.Indexes, &IndexDef{Name: nx.Name, Key: k, At: at})
	return nil
}

// namedMembers reads raw, an object at path at whose member names are
// data (a model's fields), into its members in the file's order.
func namedMembers(raw json.RawMessage, format, at string) (orderedMembers, error) {
	o, err := members(raw, format, at)
	if err != nil {
		return nil, err
	}
	m := make(orderedMembers, len(o.names))
	for i, name := range o.names {
		m[i] = namedRaw{Name: name, Value: o.values[i]}
	}
	return m, nil
}

// readOneTableModels reads models into t's entities.
func readOneTableModels(ms orderedMembers, t *DesignTable) error {
	if name := ms.twice(); name != "" {
		return &DesignError{Format: FormatOneTable, Field: "models." + name, Msg: "the member appears twice"}
	}
	for _, nm := range ms {
		at := "models." + nm.Name
		fields, err := namedMembers(nm.Value, FormatOneTable, at)
		if err != nil {
			return err
		}
		if err := checkName(&object{format: FormatOneTable, path: at}, "", nm.Name, "model"); err != nil {
			return err
		}
		e := &Entity{Name: nm.Name, Attrs: map[string]Template{}, At: at}
		for _, nf := range fields {
			if err := readOneTableField(nf, at+"."+nf.Name, t, e); err != nil {
				return err
			}
		}
		t.Entities = append(t.Entities, e)
	}
	return nil
}

// readOneTableField reads field nf, at path at, of model e: when its
// attribute is a key attribute of t, its template joins e's.
func readOneTableField(nf namedRaw, at string, t *DesignTable, e *Entity) error {
	var f oneTableField
	if err := decodeMembers(nf.Value, FormatOneTable, at, membersClosed, &f); err != nil {
		return err
	}
	fo := &object{format: FormatOneTable, path: at}
	attr := f.Map
	if attr == "" {
		attr = nf.Name
	}
	if strings.Contains(attr, ".") || !t.isKeyAttr(attr) {
		return nil // packed into a map, or not a key: no template
	}
	if _, dup := e.Attrs[attr]; dup {
		return fo.errf("map", "a second field for key attribute %q", attr)
	}
	value := "{" + nf.Name + "}"
	if f.Value != nil {
		var s string
		if json.Unmarshal(f.Value, &s) != nil {
			return fo.errf("value", "a key attribute's value is a template string, found %s", jsonkind.Of(f.Value))
		}
		var err error
		if value, _, err = convertTemplate(s, dollarBraces); err != nil {
			return fo.errf("value", "%v", err)
		}
	} else if !isName(nf.Name) {
		return fo.errf("", "key attribute %q has no value template, and its field name is no variable name", attr)
	}
	tpl, err := parseTemplate(value)
	if err != nil {
		return fo.errf("value", "%v", err)
	}
	e.Attrs[attr] = tpl
	return nil
}

// readOneTableQueries reads the saved queries into t's patterns.
func readOneTableQueries(qs orderedMembers, t *DesignTable) error {
	if name := qs.twice(); name != "" {
		return &DesignError{Format: FormatOneTable, Field: "queries." + name, Msg: "the member appears twice"}
	}
	for _, nq := range qs {
		pt, err := readOneTableQuery(nq, t)
		if err != nil {
			return err
		}
		t.Patterns = append(t.Patterns, pt)
	}
	return nil
}

// readOneTableQuery reads saved query nq of t as a pattern.
func readOneTableQuery(nq namedRaw, t *DesignTable) (*Pattern, error) {
	at := "queries." + nq.Name
	var q oneTableQuery
	if err := decodeMembers(nq.Value, FormatOneTable, at, membersClosed, &q); err != nil {
		return nil, err
	}
	qo := &object{format: FormatOneTable, path: at}
	if err := checkName(qo, "", nq.Name, "query"); err != nil {
		return nil, err
	}
	pt := &Pattern{Name: nq.Name, Access: Query, At: at}
	switch q.Type {
	case "Scan":
		pt.Access = Scan
	case "", "Query", "Entity":
	default:
		return nil, qo.errf("type", "%q is not Scan, Query or Entity", q.Type)
	}
	if q.Index != "primary" {
		pt.Index = q.Index
	}
	switch {
	case q.Model != "":
		pt.Entities = []string{q.Model}
	case q.Type == "Entity":
		return nil, qo.errf("model", "missing: an Entity query names its model")
	default:
		key, _ := t.keyOf(pt.Index)
		for _, e := range t.Entities {
			if e.inKey(key) {
				pt.Entities = append(pt.Entities, e.Name)
			}
		}
	}
	if pt.Access == Query {
		if err := readOneTableKeyCondition(&q, qo, pt); err != nil {
			return nil, err
		}
		// Equal on the table's full key reads one item: a get.
		if pt.Index == "" && (t.Key.Sort != "" && pt.SortOp == SortEQ || t.Key.Sort == "" && pt.SortOp == SortNone) {
			pt.Access = Get
		}
	}
	return pt, nil
}

// readOneTableKeyCondition reads saved query q's hash, operation and
// sort; qo is where q is, for errors.
func readOneTableKeyCondition(q *oneTableQuery, qo *object, pt *Pattern) error {
	tpl := func(field, s string) (Template, error) {
		text, _, err := convertTemplate(s, dollarBraces)
		if err == nil {
			var t Template
			if t, err = parseTemplate(text); err == nil {
				return t, nil
			}
		}
		return Template{}, qo.errf(field, "%v", err)
	}
	if q.Hash == "" {
		return qo.errf("hash", "missing or empty")
	}
	var err error
	if pt.PK, err = tpl("hash", q.Hash); err != nil {
		return err
	}
	pt.HasPK = true
	if q.Sort == nil {
		return nil // an operation without a sort value selects the whole partition
	}
	so, ok := oneTableSortOp(q.Operation)
	if !ok {
		return qo.errf("operation", "%q is not Equal, Less than, Less than or equal, Greater than, Greater than or equal, Begins with or Between", q.Operation)
	}
	pt.SortOp = so
	if so == SortBetween {
		var two []string
		if json.Unmarshal(q.Sort, &two) != nil || len(two) != 2 {
			return qo.errf("sort", "Between takes two templates: [\"low\", \"high\"]")
		}
		if pt.SK, err = tpl("sort", two[0]); err != nil {
			return err
		}
		pt.SK2, err = tpl("sort", two[1])
		return err
	}
	var sort string
	if err := json.Unmarshal(q.Sort, &sort); err != nil {
		return qo.errf("sort", "want a string, found %s", jsonkind.Of(q.Sort))
	}
	if sort == "" {
		return qo.errf("sort", "missing or empty")
	}
	pt.SK, err = tpl("sort", sort)
	return err
}
