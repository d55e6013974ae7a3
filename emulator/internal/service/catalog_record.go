package service

import (
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"time"

	"github.com/dynamoemu/dynamoemu/internal/storage"
)

// What a namespace's storage.DB holds, and so what its commit hook
// records and DB.Apply rebuilds (the seam persistence, backups and
// replicas hang off):
//
//   - persisted state: the items (a record per committed storage
//     transaction), the catalog (create and drop table, add and drop
//     index) and, per table, one metadata key, metaKeyTable, holding the
//     table's whole definition as a tableRecord: name, TableId, ARN,
//     creation time, key schema, attribute definitions, billing mode and
//     its history, provisioned throughput and its history, on-demand
//     limits, SSE, table class, deletion protection, tags, the indexes
//     (with their ARNs and the times that make them CREATING or
//     DELETING, and the GSIs still shown as DELETING), the vector
//     indexes (likewise, with their search schemas), TimeToLive, the
//     StreamSpecification and the latest stream's label, shard id,
//     region and creation time, point-in-time recovery's setting, and
//     a restored table's RestoreSummary and end of CREATING. One key for the whole definition, so a
//     change is one record and is recorded whole or not at all.
//   - derived state, rebuilt from those by Namespace.Apply's callback
//     (catalog_apply.go): the table's catalog entry, its conventions
//     policy (its tags and Config.Conventions), its item collection
//     tracking (its LSIs) and its stream's observer.
//   - persisted elsewhere: a stream's records are not recorded but
//     rebuilt from the records (each commit's time comes with it) and
//     kept in persistence's snapshots (streams_persist.go); a
//     ClientRequestToken within its window is DB metadata
//     (idempotency_persist.go), and so is each export, import and bulk
//     operation (emulator/internal/transfers).
//   - volatile state, not recorded: the conventions report and the
//     request limits' counters (the clock's offset is kept by the edge,
//     clock_persist.go).

// metaKeyTable is the storage metadata key of a table's definition.
const metaKeyTable = "emulator/table"

// tableRecordVersion is the version of tableRecord's encoding.
const tableRecordVersion = 1

// tableRecord is a table's definition as its metadata record keeps it:
// JSON, versioned, independent of the in-memory types.
type tableRecord struct {
	V                  int                  `json:"v"`
	Name               string               `json:"name"`
	ID                 string               `json:"id"`
	ARN                string               `json:"arn"`
	Created            time.Time            `json:"created"`
	KeySchema          []keyRecord          `json:"keySchema"`
	AttrDefs           []keyRecord          `json:"attrDefs,omitempty"`
	BillingMode        string               `json:"billingMode"`
	BillingReported    bool                 `json:"billingReported,omitempty"`
	PayPerRequestSince time.Time            `json:"payPerRequestSince,omitzero"`
	Throughput         throughputRecord     `json:"throughput"`
	OnDemand           *OnDemandThroughput  `json:"onDemand,omitempty"`
	Stream             *StreamSpecification `json:"stream,omitempty"`
	StreamLabel        string               `json:"streamLabel,omitempty"`
	StreamShard        string               `json:"streamShard,omitempty"`
	StreamRegion       string               `json:"streamRegion,omitempty"`
	StreamCreated      time.Time            `json:"streamCreated,omitzero"`
	SSE                *SSEDescription      `json:"sse,omitempty"`
	TableClass         string               `json:"tableClass,omitempty"`
	DeletionProtection bool                 `json:"deletionProtection,omitempty"`
	Tags               []keyRecord          `json:"tags,omitempty"`
	LSIs               []indexRecord        `json:"lsis,omitempty"`
	GSIs               []indexRecord        `json:"gsis,omitempty"`
	Deleting           []indexRecord        `json:"deleting,omitempty"`
	Vectors            []vectorRecord       `json:"vectors,omitempty"`
	VDeleting          []vectorRecord       `json:"vdeleting,omitempty"`
	TTLEnabled         bool                 `json:"ttlEnabled,omitempty"`
	TTLAttr            string               `json:"ttlAttr,omitempty"`
	PITR               bool                 `json:"pitr,omitempty"`
	PITRDays           int                  `json:"pitrDays,omitempty"`
	ActiveAt           time.Time            `json:"activeAt,omitzero"`
	Restored           *restoreInfo         `json:"restored,omitempty"`
	// The features' slots follow as members named by their features
	// (appendFeatureSlots); a record of an earlier version may hold
	// some in an "ext" member (featureSlots).
}

