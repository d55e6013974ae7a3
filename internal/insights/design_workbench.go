package insights

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/dynamoemu/dynamoemu/internal/shapes"
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

// A model's members, a level at a time (decodeMembers). They are closed
// (membersClosed): Workbench exports a fixed set at each level (its
// model's JSON schema, "Version": "3.0"), so a member the reader does
// not know is an error naming it. Members that are Workbench's own
// (ModelMetadata, DataAccess, SampleDataFormats, auto scaling) are read
// for their shape only (shapeOnly).

// workbenchModelJSON is a model's top level.
type workbenchModelJSON struct {
	ModelName     string            `json:"ModelName"`
	ModelMetadata json.RawMessage   `json:"ModelMetadata"` // author, dates, version
	DataModel     []json.RawMessage `json:"DataModel"`     // of workbenchTableJSON
	Dynamoemu     json.RawMessage   `json:"dynamoemu"`     // a workbenchOwn
}

// workbenchTableJSON is one element of DataModel.
type workbenchTableJSON struct {
	TableName                   string            `json:"TableName"`
	KeyAttributes               json.RawMessage   `json:"KeyAttributes"`          // a workbenchKeyAttributes
	NonKeyAttributes            []json.RawMessage `json:"NonKeyAttributes"`       // of shapes.AttributeDefinition[string]
	GlobalSecondaryIndexes      []json.RawMessage `json:"GlobalSecondaryIndexes"` // of workbenchIndexJSON
	TableFacets                 []json.RawMessage `json:"TableFacets"`            // of workbenchFacetJSON
	TableData                   []json.RawMessage `json:"TableData"`              // items, DynamoDB JSON
	DataAccess                  json.RawMessage   `json:"DataAccess"`
	SampleDataFormats           json.RawMessage   `json:"SampleDataFormats"`
	BillingMode                 string            `json:"BillingMode"`
	ProvisionedCapacitySettings json.RawMessage   `json:"ProvisionedCapacitySettings"` // a workbenchCapacity
}

// workbenchKeyAttributes is a table's or an index's KeyAttributes.
type workbenchKeyAttributes struct {
	PartitionKey json.RawMessage `json:"PartitionKey"` // a shapes.AttributeDefinition[string]
	SortKey      json.RawMessage `json:"SortKey"`
}

// workbenchIndexJSON is one of GlobalSecondaryIndexes.
type workbenchIndexJSON struct {
	IndexName     string          `json:"IndexName"`
	KeyAttributes json.RawMessage `json:"KeyAttributes"`
	Projection    json.RawMessage `json:"Projection"` // a shapes.Projection[string]
}

// workbenchFacetJSON is one of TableFacets.
type workbenchFacetJSON struct {
	FacetName         string            `json:"FacetName"`
	KeyAttributeAlias json.RawMessage   `json:"KeyAttributeAlias"` // a workbenchAlias
	TableData         []json.RawMessage `json:"TableData"`
	NonKeyAttributes  []string          `json:"NonKeyAttributes"`
	DataAccess        json.RawMessage   `json:"DataAccess"`
}

// workbenchAlias is a facet's KeyAttributeAlias.
type workbenchAlias struct {
	PartitionKeyAlias string `json:"PartitionKeyAlias"`
	SortKeyAlias      string `json:"SortKeyAlias"`
}

// workbenchCapacity is a table's ProvisionedCapacitySettings. Auto
// scaling is Application Auto Scaling's, which the emulator does not
// run: its settings are read for their shape only.
type workbenchCapacity struct {
	ProvisionedThroughput json.RawMessage `json:"ProvisionedThroughput"` // a shapes.ProvisionedThroughput[json.RawMessage]
	AutoScalingRead       json.RawMessage `json:"AutoScalingRead"`
	AutoScalingWrite      json.RawMessage `json:"AutoScalingWrite"`
}

// workbenchOwn is dynamoemu's block in a model: per table, an ownBlock.
type workbenchOwn struct {
	Tables orderedMembers `json:"tables"`
}

