package insights

import (
	"bytes"
	"encoding/json"
	"strings"
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

// electroAccess is one access pattern of an entity as read.
type electroAccess struct {
	name, entity string
	index        string
	pk, sk       Template
	hasSK, skVar bool
	at           string
}

// electroModel is an entity's model member: its names.
type electroModel struct {
	entity, version, service string
}

// readElectroEntity reads one entity schema top of table t: its entity
// and its access patterns, which key t and its indexes.
func readElectroEntity(top *object, t *DesignTable) (*Entity, []electroAccess, error) {
	top.format = FormatElectroDB
	if err := top.only("model", "attributes", "indexes", "filters"); err != nil {
		return nil, nil, err
	}
	m, err := readElectroModel(top, t)
	if err != nil {
		return nil, nil, err
	}
	if _, err := top.object("attributes"); err != nil {
		return nil, nil, err
	}
	e := &Entity{Name: m.entity, Attrs: map[string]Template{}, At: top.path}
	xs, err := top.object("indexes")
	if err != nil {
		return nil, nil, err
	}
	if xs == nil || len(xs.names) == 0 {
		return nil, nil, top.errf("indexes", "missing: an entity has its table's key")
	}
	var aps []electroAccess
	for _, name := range xs.names {
		x, err := xs.object(name)
		if err != nil {
			return nil, nil, err
		}
		a, key, err := readElectroAccess(xs, x, name, m, e)
		if err != nil {
			return nil, nil, err
		}
		if err := placeElectroKey(t, x, a.index, key); err != nil {
			return nil, nil, err
		}
		aps = append(aps, a)
	}
	return e, aps, nil
}

// readElectroModel reads an entity's model member; its entity name is
// new in t.
func readElectroModel(top *object, t *DesignTable) (electroModel, error) {
	var em electroModel
	m, err := top.object("model")
	if err != nil {
		return em, err
	}
	if m == nil {
		return em, top.errf("model", "missing: an entity names itself")
	}
	if err := m.only("entity", "version", "service"); err != nil {
		return em, err
	}
	for _, f := range []struct {
		name string
		dst  *string
	}{{"entity", &em.entity}, {"version", &em.version}, {"service", &em.service}} {
		if *f.dst, err = m.need(f.name); err != nil {
			return em, err
		}
	}
	if err := checkName(m, "entity", em.entity, "entity"); err != nil {
		return em, err
	}
	if t.entity(em.entity) != nil {
		return em, m.errf("entity", "entity %q twice", em.entity)
	}
	return em, nil
}

// readElectroAccess reads access pattern x, named name in indexes xs,
// of entity e: the pattern and the key it uses; its keys' templates
// join e's.
func readElectroAccess(xs, x *object, name string, m electroModel, e *Entity) (electroAccess, KeyDef, error) {
	var key KeyDef
	a := electroAccess{name: name, entity: m.entity, at: x.path}
	if err := x.only("index", "collection", "type", "pk", "sk", "scope", "condition"); err != nil {
		return a, key, err
	}
	if err := checkName(xs, name, name, "access pattern"); err != nil {
		return a, key, err
	}
	index, err := x.str("index")
	if err != nil {
		return a, key, err
	}
	a.index = index
	collection, err := x.str("collection")
	if err != nil && x.get("collection") != nil {
		// a collection may be several names: the first prefixes the key
		var cs []string
		if json.Unmarshal(x.get("collection"), &cs) != nil || len(cs) == 0 {
			return a, key, err
		}
		collection = cs[0]
	}
	for _, role := range []string{"pk", "sk"} {
		k, err := x.object(role)
		if err != nil {
			return a, key, err
		}
		if k == nil {
			if role == "pk" {
				return a, key, x.errf("pk", "missing: an access pattern has a partition key")
			}
			continue
		}
		field, tpl, vars, err := readElectroKey(k, role, m.service, m.entity, m.version, collection)
		if err != nil {
			return a, key, err
		}
		if prev, ok := e.Attrs[field]; ok && prev.String() != tpl.String() {
			return a, key, k.errf("field", "entity %q has template %q for %s already", m.entity, prev, field)
		}
		e.Attrs[field] = tpl
		if role == "pk" {
			key.Partition, a.pk = field, tpl
		} else {
			key.Sort, a.sk, a.hasSK, a.skVar = field, tpl, true, vars
		}
	}
	if key.Sort == key.Partition {
		return a, key, x.errf("sk", "the sort key field is the partition key field %q", key.Partition)
	}
	return a, key, nil
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

// readElectroKey reads one key of an access pattern: its field and its
// template, and whether the template has variables.
func readElectroKey(k *object, role, service, entity, version, collection string) (string, Template, bool, error) {
	if err := k.only("field", "composite", "template", "casing", "cast", "facets"); err != nil {
		return "", Template{}, false, err
	}
	field, err := k.need("field")
	if err != nil {
		return "", Template{}, false, err
	}
	if err := checkName(k, "field", field, "attribute"); err != nil {
		return "", Template{}, false, err
	}
	composite, err := k.strings("composite")
	if err != nil {
		return "", Template{}, false, err
	}
	casing, err := k.str("casing")
	if err != nil {
		return "", Template{}, false, err
	}
	text, err := k.str("template")
	if err != nil {
		return "", Template{}, false, err
	}
	vars := false
	if text != "" {
		if text, vars, err = convertTemplate(text, dollarBraces); err != nil {
			return "", Template{}, false, k.errf("template", "%v", err)
		}
	} else {
		var b strings.Builder
		if role == "pk" {
			b.WriteString("$" + service)
		} else {
			if collection != "" {
				b.WriteString("$" + collection + "#")
			} else {
				b.WriteString("$")
			}
			b.WriteString(entity + "_" + version)
		}
		for _, c := range composite {
			if !isName(c) {
				return "", Template{}, false, k.errf("composite", "%q is no variable name (letters, digits, _)", c)
			}
			b.WriteString("#" + c + "_{" + c + "}")
			vars = true
		}
		text = b.String()
	}
	switch casing {
	case "", "default", "lower":
		text = caseLiterals(text, strings.ToLower)
	case "upper":
		text = caseLiterals(text, strings.ToUpper)
	case "none":
	default:
		return "", Template{}, false, k.errf("casing", "%q is not upper, lower or none", casing)
	}
	tpl, err := parseTemplate(text)
	if err != nil {
		return "", Template{}, false, k.errf("template", "%v", err)
	}
	return field, tpl, vars, nil
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
