package insights

import (
	"bytes"
	"encoding/json"
	"strings"

	"github.com/dynamoemu/dynamoemu/internal/jsonkind"
)

// ElectroDB entity schemas (the objects `new Entity(schema)` takes, as
// JSON: one, or an array of the entities of one table) as a design:
//
//	{"model": {"entity": "post", "version": "1", "service": "blog"},
//	 "attributes": {"id": {"type": "string"}, ...},
//	 "indexes": {"byId": {"pk": {"field": "PK", "composite": ["id"], "template": "${id}", "casing": "none"},
//	                      "sk": {"field": "SK", "composite": []}},
//	             "newest": {"index": "GSI1", "collection": "feed", "pk": {...}, "sk": {...}}}}
//
// The access pattern without "index" is the table's key; the others name
// the table's secondary indexes. Each entity is an entity, its template
// for each key field its access patterns' template (${attr} is a
// variable), or ElectroDB's default key: "$service#attr_{attr}#..." for
// a partition key, "$entity_version#attr_{attr}#..." for a sort key
// (after "$collection#" when the index names a collection); literal
// text is lower case unless the key's casing is "none" or "upper". Each
// access pattern is a pattern of that name (the entity's name first when
// two entities use one name): a query by the partition key and, when the
// sort key template leads with text, sk begins_with it, as ElectroDB
// queries; the table's key's is a get of the full key as well when the
// sort key has composite attributes ("NAME-get"), else only the get. An
// entity names no table: the first request to a table the design does
// not name names it (the report says so). Writes and descriptions are
// not in the format.
//
// Each level is read into a Go struct (decodeMembers, design_decode.go).
// The members are closed (membersClosed): ElectroDB's documentation
// gives an entity's schema (model, attributes, indexes), its model
// (entity, version, service), an access pattern (index, collection,
// type, pk, sk) and a key (field, composite, template, cast, casing) as
// fixed TypeScript object types (electrodb.dev, Modeling: Schema and
// Indexes, "Index Definition"); besides those the reader takes filters
// and facets (composite's older name) of earlier versions, scope and
// condition of later ones. So a member the reader does not know is an
// error naming it. The names of
// attributes and access patterns are the entity's data, read in the
// file's order (orderedMembers); an attribute's settings are not read.

// FormatElectroDB is ElectroDB's entity schemas.
const FormatElectroDB = "electrodb"

// isElectroDB reports whether top is an ElectroDB entity schema.
func isElectroDB(top *object) bool {
	return top.has("model") && top.has("indexes") && !top.has("models")
}

// parseElectroDBArray parses a JSON array of entity schemas.
func parseElectroDBArray(src []byte) (*Design, error) {
	var raws []json.RawMessage
	if err := json.Unmarshal(src, &raws); err != nil {
		return nil, &DesignError{Format: FormatElectroDB, Msg: "not JSON: " + err.Error()}
	}
	var tops []*object
	for i, raw := range raws {
		o, err := members(raw, FormatElectroDB, "["+itoa(int64(i))+"]")
		if err != nil {
			return nil, err
		}
		tops = append(tops, o)
	}
	return parseElectroDB(tops)
}

// parseElectroDB reads the entities into one table's design.
func parseElectroDB(tops []*object) (*Design, error) {
	if len(tops) == 0 {
		return nil, &DesignError{Format: FormatElectroDB, Msg: "the design declares no table"}
	}
	t := &DesignTable{Unnamed: true}
	var aps []electroAccess
	for _, top := range tops {
		e, more, err := readElectroEntity(top, t)
		if err != nil {
			return nil, err
		}
		aps = append(aps, more...)
		t.Entities = append(t.Entities, e)
	}
	if t.Key.Partition == "" {
		return nil, tops[0].errf("indexes", "no access pattern without \"index\": the table's key")
	}
	for _, a := range aps {
		electroPatterns(t, a)
	}
	d := &Design{Tables: []*DesignTable{t}, Format: FormatElectroDB}
	if err := t.resolve(d.Format); err != nil {
		return nil, err
	}
	return d, nil
}

