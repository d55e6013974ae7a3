package insights

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
)

// A NoSQL Workbench data model (the JSON Workbench exports, "Version":
// "3.0" in its ModelMetadata) as a design:
//
//	{"ModelName": ..., "ModelMetadata": {...},
//	 "DataModel": [{"TableName": "Blog",
//	   "KeyAttributes": {"PartitionKey": {"AttributeName": "PK", "AttributeType": "S"}, "SortKey": {...}},
//	   "NonKeyAttributes": [{"AttributeName": ..., "AttributeType": ...}],
//	   "GlobalSecondaryIndexes": [{"IndexName": ..., "KeyAttributes": {...}, "Projection": {"ProjectionType": "ALL"}}],
//	   "TableFacets": [{"FacetName": "Post", "KeyAttributeAlias": {"PartitionKeyAlias": "{id}", "SortKeyAlias": "post"},
//	                    "NonKeyAttributes": ["GSI2PK", "title"], "TableData": [...]}],
//	   "TableData": [{"PK": {"S": "77fcab6b"}, ...}],
//	   "BillingMode": "PAY_PER_REQUEST", "ProvisionedCapacitySettings": {...}, "DataAccess": {...}, "SampleDataFormats": {...}}],
//	 "dynamoemu": {"tables": {"Blog": {"entities": {...}, "patterns": [...]}}}}
//
// A table is a design table with its key and GSIs; each facet is an
// entity. A facet's key aliases are its templates for the table's key:
// an alias with variables ({id}, ${id} or <id>) is a template; one
// without is a constant when some sample item (TableData) holds it in
// that attribute ("post") or when it is written in capitals and names no
// attribute of the table ("PROFILE", "METADATA": the constant sort keys
// of single-table designs, whose model may have no sample items), else a
// variable named by the alias ("SongId" is {SongId}, "PK" the attribute's
// own value). An index key attribute a facet lists in its
// NonKeyAttributes puts the entity in that index, with a variable named
// by the attribute ({GSI2PK}). A table without facets holds one entity
// named after the table, with a variable for every key attribute.
// Workbench records neither other templates nor access patterns in its
// export, so the "dynamoemu" member may give them: per table, entity
// templates (ATTR: TEMPLATE) and pattern lines of a design file. Without
// patterns they are derived from the entities (design_derive.go). Any
// member the reader does not know is an error naming it.

// WorkbenchModel is what a NoSQL Workbench data model holds of its
// tables: what creating them and loading their sample data needs.
type WorkbenchModel struct {
	Name   string
	Tables []WorkbenchTable
}

// WorkbenchTable is one table of a model.
type WorkbenchTable struct {
	Name string
	Key  KeyDef
	// AttrTypes is the type (S, N or B) of each key attribute of the
	// table and its indexes.
	AttrTypes map[string]string
	Indexes   []WorkbenchIndex
	// BillingMode is PAY_PER_REQUEST or PROVISIONED; ReadCapacity and
	// WriteCapacity the provisioned throughput (0 when not given).
	BillingMode                 string
	ReadCapacity, WriteCapacity int64
	// Items are the sample items (DynamoDB JSON), the table's then each
	// facet's.
	Items []json.RawMessage
}

// WorkbenchIndex is one GSI of a model's table.
type WorkbenchIndex struct {
	Name string
	Key  KeyDef
	// Projection is ALL, KEYS_ONLY or INCLUDE (with NonKeyAttributes).
	Projection       string
	NonKeyAttributes []string
}

// maxModelBytes bounds a JSON design or model: a model's sample data may
// be larger than a design file.
const maxModelBytes = 16 << 20

// ParseWorkbenchModel reads a NoSQL Workbench data model: its tables and
// sample data, and its design.
func ParseWorkbenchModel(src []byte) (*WorkbenchModel, *Design, error) {
	if len(src) > maxModelBytes {
		return nil, nil, &DesignError{Format: FormatWorkbench, Msg: fmt.Sprintf("the model is %d bytes, more than %d", len(src), maxModelBytes)}
	}
	top, err := members(bytes.TrimPrefix(bytes.TrimLeft(src, " \t\r\n"), []byte("\ufeff")), FormatWorkbench, "")
	if err != nil {
		return nil, nil, err
	}
	if !top.has("DataModel") {
		return nil, nil, top.errf("", "no DataModel member: not a NoSQL Workbench data model")
	}
	return readWorkbench(top)
}

