package service

import (
	"github.com/dynamoemu/dynamoemu/emulator/internal/tablerec"
	"github.com/dynamoemu/dynamoemu/emulator/internal/tablespec"
	"github.com/dynamoemu/dynamoemu/internal/storage"
)

// What a namespace's storage.DB holds, and so what its commit hook
// records and DB.Apply rebuilds (the seam persistence, backups and
// replicas hang off):
//
//   - persisted state: the items (a record per committed storage
//     transaction), the catalog (create and drop table, add and drop
//     index) and, per table, one metadata key, metaKeyTable, holding the
//     table's whole definition as a tablerec.Table: name, TableId, ARN,
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
const metaKeyTable = tablerec.MetaKey

func vectorRecords(xs []*tablespec.VectorIndexDef) []tablerec.Vector {
	var out []tablerec.Vector
	for _, x := range xs {
		r := tablerec.Vector{Name: x.Name, ARN: x.ARN, Attr: x.Attr, Dims: x.Dims, Distance: x.Distance,
			Projection: x.Projection.Type, NonKey: x.Projection.NonKey, ActiveAt: x.ActiveAt, Backfill: x.Backfill, GoneAt: x.GoneAt}
		for _, e := range x.Schema {
			r.Schema = append(r.Schema, tablerec.Search{Name: e.Name, Type: e.Type, Kind: e.Kind.String()})
		}
		out = append(out, r)
	}
	return out
}

func vectorDefs(rs []tablerec.Vector) []*tablespec.VectorIndexDef {
	var out []*tablespec.VectorIndexDef
	for _, r := range rs {
		x := &tablespec.VectorIndexDef{Name: r.Name, ARN: r.ARN, Attr: r.Attr, Dims: r.Dims, Distance: r.Distance,
			Projection: tablespec.IndexProjection{Type: r.Projection, NonKey: r.NonKey}, ActiveAt: r.ActiveAt, Backfill: r.Backfill, GoneAt: r.GoneAt}
		for _, e := range r.Schema {
			x.Schema = append(x.Schema, tablespec.SearchElem{Name: e.Name, Type: e.Type, Kind: storage.KindFromString(e.Kind)})
		}
		x.Build()
		out = append(out, x)
	}
	return out
}

// encodeTableMeta returns the metadata record of t with definition m.
func encodeTableMeta(t *table, m *tableMeta) []byte {
	r := tablerec.Table{
		Name: t.name, ID: t.id, ARN: t.arn, Created: t.created,
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
		r.AttrDefs = append(r.AttrDefs, tablerec.Key{Name: a.Name, Value: a.Type})
	}
	for _, tp := range m.tags {
		r.Tags = append(r.Tags, tablerec.Key{Name: tp.Key, Value: tp.Value})
	}
	return tablerec.Encode(&r, m.features)
}

func keyElemRecords(ks []tablespec.KeyElem) []tablerec.Key {
	out := make([]tablerec.Key, len(ks))
	for i, k := range ks {
		out[i] = tablerec.Key{Name: k.Name, Value: k.KeyType}
	}
	return out
}

func keyAttrRecords(as []storage.KeyAttr) []tablerec.Key {
	var out []tablerec.Key
	for _, a := range as {
		out = append(out, tablerec.Key{Name: a.Name, Value: a.Kind.String()})
	}
	return out
}

func throughputRec(tp tablespec.Throughput) tablerec.Throughput {
	return tablerec.Throughput{Read: tp.Read, Write: tp.Write, LastIncrease: tp.LastIncrease, LastDecrease: tp.LastDecrease, DecreasesToday: tp.DecreasesToday}
}

func indexRecords(xs []*tablespec.IndexDef) []tablerec.Index {
	var out []tablerec.Index
	for _, x := range xs {
		r := tablerec.Index{
			Name: x.Name, ARN: x.ARN, Local: x.Local,
			KeySchema: keyElemRecords(x.KeySchema),
			Partition: keyAttrRecords(x.PartAttrs),
			Sort:      keyAttrRecords(x.SortAttrs),
			ActiveAt:  x.ActiveAt, GoneAt: x.GoneAt,
			Projection: x.Projection.Type, NonKey: x.Projection.NonKey,
			OnDemand: x.OnDemand,
		}
		if x.Throughput != nil {
			tp := throughputRec(*x.Throughput)
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
	r, slots, err := tablerec.Decode(b, features, extMembers)
	if err != nil {
		return nil, nil, err
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
	m.features = slots
	for _, a := range r.AttrDefs {
		m.attrDefs = append(m.attrDefs, tablespec.AttrDef{Name: a.Name, Type: a.Value})
	}
	for _, tp := range r.Tags {
		m.tags = append(m.tags, tablespec.TagPair{Key: tp.Name, Value: tp.Value})
	}
	return t, m, nil
}

func keyElems(rs []tablerec.Key) []tablespec.KeyElem {
	out := make([]tablespec.KeyElem, len(rs))
	for i, r := range rs {
		out[i] = tablespec.KeyElem{Name: r.Name, KeyType: r.Value}
	}
	return out
}

func keyAttrs(rs []tablerec.Key) []storage.KeyAttr {
	var out []storage.KeyAttr
	for _, r := range rs {
		out = append(out, storage.KeyAttr{Name: r.Name, Kind: storage.KindFromString(r.Value)})
	}
	return out
}

func throughputOf(r tablerec.Throughput) tablespec.Throughput {
	return tablespec.Throughput{Read: r.Read, Write: r.Write, LastIncrease: r.LastIncrease, LastDecrease: r.LastDecrease, DecreasesToday: r.DecreasesToday}
}

func indexDefs(rs []tablerec.Index) []*tablespec.IndexDef {
	var out []*tablespec.IndexDef
	for _, r := range rs {
		x := &tablespec.IndexDef{
			Name: r.Name, ARN: r.ARN, Local: r.Local,
			KeySchema: keyElems(r.KeySchema),
			PartAttrs: keyAttrs(r.Partition),
			SortAttrs: keyAttrs(r.Sort),
			ActiveAt:  r.ActiveAt, GoneAt: r.GoneAt,
			Projection: tablespec.IndexProjection{Type: r.Projection, NonKey: r.NonKey},
			OnDemand:   r.OnDemand,
		}
		if len(x.PartAttrs) > 0 {
			x.Schema.Partition = x.PartAttrs[0]
		}
		if len(x.SortAttrs) > 0 {
			x.Schema.Sort = x.SortAttrs[0]
		}
		if r.Throughput != nil {
			tp := throughputOf(*r.Throughput)
			x.Throughput = &tp
		}
		out = append(out, x)
	}
	return out
}