// electroEntity is one entity schema.
type electroEntity struct {
	Model      json.RawMessage `json:"model"` // an electroModel
	Attributes orderedMembers  `json:"attributes"`
	Indexes    orderedMembers  `json:"indexes"` // access patterns: electroIndex
	Filters    json.RawMessage `json:"filters"`
}

// electroModel is an entity's model member: its names.
type electroModel struct {
	Entity  string `json:"entity"`
	Version string `json:"version"`
	Service string `json:"service"`
}

// electroIndex is one access pattern of an entity.
type electroIndex struct {
	Index      string          `json:"index"`      // "" for the table's key
	Collection json.RawMessage `json:"collection"` // a name or a list of names
	Type       string          `json:"type"`       // isolated, clustered
	PK         json.RawMessage `json:"pk"`         // an electroKey
	SK         json.RawMessage `json:"sk"`
	Scope      string          `json:"scope"`
	Condition  json.RawMessage `json:"condition"` // a function: not JSON
}

// electroKey is one key of an access pattern.
type electroKey struct {
	Field     string          `json:"field"`
	Composite []string        `json:"composite"`
	Template  string          `json:"template"`
	Casing    string          `json:"casing"`
	Cast      string          `json:"cast"`
	Facets    json.RawMessage `json:"facets"` // composite's older name
}

// electroAccess is one access pattern of an entity as read.
type electroAccess struct {
	name, entity string
	index        string
	pk, sk       Template
	hasSK, skVar bool
	at           string
}

// readElectroEntity reads one entity schema top of table t: its entity
// and its access patterns, which key t and its indexes.
func readElectroEntity(top *object, t *DesignTable) (*Entity, []electroAccess, error) {
	top.format = FormatElectroDB
	var s electroEntity
	if err := decodeMembers(top.raw, FormatElectroDB, top.path, membersClosed, &s); err != nil {
		return nil, nil, err
	}
	m, err := readElectroModel(s.Model, top, t)
	if err != nil {
		return nil, nil, err
	}
	for _, named := range []struct {
		member string
		m      orderedMembers
	}{{"attributes", s.Attributes}, {"indexes", s.Indexes}} {
		if name := named.m.twice(); name != "" {
			return nil, nil, top.errf(named.member+"."+name, "the member appears twice")
		}
	}
	if len(s.Indexes) == 0 {
		return nil, nil, top.errf("indexes", "missing: an entity has its table's key")
	}
	e := &Entity{Name: m.Entity, Attrs: map[string]Template{}, At: top.path}
	var aps []electroAccess
	for _, nx := range s.Indexes {
		xo := &object{format: FormatElectroDB, path: top.at("indexes." + nx.Name)}
		a, key, err := readElectroAccess(nx, xo, m, e)
		if err != nil {
			return nil, nil, err
		}
		if err := placeElectroKey(t, xo, a.index, key); err != nil {
			return nil, nil, err
		}
		aps = append(aps, a)
	}
	return e, aps, nil
}

// readElectroModel reads raw, the model member of entity schema top; its
// entity name is new in t.
func readElectroModel(raw json.RawMessage, top *object, t *DesignTable) (electroModel, error) {
	var m electroModel
	if raw == nil {
		return m, top.errf("model", "missing: an entity names itself")
	}
	mo := &object{format: FormatElectroDB, path: top.at("model")}
	if err := decodeMembers(raw, FormatElectroDB, mo.path, membersClosed, &m); err != nil {
		return m, err
	}
	for _, f := range []struct{ name, value string }{{"entity", m.Entity}, {"version", m.Version}, {"service", m.Service}} {
		if f.value == "" {
			return m, mo.errf(f.name, "missing or empty")
		}
	}
	if err := checkName(mo, "entity", m.Entity, "entity"); err != nil {
		return m, err
	}
	if t.entity(m.Entity) != nil {
		return m, mo.errf("entity", "entity %q twice", m.Entity)
	}
	return m, nil
}