// keyRecord is a name and a second string: a key schema element (HASH
// or RANGE), an attribute definition or a key attribute (S, N or B), or a
// tag (its value).
type keyRecord struct {
	Name  string `json:"n"`
	Value string `json:"v"`
}

type throughputRecord struct {
	Read           int64     `json:"read,omitempty"`
	Write          int64     `json:"write,omitempty"`
	LastIncrease   time.Time `json:"lastIncrease,omitzero"`
	LastDecrease   time.Time `json:"lastDecrease,omitzero"`
	DecreasesToday int64     `json:"decreasesToday,omitempty"`
}

type indexRecord struct {
	Name       string              `json:"name"`
	ARN        string              `json:"arn"`
	Local      bool                `json:"local,omitempty"`
	KeySchema  []keyRecord         `json:"keySchema"`
	Partition  []keyRecord         `json:"partition"`
	Sort       []keyRecord         `json:"sort,omitempty"`
	ActiveAt   time.Time           `json:"activeAt,omitzero"`
	GoneAt     time.Time           `json:"goneAt,omitzero"`
	Projection string              `json:"projection"`
	NonKey     []string            `json:"nonKey,omitempty"`
	Throughput *throughputRecord   `json:"throughput,omitempty"`
	OnDemand   *OnDemandThroughput `json:"onDemand,omitempty"`
}

// vectorRecord is a vector index in a table record.
type vectorRecord struct {
	Name       string         `json:"name"`
	ARN        string         `json:"arn"`
	Attr       string         `json:"attr"`
	Dims       int64          `json:"dims"`
	Distance   string         `json:"distance"`
	Schema     []searchRecord `json:"schema,omitempty"`
	Projection string         `json:"projection"`
	NonKey     []string       `json:"nonKey,omitempty"`
	ActiveAt   time.Time      `json:"activeAt,omitzero"`
	Backfill   bool           `json:"backfill,omitempty"`
	GoneAt     time.Time      `json:"goneAt,omitzero"`
}

// searchRecord is a SearchSchema element: name, type and kind (S, N, B).
type searchRecord struct {
	Name string `json:"n"`
	Type string `json:"t"`
	Kind string `json:"k"`
}

func vectorRecords(xs []*vectorIndexDef) []vectorRecord {
	var out []vectorRecord
	for _, x := range xs {
		r := vectorRecord{Name: x.name, ARN: x.arn, Attr: x.attr, Dims: x.dims, Distance: x.distance,
			Projection: x.projection.typ, NonKey: x.projection.nonKey, ActiveAt: x.activeAt, Backfill: x.backfill, GoneAt: x.goneAt}
		for _, e := range x.schema {
			r.Schema = append(r.Schema, searchRecord{e.name, e.typ, e.kind.String()})
		}
		out = append(out, r)
	}
	return out
}

func vectorDefs(rs []vectorRecord) []*vectorIndexDef {
	var out []*vectorIndexDef
	for _, r := range rs {
		x := &vectorIndexDef{name: r.Name, arn: r.ARN, attr: r.Attr, dims: r.Dims, distance: r.Distance,
			projection: projection{typ: r.Projection, nonKey: r.NonKey}, activeAt: r.ActiveAt, backfill: r.Backfill, goneAt: r.GoneAt}
		for _, e := range r.Schema {
			x.schema = append(x.schema, searchElem{name: e.Name, typ: e.Type, kind: storage.KindFromString(e.Kind)})
		}
		x.build()
		out = append(out, x)
	}
	return out
}