// shapeOnly checks members of the object at path at that are read for
// their shape only: each an object when given, whatever its members.
func shapeOnly(at string, ms ...namedRaw) error {
	for _, m := range ms {
		if m.Value == nil {
			continue
		}
		if _, err := members(m.Value, FormatWorkbench, wbAt(at).at(m.Name)); err != nil {
			return err
		}
	}
	return nil
}

// wbAt is an object of the model at path at, for its errors.
func wbAt(at string) *object { return &object{format: FormatWorkbench, path: at} }

func readWorkbench(top *object) (*WorkbenchModel, *Design, error) {
	var wm workbenchModelJSON
	if err := decodeMembers(top.raw, FormatWorkbench, top.path, membersClosed, &wm); err != nil {
		return nil, nil, err
	}
	if err := shapeOnly(top.path, namedRaw{"ModelMetadata", wm.ModelMetadata}); err != nil {
		return nil, nil, err
	}
	m := &WorkbenchModel{Name: wm.ModelName}
	d := &Design{Format: FormatWorkbench}
	for i, raw := range wm.DataModel {
		at := top.elem("DataModel", i)
		wt, dt, err := readWorkbenchTable(raw, at)
		if err != nil {
			return nil, nil, err
		}
		if d.table(dt.Name) != nil {
			return nil, nil, wbAt(at).errf("TableName", "table %q twice", dt.Name)
		}
		m.Tables = append(m.Tables, wt)
		d.Tables = append(d.Tables, dt)
	}
	if err := readWorkbenchOwn(wm.Dynamoemu, top.at("dynamoemu"), d); err != nil {
		return nil, nil, err
	}
	d, err := finish(d)
	if err != nil {
		return nil, nil, err
	}
	return m, d, nil
}

// readWorkbenchOwn applies dynamoemu's block raw, at path at, to d's
// tables.
func readWorkbenchOwn(raw json.RawMessage, at string, d *Design) error {
	if raw == nil {
		return nil
	}
	var own workbenchOwn
	if err := decodeMembers(raw, FormatWorkbench, at, membersClosed, &own); err != nil {
		return err
	}
	byTable := wbAt(at + ".tables")
	if name := own.Tables.twice(); name != "" {
		return byTable.errf(name, "the member appears twice")
	}
	for _, nt := range own.Tables {
		t := d.table(nt.Name)
		if t == nil {
			return byTable.errf(nt.Name, "no table %q in DataModel", nt.Name)
		}
		b, err := decodeOwnBlock(nt.Value, FormatWorkbench, byTable.at(nt.Name), membersClosed)
		if err != nil {
			return err
		}
		if err := b.apply(t, FormatWorkbench); err != nil {
			return err
		}
	}
	return nil
}

// readWorkbenchTable reads raw, the element of DataModel at path at.
func readWorkbenchTable(raw json.RawMessage, at string) (WorkbenchTable, *DesignTable, error) {
	var wt WorkbenchTable
	var tj workbenchTableJSON
	if err := decodeMembers(raw, FormatWorkbench, at, membersClosed, &tj); err != nil {
		return wt, nil, err
	}
	o := wbAt(at)
	dt, err := readWorkbenchKey(o, &tj, &wt)
	if err != nil {
		return wt, nil, err
	}
	// The attributes Workbench shows, with types of any kind.
	for i, a := range tj.NonKeyAttributes {
		if _, _, err := readAttribute(a, o.elem("NonKeyAttributes", i)); err != nil {
			return wt, nil, err
		}
	}
	if err := readWorkbenchIndexes(o, tj.GlobalSecondaryIndexes, &wt, dt); err != nil {
		return wt, nil, err
	}
	wt.Items = tj.TableData
	if err := shapeOnly(at, namedRaw{"DataAccess", tj.DataAccess}, namedRaw{"SampleDataFormats", tj.SampleDataFormats}); err != nil {
		return wt, nil, err
	}
	if err := readBilling(o, &tj, &wt); err != nil {
		return wt, nil, err
	}
	fs, err := readWorkbenchFacets(o, tj.TableFacets, &wt)
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
		tableEntity(o.path, wt.Key, dt, tableItems)
	}
	return wt, dt, nil
}