// readElectroAccess reads access pattern nx, at xo, of entity e of model
// m: the pattern and the key it uses; its keys' templates join e's.
func readElectroAccess(nx namedRaw, xo *object, m electroModel, e *Entity) (electroAccess, KeyDef, error) {
	var key KeyDef
	a := electroAccess{name: nx.Name, entity: m.Entity, at: xo.path}
	var x electroIndex
	if err := decodeMembers(nx.Value, FormatElectroDB, xo.path, membersClosed, &x); err != nil {
		return a, key, err
	}
	if err := checkName(xo, "", nx.Name, "access pattern"); err != nil {
		return a, key, err
	}
	a.index = x.Index
	collection, err := electroCollection(x.Collection, xo)
	if err != nil {
		return a, key, err
	}
	for _, k := range []struct {
		role string
		raw  json.RawMessage
	}{{"pk", x.PK}, {"sk", x.SK}} {
		if k.raw == nil {
			if k.role == "pk" {
				return a, key, xo.errf("pk", "missing: an access pattern has a partition key")
			}
			continue
		}
		ko := &object{format: FormatElectroDB, path: xo.at(k.role)}
		field, tpl, vars, err := readElectroKey(k.raw, ko, k.role, m, collection)
		if err != nil {
			return a, key, err
		}
		if prev, ok := e.Attrs[field]; ok && prev.String() != tpl.String() {
			return a, key, ko.errf("field", "entity %q has template %q for %s already", m.Entity, prev, field)
		}
		e.Attrs[field] = tpl
		if k.role == "pk" {
			key.Partition, a.pk = field, tpl
		} else {
			key.Sort, a.sk, a.hasSK, a.skVar = field, tpl, true, vars
		}
	}
	if key.Sort == key.Partition {
		return a, key, xo.errf("sk", "the sort key field is the partition key field %q", key.Partition)
	}
	return a, key, nil
}

// electroCollection reads an access pattern's collection, raw, at xo: a
// name or several, the first of which prefixes the key.
func electroCollection(raw json.RawMessage, xo *object) (string, error) {
	if raw == nil {
		return "", nil
	}
	var name string
	if json.Unmarshal(raw, &name) == nil {
		return name, nil
	}
	var names []string
	if json.Unmarshal(raw, &names) == nil && len(names) > 0 {
		return names[0], nil
	}
	return "", xo.errf("collection", "want a string, found %s", jsonkind.Of(raw))
}

// placeElectroKey makes key, used by access pattern x, t's key (no
// index) or index's key, refusing one that differs from another
// pattern's.
func placeElectroKey(t *DesignTable, x *object, index string, key KeyDef) error {
	if index == "" {
		if t.Key.Partition != "" && t.Key != key {
			return x.errf("pk", "the table's key is %s, %s in another entity", t.Key.Partition, t.Key.Sort)
		}
		t.Key = key
		return nil
	}
	if err := checkName(x, "index", index, "index"); err != nil {
		return err
	}
	if prev := t.index(index); prev == nil {
		t.Indexes = append(t.Indexes, &IndexDef{Name: index, Key: key, At: x.path})
	} else if prev.Key != key {
		return x.errf("index", "index %q is keyed %s, %s in another access pattern", index, prev.Key.Partition, prev.Key.Sort)
	}
	return nil
}