func parseWorkbench(top *object) (*Design, error) {
	_, d, err := readWorkbench(top)
	return d, err
}

func readWorkbench(top *object) (*WorkbenchModel, *Design, error) {
	if err := top.only("ModelName", "ModelMetadata", "DataModel", "dynamoemu"); err != nil {
		return nil, nil, err
	}
	m := &WorkbenchModel{}
	var err error
	if m.Name, err = top.str("ModelName"); err != nil {
		return nil, nil, err
	}
	if _, err := top.object("ModelMetadata"); err != nil { // Workbench's: author, dates, version
		return nil, nil, err
	}
	tables, err := top.array("DataModel")
	if err != nil {
		return nil, nil, err
	}
	d := &Design{Format: FormatWorkbench}
	for i, raw := range tables {
		o, err := members(raw, FormatWorkbench, top.elem("DataModel", i))
		if err != nil {
			return nil, nil, err
		}
		wt, dt, err := readWorkbenchTable(o)
		if err != nil {
			return nil, nil, err
		}
		if d.table(dt.Name) != nil {
			return nil, nil, o.errf("TableName", "table %q twice", dt.Name)
		}
		m.Tables = append(m.Tables, wt)
		d.Tables = append(d.Tables, dt)
	}
	own, err := top.object("dynamoemu")
	if err != nil {
		return nil, nil, err
	}
	if own != nil {
		if err := own.only("tables"); err != nil {
			return nil, nil, err
		}
		byTable, err := own.object("tables")
		if err != nil {
			return nil, nil, err
		}
		for i, name := range byTable.namesOrNil() {
			t := d.table(name)
			if t == nil {
				return nil, nil, byTable.errf(name, "no table %q in DataModel", name)
			}
			o, err := members(byTable.values[i], FormatWorkbench, byTable.at(name))
			if err != nil {
				return nil, nil, err
			}
			b, err := readOwnBlock(o)
			if err != nil {
				return nil, nil, err
			}
			if err := b.apply(t, FormatWorkbench); err != nil {
				return nil, nil, err
			}
		}
	}
	d, err = finish(d)
	if err != nil {
		return nil, nil, err
	}
	return m, d, nil
}

// namesOrNil returns o's member names; a nil object has none.
func (o *object) namesOrNil() []string {
	if o == nil {
		return nil
	}
	return o.names
}

// readWorkbenchTable reads one element of DataModel.
func readWorkbenchTable(o *object) (WorkbenchTable, *DesignTable, error) {
	var wt WorkbenchTable
	if err := o.only("TableName", "KeyAttributes", "NonKeyAttributes", "GlobalSecondaryIndexes", "TableFacets",
		"TableData", "DataAccess", "SampleDataFormats", "BillingMode", "ProvisionedCapacitySettings"); err != nil {
		return wt, nil, err
	}
	dt, err := readWorkbenchKey(o, &wt)
	if err != nil {
		return wt, nil, err
	}
	if err := readNonKeyAttributes(o); err != nil {
		return wt, nil, err
	}
	if err := readWorkbenchIndexes(o, &wt, dt); err != nil {
		return wt, nil, err
	}
	if wt.Items, err = o.array("TableData"); err != nil {
		return wt, nil, err
	}
	if err := readBilling(o, &wt); err != nil {
		return wt, nil, err
	}
	for _, n := range []string{"DataAccess", "SampleDataFormats"} { // Workbench's own: imports, sample data generators
		if _, err := o.object(n); err != nil {
			return wt, nil, err
		}
	}
	fs, err := readWorkbenchFacets(o, &wt)
	if err != nil {
		return wt, nil, err
	}
	samples, err := sampleKeys(wt.Items, wt.Key, o.at("TableData"))
	if err != nil {
		return wt, nil, err
	}
	aliasVars, err := facetEntities(fs, wt.Key, dt, samples)
	if err != nil {
		return wt, nil, err
	}
	tableItems := sampleItems(wt.Items)
	completeFacetTemplates(fs, aliasVars, tableItems, wt.Key, dt)
	if len(fs) == 0 {
		tableEntity(o, wt.Key, dt, tableItems)
	}
	return wt, dt, nil
}