// readWorkbenchKey reads a table's TableName and KeyAttributes, of tj
// at o, into wt and returns the design table they make.
func readWorkbenchKey(o *object, tj *workbenchTableJSON, wt *WorkbenchTable) (*DesignTable, error) {
	if tj.TableName == "" {
		return nil, o.errf("TableName", "missing or empty")
	}
	if err := checkName(o, "TableName", tj.TableName, "table"); err != nil {
		return nil, err
	}
	wt.Name = tj.TableName
	wt.AttrTypes = map[string]string{}
	if tj.KeyAttributes == nil {
		return nil, o.errf("KeyAttributes", "missing: a table has a key")
	}
	var err error
	if wt.Key, err = readKeyAttributes(tj.KeyAttributes, o.at("KeyAttributes"), wt.AttrTypes); err != nil {
		return nil, err
	}
	return &DesignTable{Name: wt.Name, Key: wt.Key, At: o.path}, nil
}

// readWorkbenchIndexes reads gsis, the GlobalSecondaryIndexes of the
// table at o, into wt and dt.
func readWorkbenchIndexes(o *object, gsis []json.RawMessage, wt *WorkbenchTable, dt *DesignTable) error {
	for i, raw := range gsis {
		at := o.elem("GlobalSecondaryIndexes", i)
		wi, err := readWorkbenchIndex(raw, at, wt.AttrTypes)
		if err != nil {
			return err
		}
		if dt.index(wi.Name) != nil {
			return wbAt(at).errf("IndexName", "index %q twice", wi.Name)
		}
		wt.Indexes = append(wt.Indexes, wi)
		dt.Indexes = append(dt.Indexes, &IndexDef{Name: wi.Name, Key: wi.Key, At: at})
	}
	return nil
}

// workbenchFacet is one element of a table's TableFacets as read.
type workbenchFacet struct {
	name, at string // FacetName, and the facet's path
	pkA, skA string
	nonKey   []string
	items    []sampleItem // the facet's own TableData
}

// readWorkbenchFacets reads facets, the TableFacets of the table at o,
// adding each facet's TableData to wt's items.
func readWorkbenchFacets(o *object, facets []json.RawMessage, wt *WorkbenchTable) ([]workbenchFacet, error) {
	var fs []workbenchFacet
	for i, raw := range facets {
		ff, err := readWorkbenchFacet(raw, o.elem("TableFacets", i), wt)
		if err != nil {
			return nil, err
		}
		fs = append(fs, ff)
	}
	return fs, nil
}

// readWorkbenchFacet reads raw, the facet at path at of table wt.
func readWorkbenchFacet(raw json.RawMessage, at string, wt *WorkbenchTable) (workbenchFacet, error) {
	var fj workbenchFacetJSON
	if err := decodeMembers(raw, FormatWorkbench, at, membersClosed, &fj); err != nil {
		return workbenchFacet{}, err
	}
	if err := shapeOnly(at, namedRaw{"DataAccess", fj.DataAccess}); err != nil {
		return workbenchFacet{}, err
	}
	wt.Items = append(wt.Items, fj.TableData...)
	ff := workbenchFacet{name: fj.FacetName, at: at, nonKey: fj.NonKeyAttributes, items: sampleItems(fj.TableData)}
	f := wbAt(at)
	if fj.KeyAttributeAlias == nil {
		return ff, f.errf("KeyAttributeAlias", "missing: a facet names its key")
	}
	var al workbenchAlias
	if err := decodeMembers(fj.KeyAttributeAlias, FormatWorkbench, f.at("KeyAttributeAlias"), membersClosed, &al); err != nil {
		return ff, err
	}
	alias := wbAt(f.at("KeyAttributeAlias"))
	if al.PartitionKeyAlias == "" {
		return ff, alias.errf("PartitionKeyAlias", "missing or empty")
	}
	ff.pkA, ff.skA = al.PartitionKeyAlias, al.SortKeyAlias
	switch {
	case wt.Key.Sort == "" && ff.skA != "":
		return ff, alias.errf("SortKeyAlias", "table %q has no sort key", wt.Name)
	case wt.Key.Sort != "" && ff.skA == "":
		return ff, alias.errf("SortKeyAlias", "missing: table %q has a sort key (%s)", wt.Name, wt.Key.Sort)
	}
	return ff, nil
}