// electroPatterns adds to t the patterns of access pattern a: a query,
// and for the table's key a get (with the query as NAME-query when the
// sort key has variables).
func electroPatterns(t *DesignTable, a electroAccess) {
	add := func(pt *Pattern) {
		if t.hasPattern(pt.Name) {
			pt.Name = a.entity + "-" + pt.Name
		}
		for n := 2; t.hasPattern(pt.Name); n++ {
			pt.Name = a.entity + "-" + a.name + "-" + itoa(int64(n))
		}
		t.Patterns = append(t.Patterns, pt)
	}
	q := &Pattern{Name: a.name, Access: Query, Index: a.index, Entities: []string{a.entity}, PK: a.pk, HasPK: true, At: a.at}
	x := &IndexDef{Key: t.Key}
	if a.index != "" {
		x = t.index(a.index)
	}
	if a.hasSK && a.sk.lead() != "" && sharesPartition(t, x, t.entity(a.entity)) {
		q.SortOp, q.SK = SortBeginsWith, knownTemplate(a.sk.lead())
	}
	if a.index != "" {
		add(q)
		return
	}
	g := &Pattern{Name: a.name, Access: Get, Entities: []string{a.entity}, PK: a.pk, HasPK: true, At: a.at}
	if a.hasSK {
		g.SortOp, g.SK = SortEQ, a.sk
	}
	add(g)
	if a.skVar {
		q.Name = a.name + "-query"
		add(q)
	}
}

// readElectroKey reads raw, the key of role (pk or sk) at ko of an
// access pattern of model m: its field and its template, and whether the
// template has variables.
func readElectroKey(raw json.RawMessage, ko *object, role string, m electroModel, collection string) (string, Template, bool, error) {
	var k electroKey
	if err := decodeMembers(raw, FormatElectroDB, ko.path, membersClosed, &k); err != nil {
		return "", Template{}, false, err
	}
	if k.Field == "" {
		return "", Template{}, false, ko.errf("field", "missing or empty")
	}
	if err := checkName(ko, "field", k.Field, "attribute"); err != nil {
		return "", Template{}, false, err
	}
	text, vars := k.Template, false
	var err error
	if text != "" {
		if text, vars, err = convertTemplate(text, dollarBraces); err != nil {
			return "", Template{}, false, ko.errf("template", "%v", err)
		}
	} else if text, vars, err = electroDefaultKey(&k, ko, role, m, collection); err != nil {
		return "", Template{}, false, err
	}
	switch k.Casing {
	case "", "default", "lower":
		text = caseLiterals(text, strings.ToLower)
	case "upper":
		text = caseLiterals(text, strings.ToUpper)
	case "none":
	default:
		return "", Template{}, false, ko.errf("casing", "%q is not upper, lower or none", k.Casing)
	}
	tpl, err := parseTemplate(text)
	if err != nil {
		return "", Template{}, false, ko.errf("template", "%v", err)
	}
	return k.Field, tpl, vars, nil
}

// electroDefaultKey is ElectroDB's key of role for k, at ko, without a
// template: "$service#attr_{attr}..." for a partition key,
// "$[collection#]entity_version#attr_{attr}..." for a sort key; and
// whether it has variables.
func electroDefaultKey(k *electroKey, ko *object, role string, m electroModel, collection string) (string, bool, error) {
	var b strings.Builder
	if role == "pk" {
		b.WriteString("$" + m.Service)
	} else {
		b.WriteString("$")
		if collection != "" {
			b.WriteString(collection + "#")
		}
		b.WriteString(m.Entity + "_" + m.Version)
	}
	for _, c := range k.Composite {
		if !isName(c) {
			return "", false, ko.errf("composite", "%q is no variable name (letters, digits, _)", c)
		}
		b.WriteString("#" + c + "_{" + c + "}")
	}
	return b.String(), len(k.Composite) > 0, nil
}

// caseLiterals applies f to a template's literal text, not its variable
// names.
func caseLiterals(text string, f func(string) string) string {
	var b bytes.Buffer
	for {
		i := strings.IndexByte(text, '{')
		j := strings.IndexByte(text, '}')
		if i < 0 || j < i {
			b.WriteString(f(text))
			return b.String()
		}
		b.WriteString(f(text[:i]))
		b.WriteString(text[i : j+1])
		text = text[j+1:]
	}
}