// readWorkbenchKey reads a table's TableName and KeyAttributes into wt
// and returns the design table they make.
func readWorkbenchKey(o *object, wt *WorkbenchTable) (*DesignTable, error) {
	name, err := o.need("TableName")
	if err != nil {
		return nil, err
	}
	if err := checkName(o, "TableName", name, "table"); err != nil {
		return nil, err
	}
	wt.Name = name
	wt.AttrTypes = map[string]string{}
	ka, err := o.object("KeyAttributes")
	if err != nil {
		return nil, err
	}
	if ka == nil {
		return nil, o.errf("KeyAttributes", "missing: a table has a key")
	}
	if wt.Key, err = readKeyAttributes(ka, wt.AttrTypes); err != nil {
		return nil, err
	}
	return &DesignTable{Name: name, Key: wt.Key, At: o.path}, nil
}

// readWorkbenchIndexes reads a table's GlobalSecondaryIndexes into wt
// and dt.
func readWorkbenchIndexes(o *object, wt *WorkbenchTable, dt *DesignTable) error {
	gsis, err := o.array("GlobalSecondaryIndexes")
	if err != nil {
		return err
	}
	for i, raw := range gsis {
		x, err := members(raw, FormatWorkbench, o.elem("GlobalSecondaryIndexes", i))
		if err != nil {
			return err
		}
		wi, err := readWorkbenchIndex(x, wt.AttrTypes)
		if err != nil {
			return err
		}
		if dt.index(wi.Name) != nil {
			return x.errf("IndexName", "index %q twice", wi.Name)
		}
		wt.Indexes = append(wt.Indexes, wi)
		dt.Indexes = append(dt.Indexes, &IndexDef{Name: wi.Name, Key: wi.Key, At: x.path})
	}
	return nil
}

// workbenchFacet is one element of a table's TableFacets as read.
type workbenchFacet struct {
	o            *object
	pkA, skA     string
	nonKey       []string
	hasSortAlias bool
	items        []sampleItem // the facet's own TableData
}

// readWorkbenchFacets reads a table's TableFacets, adding each facet's
// TableData to wt's items.
func readWorkbenchFacets(o *object, wt *WorkbenchTable) ([]workbenchFacet, error) {
	facets, err := o.array("TableFacets")
	if err != nil {
		return nil, err
	}
	var fs []workbenchFacet
	for i, raw := range facets {
		f, err := members(raw, FormatWorkbench, o.elem("TableFacets", i))
		if err != nil {
			return nil, err
		}
		ff, err := readWorkbenchFacet(f, wt)
		if err != nil {
			return nil, err
		}
		fs = append(fs, ff)
	}
	return fs, nil
}

// readWorkbenchFacet reads one facet f of table wt.
func readWorkbenchFacet(f *object, wt *WorkbenchTable) (workbenchFacet, error) {
	ff := workbenchFacet{o: f}
	if err := f.only("FacetName", "KeyAttributeAlias", "TableData", "NonKeyAttributes", "DataAccess"); err != nil {
		return ff, err
	}
	if _, err := f.object("DataAccess"); err != nil {
		return ff, err
	}
	items, err := f.array("TableData")
	if err != nil {
		return ff, err
	}
	wt.Items = append(wt.Items, items...)
	ff.items = sampleItems(items)
	alias, err := f.object("KeyAttributeAlias")
	if err != nil {
		return ff, err
	}
	if alias == nil {
		return ff, f.errf("KeyAttributeAlias", "missing: a facet names its key")
	}
	if err := alias.only("PartitionKeyAlias", "SortKeyAlias"); err != nil {
		return ff, err
	}
	if ff.pkA, err = alias.need("PartitionKeyAlias"); err != nil {
		return ff, err
	}
	if ff.skA, err = alias.str("SortKeyAlias"); err != nil {
		return ff, err
	}
	ff.hasSortAlias = alias.has("SortKeyAlias")
	switch {
	case wt.Key.Sort == "" && ff.skA != "":
		return ff, alias.errf("SortKeyAlias", "table %q has no sort key", wt.Name)
	case wt.Key.Sort != "" && ff.skA == "":
		return ff, alias.errf("SortKeyAlias", "missing: table %q has a sort key (%s)", wt.Name, wt.Key.Sort)
	}
	if ff.nonKey, err = f.strings("NonKeyAttributes"); err != nil {
		return ff, err
	}
	return ff, nil
}