// encodeTableMeta returns the metadata record of t with definition m.
func encodeTableMeta(t *table, m *tableMeta) []byte {
	r := tableRecord{
		V: tableRecordVersion, Name: t.name, ID: t.id, ARN: t.arn, Created: t.created,
		KeySchema:          keyElemRecords(t.keySchema),
		BillingMode:        m.billingMode,
		BillingReported:    m.billingReported,
		PayPerRequestSince: m.payPerRequestSince,
		Throughput:         throughputRec(m.throughput),
		OnDemand:           m.onDemand,
		Stream:             m.stream,
		StreamLabel:        m.streamLabel,
		StreamShard:        m.streamShard,
		StreamRegion:       m.streamRegion,
		StreamCreated:      m.streamCreated,
		SSE:                m.sse,
		TableClass:         m.tableClass,
		DeletionProtection: m.deletionProtection,
		LSIs:               indexRecords(m.lsis),
		GSIs:               indexRecords(m.gsis),
		Deleting:           indexRecords(m.deleting),
		Vectors:            vectorRecords(m.vectors),
		VDeleting:          vectorRecords(m.vdeleting),
		TTLEnabled:         m.ttl.enabled,
		TTLAttr:            m.ttl.attr,
		PITR:               m.pitr,
		PITRDays:           m.pitrDays,
		ActiveAt:           m.activeAt,
		Restored:           m.restored,
	}
	for _, a := range m.attrDefs {
		r.AttrDefs = append(r.AttrDefs, keyRecord{a.name, a.typ})
	}
	for _, tp := range m.tags {
		r.Tags = append(r.Tags, keyRecord{tp.key, tp.value})
	}
	b, err := json.Marshal(&r)
	if err != nil {
		panic("emulator: encoding a table record: " + err.Error()) // plain data: cannot fail
	}
	return appendFeatureSlots(b, m.features)
}

// appendFeatureSlots adds the features' slots to the encoded record b
// (one JSON object), each a member named by its feature, in name order.
func appendFeatureSlots(b []byte, slots map[string]json.RawMessage) []byte {
	if len(slots) == 0 {
		return b
	}
	b = b[:len(b)-1] // the record's closing brace
	for _, name := range slices.Sorted(maps.Keys(slots)) {
		b = append(b, ',')
		b = strconv.AppendQuote(b, name)
		b = append(b, ':')
		b = append(b, slots[name]...)
	}
	return append(b, '}')
}

// featureSlots returns the slots of the features in use that the
// encoded record b holds (nil: none). A slot is a member of the record
// named by its feature or, in a record written before its feature moved
// behind the seam, a member of that name in the record's "ext" object,
// or the object of the feature's members there (ExtMembered).
func featureSlots(b []byte) (map[string]json.RawMessage, error) {
	if len(features) == 0 {
		return nil, nil
	}
	var all map[string]json.RawMessage
	if err := json.Unmarshal(b, &all); err != nil {
		return nil, err
	}
	var legacy map[string]json.RawMessage
	if ext, ok := all["ext"]; ok {
		if err := json.Unmarshal(ext, &legacy); err != nil {
			return nil, err
		}
	}
	var slots map[string]json.RawMessage
	for _, name := range features {
		s, ok := all[name]
		if !ok {
			s, ok = legacy[name]
		}
		if !ok {
			s, ok = extObject(legacy, extMembers[name])
		}
		if ok {
			if slots == nil {
				slots = map[string]json.RawMessage{}
			}
			slots[name] = s
		}
	}
	return slots, nil
}

// extObject returns the object of the members names of ext (an old
// record's "ext" object), or false when it has none of them.
func extObject(ext map[string]json.RawMessage, names []string) (json.RawMessage, bool) {
	var b []byte
	for _, n := range names {
		v, ok := ext[n]
		if !ok {
			continue
		}
		if b == nil {
			b = append(b, '{')
		} else {
			b = append(b, ',')
		}
		b = strconv.AppendQuote(b, n)
		b = append(b, ':')
		b = append(b, v...)
	}
	if b == nil {
		return nil, false
	}
	return append(b, '}'), true
}

func keyElemRecords(ks []keyElem) []keyRecord {
	out := make([]keyRecord, len(ks))
	for i, k := range ks {
		out[i] = keyRecord{k.name, k.keyType}
	}
	return out
}

func keyAttrRecords(as []storage.KeyAttr) []keyRecord {
	var out []keyRecord
	for _, a := range as {
		out = append(out, keyRecord{a.Name, a.Kind.String()})
	}
	return out
}

func throughputRec(tp throughput) throughputRecord {
	return throughputRecord{tp.read, tp.write, tp.lastIncrease, tp.lastDecrease, tp.decreasesToday}
}

func indexRecords(xs []*indexDef) []indexRecord {
	var out []indexRecord
	for _, x := range xs {
		r := indexRecord{
			Name: x.name, ARN: x.arn, Local: x.local,
			KeySchema: keyElemRecords(x.keySchema),
			Partition: keyAttrRecords(x.partAttrs),
			Sort:      keyAttrRecords(x.sortAttrs),
			ActiveAt:  x.activeAt, GoneAt: x.goneAt,
			Projection: x.projection.typ, NonKey: x.projection.nonKey,
			OnDemand: x.onDemand,
		}
		if x.throughput != nil {
			tp := throughputRec(*x.throughput)
			r.Throughput = &tp
		}
		out = append(out, r)
	}
	return out
}