// facetEntities adds an entity to dt for each facet, with the templates
// its key aliases give, and returns per facet the table key attributes
// whose alias names a variable, not a template or a constant.
func facetEntities(fs []workbenchFacet, key KeyDef, dt *DesignTable, samples map[string][]string) ([]map[string]string, error) {
	aliasVars := make([]map[string]string, len(fs))
	for i, f := range fs {
		fo, name := wbAt(f.at), f.name
		if name == "" {
			return nil, fo.errf("FacetName", "missing or empty")
		}
		if err := checkName(fo, "FacetName", name, "facet"); err != nil {
			return nil, err
		}
		if dt.entity(name) != nil {
			return nil, fo.errf("FacetName", "facet %q twice", name)
		}
		e := &Entity{Name: name, Attrs: map[string]Template{}, At: f.at}
		aliasVars[i] = map[string]string{}
		aliasAt := fo.at("KeyAttributeAlias")
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
func tableEntity(at string, key KeyDef, dt *DesignTable, tableItems []sampleItem) {
	e := &Entity{Name: dt.Name, Attrs: map[string]Template{}, At: at}
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

// readKeyAttributes reads raw, KeyAttributes at path at ({"PartitionKey":
// {...}, "SortKey": {...}}), noting each attribute's type in types.
func readKeyAttributes(raw json.RawMessage, at string, types map[string]string) (KeyDef, error) {
	var ka workbenchKeyAttributes
	if err := decodeMembers(raw, FormatWorkbench, at, membersClosed, &ka); err != nil {
		return KeyDef{}, err
	}
	o := wbAt(at)
	var k KeyDef
	for _, r := range []struct {
		role string
		raw  json.RawMessage
	}{{"PartitionKey", ka.PartitionKey}, {"SortKey", ka.SortKey}} {
		if r.raw == nil {
			if r.role == "PartitionKey" {
				return KeyDef{}, o.errf(r.role, "missing: a key has a partition key")
			}
			continue
		}
		attr, typ, err := readAttribute(r.raw, o.at(r.role))
		if err != nil {
			return KeyDef{}, err
		}
		a := wbAt(o.at(r.role))
		if typ != "S" && typ != "N" && typ != "B" {
			return KeyDef{}, a.errf("AttributeType", "a key attribute is S, N or B, not %q", typ)
		}
		if t, ok := types[attr]; ok && t != typ {
			return KeyDef{}, a.errf("AttributeType", "attribute %q is %s elsewhere in the table", attr, t)
		}
		types[attr] = typ
		if r.role == "PartitionKey" {
			k.Partition = attr
		} else if attr == k.Partition {
			return KeyDef{}, a.errf("AttributeName", "the sort key attribute is the partition key attribute %q", attr)
		} else {
			k.Sort = attr
		}
	}
	return k, nil
}

// readAttribute reads raw, at path at: {"AttributeName": ...,
// "AttributeType": S|N|B}.
func readAttribute(raw json.RawMessage, at string) (string, string, error) {
	var wa shapes.AttributeDefinition[string]
	if err := decodeMembers(raw, FormatWorkbench, at, membersClosed, &wa); err != nil {
		return "", "", err
	}
	a := wbAt(at)
	if wa.AttributeName == "" {
		return "", "", a.errf("AttributeName", "missing or empty")
	}
	if err := checkName(a, "AttributeName", wa.AttributeName, "attribute"); err != nil {
		return "", "", err
	}
	if wa.AttributeType == "" {
		return "", "", a.errf("AttributeType", "missing or empty")
	}
	return wa.AttributeName, wa.AttributeType, nil
}

// readWorkbenchIndex reads raw, the index of GlobalSecondaryIndexes at
// path at.
func readWorkbenchIndex(raw json.RawMessage, at string, types map[string]string) (WorkbenchIndex, error) {
	var wi WorkbenchIndex
	var xj workbenchIndexJSON
	if err := decodeMembers(raw, FormatWorkbench, at, membersClosed, &xj); err != nil {
		return wi, err
	}
	x := wbAt(at)
	if wi.Name = xj.IndexName; wi.Name == "" {
		return wi, x.errf("IndexName", "missing or empty")
	}
	if err := checkName(x, "IndexName", wi.Name, "index"); err != nil {
		return wi, err
	}
	if xj.KeyAttributes == nil {
		return wi, x.errf("KeyAttributes", "missing: an index has a key")
	}
	var err error
	if wi.Key, err = readKeyAttributes(xj.KeyAttributes, x.at("KeyAttributes"), types); err != nil {
		return wi, err
	}
	wi.Projection = "ALL"
	if xj.Projection == nil {
		return wi, nil
	}
	var p shapes.Projection[string]
	if err := decodeMembers(xj.Projection, FormatWorkbench, x.at("Projection"), membersClosed, &p); err != nil {
		return wi, err
	}
	if p.ProjectionType != "" {
		wi.Projection = p.ProjectionType
	}
	if !slices.Contains([]string{"ALL", "KEYS_ONLY", "INCLUDE"}, wi.Projection) {
		return wi, x.errf("Projection.ProjectionType", "%q is not ALL, KEYS_ONLY or INCLUDE", wi.Projection)
	}
	wi.NonKeyAttributes = p.NonKeyAttributes
	return wi, nil
}

// readBilling reads the BillingMode and ProvisionedCapacitySettings of
// tj, the table at o.
func readBilling(o *object, tj *workbenchTableJSON, wt *WorkbenchTable) error {
	switch mode := tj.BillingMode; mode {
	case "", "PAY_PER_REQUEST":
		wt.BillingMode = "PAY_PER_REQUEST"
	case "PROVISIONED":
		wt.BillingMode = mode
	default:
		return o.errf("BillingMode", "%q is not PAY_PER_REQUEST or PROVISIONED", mode)
	}
	if tj.ProvisionedCapacitySettings == nil {
		return nil
	}
	at := o.at("ProvisionedCapacitySettings")
	var pcs workbenchCapacity
	if err := decodeMembers(tj.ProvisionedCapacitySettings, FormatWorkbench, at, membersClosed, &pcs); err != nil {
		return err
	}
	if err := shapeOnly(at, namedRaw{"AutoScalingRead", pcs.AutoScalingRead}, namedRaw{"AutoScalingWrite", pcs.AutoScalingWrite}); err != nil {
		return err
	}
	if pcs.ProvisionedThroughput == nil {
		return nil
	}
	at += ".ProvisionedThroughput"
	var pt shapes.ProvisionedThroughput[json.RawMessage]
	if err := decodeMembers(pcs.ProvisionedThroughput, FormatWorkbench, at, membersClosed, &pt); err != nil {
		return err
	}
	for _, f := range []struct {
		name string
		raw  json.RawMessage
		dst  *int64
	}{{"ReadCapacityUnits", pt.ReadCapacityUnits, &wt.ReadCapacity}, {"WriteCapacityUnits", pt.WriteCapacityUnits, &wt.WriteCapacity}} {
		if f.raw == nil {
			continue
		}
		if err := json.Unmarshal(f.raw, f.dst); err != nil || *f.dst < 1 {
			return wbAt(at).errf(f.name, "want a whole number of at least 1")
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