// facetEntities adds an entity to dt for each facet, with the templates
// its key aliases give, and returns per facet the table key attributes
// whose alias names a variable, not a template or a constant.
func facetEntities(fs []workbenchFacet, key KeyDef, dt *DesignTable, samples map[string][]string) ([]map[string]string, error) {
	aliasVars := make([]map[string]string, len(fs))
	for i, f := range fs {
		name, err := f.o.need("FacetName")
		if err != nil {
			return nil, err
		}
		if err := checkName(f.o, "FacetName", name, "facet"); err != nil {
			return nil, err
		}
		if dt.entity(name) != nil {
			return nil, f.o.errf("FacetName", "facet %q twice", name)
		}
		e := &Entity{Name: name, Attrs: map[string]Template{}, At: f.o.path}
		aliasVars[i] = map[string]string{}
		aliasAt := f.o.at("KeyAttributeAlias")
		for _, k := range []struct{ attr, alias, field string }{{key.Partition, f.pkA, "PartitionKeyAlias"}, {key.Sort, f.skA, "SortKeyAlias"}} {
			if k.attr == "" {
				continue
			}
			t, variable, err := aliasTemplate(k.alias, samples[k.attr], dt, f.nonKey)
			if err != nil {
				return nil, &DesignError{Format: FormatWorkbench, Field: aliasAt + "." + k.field, Msg: err.Error()}
			}
			e.Attrs[k.attr] = t
			if variable {
				aliasVars[i][k.attr] = t.vars[0]
			}
		}
		dt.Entities = append(dt.Entities, e)
	}
	return aliasVars, nil
}

// completeFacetTemplates completes the facets' entities from their
// items: each facet's own TableData, else the table's items its key
// aliases fit (design_infer.go). A table key alias that names a
// variable takes the type tag and the attribute its values show
// ("USER#{userId}" for the alias "PK"), and each index key attribute the
// facet lists gets its template.
func completeFacetTemplates(fs []workbenchFacet, aliasVars []map[string]string, tableItems []sampleItem, key KeyDef, dt *DesignTable) {
	for i, f := range fs {
		e := dt.Entities[i]
		mine := f.items
		if len(mine) == 0 {
			var attrs [][]string
			for _, o := range fs[:i] {
				attrs = append(attrs, o.nonKey)
			}
			mine = entityItems(tableItems, key, e, f.nonKey, dt.Entities[:i], attrs)
		}
		for _, attr := range []string{key.Partition, key.Sort} {
			if v, ok := aliasVars[i][attr]; ok {
				// An alias that is the attribute's own name ("PK")
				// names no variable: the items may show a constant.
				if t, ok := inferKey(keyEvidence{attr: attr, items: mine, keyAttr: dt.isKeyAttr, name: v, variable: v != attr}); ok {
					e.Attrs[attr] = t
				}
			}
		}
		for _, attr := range f.nonKey {
			if _, ok := e.Attrs[attr]; ok || !dt.isKeyAttr(attr) {
				continue
			}
			if t, _ := inferKey(keyEvidence{attr: attr, items: mine, keyAttr: dt.isKeyAttr}); t.text != "" {
				e.Attrs[attr] = t
			}
		}
	}
}

// tableEntity adds to dt, a table without facets, its items as one
// entity named after the table, in every index.
func tableEntity(o *object, key KeyDef, dt *DesignTable, tableItems []sampleItem) {
	e := &Entity{Name: dt.Name, Attrs: map[string]Template{}, At: o.path}
	for _, k := range append([]KeyDef{key}, indexKeys(dt)...) {
		for _, attr := range []string{k.Partition, k.Sort} {
			if attr != "" && isName(attr) {
				e.Attrs[attr], _ = inferKey(keyEvidence{attr: attr, items: tableItems, keyAttr: dt.isKeyAttr, variable: true})
			}
		}
	}
	if len(e.Attrs) > 0 {
		dt.Entities = append(dt.Entities, e)
	}
}