// decodeTableRecord parses a table's metadata record: the table's fixed
// fields and its definition (status ACTIVE). The key schema's kinds come
// from ks, the storage table's.
func decodeTableRecord(b []byte, ks storage.KeySchema) (*table, *tableMeta, error) {
	var r tableRecord
	if err := json.Unmarshal(b, &r); err != nil {
		return nil, nil, fmt.Errorf("%w: table record: %v", storage.ErrCorrupt, err)
	}
	if r.V != tableRecordVersion {
		return nil, nil, fmt.Errorf("%w: table record version %d", storage.ErrCorrupt, r.V)
	}
	t := &table{name: r.Name, id: r.ID, arn: r.ARN, created: r.Created, schema: ks, keySchema: keyElems(r.KeySchema)}
	m := &tableMeta{
		status:             statusActive,
		billingMode:        r.BillingMode,
		billingReported:    r.BillingReported,
		payPerRequestSince: r.PayPerRequestSince,
		throughput:         throughputOf(r.Throughput),
		onDemand:           r.OnDemand,
		stream:             r.Stream,
		streamLabel:        r.StreamLabel,
		streamShard:        r.StreamShard,
		streamRegion:       r.StreamRegion,
		streamCreated:      r.StreamCreated,
		sse:                r.SSE,
		tableClass:         r.TableClass,
		deletionProtection: r.DeletionProtection,
		lsis:               indexDefs(r.LSIs),
		gsis:               indexDefs(r.GSIs),
		deleting:           indexDefs(r.Deleting),
		vectors:            vectorDefs(r.Vectors),
		vdeleting:          vectorDefs(r.VDeleting),
		ttl:                ttlSpec{enabled: r.TTLEnabled, attr: r.TTLAttr},
		pitr:               r.PITR,
		pitrDays:           r.PITRDays,
		activeAt:           r.ActiveAt,
		restored:           r.Restored,
	}
	slots, err := featureSlots(b)
	if err != nil {
		return nil, nil, fmt.Errorf("%w: table record: %v", storage.ErrCorrupt, err)
	}
	m.features = slots
	for _, a := range r.AttrDefs {
		m.attrDefs = append(m.attrDefs, attrDef{a.Name, a.Value})
	}
	for _, tp := range r.Tags {
		m.tags = append(m.tags, tagPair{tp.Name, tp.Value})
	}
	for _, x := range slices.Concat(m.lsis, m.gsis, m.deleting) {
		if len(x.partAttrs) == 0 {
			return nil, nil, fmt.Errorf("%w: table record: index %q without a partition key", storage.ErrCorrupt, x.name)
		}
	}
	return t, m, nil
}

func keyElems(rs []keyRecord) []keyElem {
	out := make([]keyElem, len(rs))
	for i, r := range rs {
		out[i] = keyElem{r.Name, r.Value}
	}
	return out
}

func keyAttrs(rs []keyRecord) []storage.KeyAttr {
	var out []storage.KeyAttr
	for _, r := range rs {
		out = append(out, storage.KeyAttr{Name: r.Name, Kind: storage.KindFromString(r.Value)})
	}
	return out
}

func throughputOf(r throughputRecord) throughput {
	return throughput{read: r.Read, write: r.Write, lastIncrease: r.LastIncrease, lastDecrease: r.LastDecrease, decreasesToday: r.DecreasesToday}
}

func indexDefs(rs []indexRecord) []*indexDef {
	var out []*indexDef
	for _, r := range rs {
		x := &indexDef{
			name: r.Name, arn: r.ARN, local: r.Local,
			keySchema: keyElems(r.KeySchema),
			partAttrs: keyAttrs(r.Partition),
			sortAttrs: keyAttrs(r.Sort),
			activeAt:  r.ActiveAt, goneAt: r.GoneAt,
			projection: projection{typ: r.Projection, nonKey: r.NonKey},
			onDemand:   r.OnDemand,
		}
		if len(x.partAttrs) > 0 {
			x.schema.Partition = x.partAttrs[0]
		}
		if len(x.sortAttrs) > 0 {
			x.schema.Sort = x.sortAttrs[0]
		}
		if r.Throughput != nil {
			tp := throughputOf(*r.Throughput)
			x.throughput = &tp
		}
		out = append(out, x)
	}
	return out
}
