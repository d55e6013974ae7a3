package service

import (
	"github.com/dynamoemu/dynamoemu/emulator/internal/tablerec"
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

func vectorRecords(xs []*vectorIndexDef) []tablerec.Vector {
	var out []tablerec.Vector
	for _, x := range xs {
		r := tablerec.Vector{Name: x.name, ARN: x.arn, Attr: x.attr, Dims: x.dims, Distance: x.distance,
			Projection: x.projection.typ, NonKey: x.projection.nonKey, ActiveAt: x.activeAt, Backfill: x.backfill, GoneAt: x.goneAt}
		for _, e := range x.schema {
			r.Schema = append(r.Schema, tablerec.Search{Name: e.name, Type: e.typ, Kind: e.kind.String()})
		}
		out = append(out, r)
	}
	return out
}

func vectorDefs(rs []tablerec.Vector) []*vectorIndexDef {
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
		r.AttrDefs = append(r.AttrDefs, tablerec.Key{Name: a.name, Value: a.typ})
	}
	for _, tp := range m.tags {
		r.Tags = append(r.Tags, tablerec.Key{Name: tp.key, Value: tp.value})
	}
	return tablerec.Encode(&r, m.features)
}

func keyElemRecords(ks []keyElem) []tablerec.Key {
	out := make([]tablerec.Key, len(ks))
	for i, k := range ks {
		out[i] = tablerec.Key{Name: k.name, Value: k.keyType}
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

func throughputRec(tp throughput) tablerec.Throughput {
	return tablerec.Throughput{Read: tp.read, Write: tp.write, LastIncrease: tp.lastIncrease, LastDecrease: tp.lastDecrease, DecreasesToday: tp.decreasesToday}
}

func indexRecords(xs []*indexDef) []tablerec.Index {
	var out []tablerec.Index
	for _, x := range xs {
		r := tablerec.Index{
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
		m.attrDefs = append(m.attrDefs, attrDef{a.Name, a.Value})
	}
	for _, tp := range r.Tags {
		m.tags = append(m.tags, tagPair{tp.Name, tp.Value})
	}
	return t, m, nil
}

func keyElems(rs []tablerec.Key) []keyElem {
	out := make([]keyElem, len(rs))
	for i, r := range rs {
		out[i] = keyElem{r.Name, r.Value}
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

func throughputOf(r tablerec.Throughput) throughput {
	return throughput{read: r.Read, write: r.Write, lastIncrease: r.LastIncrease, lastDecrease: r.LastDecrease, decreasesToday: r.DecreasesToday}
}

func indexDefs(rs []tablerec.Index) []*indexDef {
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