// indexKeys returns the keys of t's indexes.
func indexKeys(t *DesignTable) []KeyDef {
	var ks []KeyDef
	for _, x := range t.Indexes {
		ks = append(ks, x.Key)
	}
	return ks
}

// knownTemplate parses a template known to be valid.
func knownTemplate(s string) Template {
	t, err := parseTemplate(s)
	if err != nil {
		panic("insights: " + err.Error())
	}
	return t
}

// checkName checks a name a design takes from member field of o.
func checkName(o *object, field, name, what string) error {
	if len(name) > maxName || strings.ContainsAny(name, ",=\n") {
		return o.errf(field, "%s name %q: 1 to %d characters, no ',', '=' or line break", what, name, maxName)
	}
	return nil
}

// readKeyAttributes reads {"PartitionKey": {...}, "SortKey": {...}},
// noting each attribute's type in types.
func readKeyAttributes(o *object, types map[string]string) (KeyDef, error) {
	if err := o.only("PartitionKey", "SortKey"); err != nil {
		return KeyDef{}, err
	}
	var k KeyDef
	for _, role := range []string{"PartitionKey", "SortKey"} {
		a, err := o.object(role)
		if err != nil {
			return KeyDef{}, err
		}
		if a == nil {
			if role == "PartitionKey" {
				return KeyDef{}, o.errf(role, "missing: a key has a partition key")
			}
			continue
		}
		attr, typ, err := readAttribute(a)
		if err != nil {
			return KeyDef{}, err
		}
		if typ != "S" && typ != "N" && typ != "B" {
			return KeyDef{}, a.errf("AttributeType", "a key attribute is S, N or B, not %q", typ)
		}
		if t, ok := types[attr]; ok && t != typ {
			return KeyDef{}, a.errf("AttributeType", "attribute %q is %s elsewhere in the table", attr, t)
		}
		types[attr] = typ
		if role == "PartitionKey" {
			k.Partition = attr
		} else if attr == k.Partition {
			return KeyDef{}, a.errf("AttributeName", "the sort key attribute is the partition key attribute %q", attr)
		} else {
			k.Sort = attr
		}
	}
	return k, nil
}

// readAttribute reads {"AttributeName": ..., "AttributeType": S|N|B}.
func readAttribute(a *object) (string, string, error) {
	if err := a.only("AttributeName", "AttributeType"); err != nil {
		return "", "", err
	}
	name, err := a.need("AttributeName")
	if err != nil {
		return "", "", err
	}
	if err := checkName(a, "AttributeName", name, "attribute"); err != nil {
		return "", "", err
	}
	typ, err := a.need("AttributeType")
	if err != nil {
		return "", "", err
	}
	return name, typ, nil
}

// readNonKeyAttributes checks the table's NonKeyAttributes: the
// attributes Workbench shows, with types of any kind.
func readNonKeyAttributes(o *object) error {
	attrs, err := o.array("NonKeyAttributes")
	if err != nil {
		return err
	}
	for i, raw := range attrs {
		a, err := members(raw, FormatWorkbench, o.elem("NonKeyAttributes", i))
		if err != nil {
			return err
		}
		if _, _, err := readAttribute(a); err != nil {
			return err
		}
	}
	return nil
}

// readWorkbenchIndex reads one of GlobalSecondaryIndexes.
func readWorkbenchIndex(x *object, types map[string]string) (WorkbenchIndex, error) {
	var wi WorkbenchIndex
	if err := x.only("IndexName", "KeyAttributes", "Projection"); err != nil {
		return wi, err
	}
	var err error
	if wi.Name, err = x.need("IndexName"); err != nil {
		return wi, err
	}
	if err := checkName(x, "IndexName", wi.Name, "index"); err != nil {
		return wi, err
	}
	ka, err := x.object("KeyAttributes")
	if err != nil {
		return wi, err
	}
	if ka == nil {
		return wi, x.errf("KeyAttributes", "missing: an index has a key")
	}
	if wi.Key, err = readKeyAttributes(ka, types); err != nil {
		return wi, err
	}
	wi.Projection = "ALL"
	p, err := x.object("Projection")
	if err != nil || p == nil {
		return wi, err
	}
	if err := p.only("ProjectionType", "NonKeyAttributes"); err != nil {
		return wi, err
	}
	if pt, err := p.str("ProjectionType"); err != nil {
		return wi, err
	} else if pt != "" {
		wi.Projection = pt
	}
	if !slices.Contains([]string{"ALL", "KEYS_ONLY", "INCLUDE"}, wi.Projection) {
		return wi, p.errf("ProjectionType", "%q is not ALL, KEYS_ONLY or INCLUDE", wi.Projection)
	}
	wi.NonKeyAttributes, err = p.strings("NonKeyAttributes")
	return wi, err
}

// readBilling reads BillingMode and ProvisionedCapacitySettings.
func readBilling(o *object, wt *WorkbenchTable) error {
	mode, err := o.str("BillingMode")
	if err != nil {
		return err
	}
	switch mode {
	case "", "PAY_PER_REQUEST":
		wt.BillingMode = "PAY_PER_REQUEST"
	case "PROVISIONED":
		wt.BillingMode = mode
	default:
		return o.errf("BillingMode", "%q is not PAY_PER_REQUEST or PROVISIONED", mode)
	}
	pcs, err := o.object("ProvisionedCapacitySettings")
	if err != nil || pcs == nil {
		return err
	}
	// Auto scaling is Application Auto Scaling's, which the emulator
	// does not run: its settings are read for their shape only.
	if err := pcs.only("ProvisionedThroughput", "AutoScalingRead", "AutoScalingWrite"); err != nil {
		return err
	}
	for _, n := range []string{"AutoScalingRead", "AutoScalingWrite"} {
		if _, err := pcs.object(n); err != nil {
			return err
		}
	}
	pt, err := pcs.object("ProvisionedThroughput")
	if err != nil || pt == nil {
		return err
	}
	if err := pt.only("ReadCapacityUnits", "WriteCapacityUnits"); err != nil {
		return err
	}
	for _, f := range []struct {
		name string
		dst  *int64
	}{{"ReadCapacityUnits", &wt.ReadCapacity}, {"WriteCapacityUnits", &wt.WriteCapacity}} {
		raw := pt.get(f.name)
		if raw == nil {
			continue
		}
		if err := json.Unmarshal(raw, f.dst); err != nil || *f.dst < 1 {
			return pt.errf(f.name, "want a whole number of at least 1")
		}
	}
	return nil
}

// sampleKeys returns, per key attribute, the S values the sample items
// hold in it, for telling a facet's constant aliases from its variables.
func sampleKeys(items []json.RawMessage, key KeyDef, at string) (map[string][]string, error) {
	out := map[string][]string{}
	for i, raw := range items {
		it, err := members(raw, FormatWorkbench, fmt.Sprintf("%s[%d]", at, i))
		if err != nil {
			return nil, err
		}
		for _, attr := range []string{key.Partition, key.Sort} {
			v := it.get(attr)
			if attr == "" || v == nil {
				continue
			}
			var av struct{ S *string }
			if json.Unmarshal(v, &av) == nil && av.S != nil {
				out[attr] = append(out[attr], *av.S)
			}
		}
	}
	return out, nil
}

// aliasTemplate is a facet's key alias for attribute attr as a
// template (see the top of the file): samples are the values the sample
// items hold in the attribute. variable: the alias names a variable
// ("SongId", "PK"), whose type tag the facet's items may show. The
// table's attributes are dt's key attributes and the facet's nonKey.
func aliasTemplate(alias string, samples []string, dt *DesignTable, nonKey []string) (Template, bool, error) {
	text, vars, err := convertTemplate(alias, braces|dollarBraces|angles)
	if err != nil {
		return Template{}, false, err
	}
	capitals := strings.ToUpper(alias) == alias
	if !vars && !slices.Contains(samples, alias) && isName(alias) && (!capitals || dt.isKeyAttr(alias) || slices.Contains(nonKey, alias)) {
		return knownTemplate("{" + alias + "}"), true, nil
	}
	t, err := parseTemplate(text)
	return t, false, err
}
