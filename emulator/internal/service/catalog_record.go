package service

import (
	"sync"
	"time"
	"weak"

	"github.com/dynamoemu/dynamoemu/emulator/internal/tablerec"
	"github.com/dynamoemu/dynamoemu/emulator/internal/tablespec"
	"github.com/dynamoemu/dynamoemu/internal/storage"
)

// What a namespace's storage.DB holds, and so what its commit hook
// records and DB.Apply rebuilds (the seam persistence, backups and
// replicas hang off):
//
//   - persisted state: the items (a record per committed storage transaction),
//     the catalog (create and drop table, add and drop index) and, per table,
//     one metadata key, metaKeyTable, holding the table's whole definition as
//     a tablerec.Table: name, TableId, ARN, creation time, key schema,
//     attribute definitions, billing mode and its history, provisioned
//     throughput and its history, on-demand limits, SSE, table class, deletion
//     protection, tags, the indexes (with their ARNs and the times that make
//     them CREATING or DELETING, and the GSIs still shown as DELETING), the
//     vector indexes (likewise, with their search schemas), TimeToLive, the
//     StreamSpecification and the latest stream's label, shard id, region and
//     creation time, point-in-time recovery's setting, and a restored table's
//     RestoreSummary and end of CREATING. One key for the whole definition, so
//     a change is one record and is recorded whole or not at all.
//   - derived state, rebuilt from those by Namespace.Apply's callback
//     (catalog_apply.go): the table's catalog entry, the stages' state
//     on it (from its definition, LoadedDefinition), its item collection
//     tracking (its LSIs) and its stream's observer.
//   - persisted elsewhere: a stream's records are not recorded but
//     rebuilt from the records (each commit's time comes with it) and
//     kept in persistence's snapshots (streamrec/sidecar.go); a
//     ClientRequestToken within its window is DB metadata
//     (idempotency_persist.go), and so is each export, import and bulk
//     operation (emulator/internal/transfers).
//   - volatile state, not recorded: what a stage keeps in memory and
//     the request limits' counters (the clock's offset is kept by the edge,
//     clock_persist.go).

// metaKeyTable is the storage metadata key of a table's definition.
const metaKeyTable = tablerec.MetaKey

// encodeTableMeta returns the metadata record of t with definition m.
func encodeTableMeta(t *table, m *tableMeta) []byte {
	r := tablerec.Table{
		Name: t.name, ID: t.id, ARN: t.arn, Created: t.created,
		KeySchema:          tablerec.KeyElemRecords(t.keySchema),
		BillingMode:        m.Billing.Mode,
		BillingReported:    m.Billing.Reported,
		PayPerRequestSince: m.Billing.PayPerRequestSince,
		Throughput:         tablerec.ThroughputRecord(m.Capacity),
		OnDemand:           m.OnDemand,
		Warm:               tablerec.Warm(m.Warm),
		Stream:             m.stream,
		StreamLabel:        m.streamLabel,
		StreamShard:        m.streamShard,
		StreamRegion:       m.streamRegion,
		StreamCreated:      m.streamCreated,
		SSE:                m.SSE,
		TableClass:         m.TableClass,
		DeletionProtection: m.deletionProtection,
		LSIs:               tablerec.IndexRecords(m.LSIs),
		GSIs:               tablerec.IndexRecords(m.GSIs),
		Deleting:           tablerec.IndexRecords(m.Deleting),
		Vectors:            tablerec.VectorRecords(m.Vectors),
		VDeleting:          tablerec.VectorRecords(m.VDeleting),
		TTLEnabled:         m.TTL.Enabled,
		TTLAttr:            m.TTL.Attr,
		PITR:               m.Recovery.On,
		PITRDays:           m.Recovery.Days,
		ActiveAt:           m.activeAt,
		Restored:           m.Restored,
	}
	for _, a := range m.AttrDefs {
		r.AttrDefs = append(r.AttrDefs, tablerec.Key{Name: a.Name, Value: a.Type})
	}
	for _, tp := range m.tags {
		r.Tags = append(r.Tags, tablerec.Key{Name: tp.Key, Value: tp.Value})
	}
	return tablerec.Encode(&r, m.features)
}

// decodeTableRecord parses a table's metadata record: the table's fixed
// fields and its definition (status ACTIVE). The key schema's kinds come
// from ks, the storage table's.
// Its features' slots are those of sm's features.
func (sm *seams) decodeTableRecord(b []byte, ks storage.KeySchema) (*table, *tableMeta, error) {
	r, slots, err := tablerec.Decode(b, sm.features, sm.extMembers)
	if err != nil {
		return nil, nil, err
	}
	t := &table{name: r.Name, id: r.ID, arn: r.ARN, created: r.Created, schema: ks, keySchema: tablerec.KeyElems(r.KeySchema)}
	m := &tableMeta{
		status: statusActive,
		Settings: tablespec.Settings{
			Billing:    tablespec.Billing{Mode: r.BillingMode, Reported: r.BillingReported, PayPerRequestSince: r.PayPerRequestSince},
			Capacity:   tablerec.ThroughputOf(r.Throughput),
			OnDemand:   r.OnDemand,
			Warm:       tablespec.Warm(r.Warm),
			SSE:        r.SSE,
			TableClass: r.TableClass,
			TTL:        tablespec.TTL{Enabled: r.TTLEnabled, Attr: r.TTLAttr},
			Recovery:   tablespec.Recovery{On: r.PITR, Days: r.PITRDays},
			Restored:   r.Restored,
		},
		stream:             r.Stream,
		streamLabel:        r.StreamLabel,
		streamShard:        r.StreamShard,
		streamRegion:       r.StreamRegion,
		streamCreated:      r.StreamCreated,
		deletionProtection: r.DeletionProtection,
		Indexes: tablespec.Indexes{
			LSIs:      tablerec.IndexDefs(r.LSIs),
			GSIs:      tablerec.IndexDefs(r.GSIs),
			Deleting:  tablerec.IndexDefs(r.Deleting),
			Vectors:   tablerec.VectorDefs(r.Vectors),
			VDeleting: tablerec.VectorDefs(r.VDeleting),
		},
		activeAt: r.ActiveAt,
	}
	m.features = slots
	for _, a := range r.AttrDefs {
		m.AttrDefs = append(m.AttrDefs, tablespec.AttrDef{Name: a.Name, Type: a.Value})
	}
	for _, tp := range r.Tags {
		m.tags = append(m.tags, tablespec.TagPair{Key: tp.Name, Value: tp.Value})
	}
	return t, m, nil
}

// Definitions shared between tables restored from one record: a branch
// (a namespace filled from another's snapshot) shares its tables'
// storage with the base, and its definitions too. A published tableMeta
// is never modified (a change copies it), so the tables whose records
// hold the same bytes can publish the same one: a service's sharedDefs
// keep, by record, the fixed fields decoded and a weak pointer to the
// definition, which the tables publishing it keep alive.
type sharedDefs struct {
	mu   sync.Mutex
	defs map[string]sharedDef // guarded by mu
}

// sharedDef is a decoded record: the table's fixed fields and its
// definition while a table holds it.
type sharedDef struct {
	name, id, arn string
	created       time.Time
	schema        storage.KeySchema
	keySchema     []tablespec.KeyElem
	m             weak.Pointer[tableMeta]
}

// sharedDefsSweep is how many records sharedDefs holds before it forgets
// the ones no table holds any more.
const sharedDefsSweep = 256

// decodeSharedRecord is decodeTableRecord for a table restored from a
// record another table may have published already (a branch's): the
// definition is decoded once and published by each, and the fixed
// fields' strings and key schema are shared.
func (s *Service) decodeSharedRecord(b []byte, ks storage.KeySchema) (*table, *tableMeta, error) {
	sd := &s.defs
	sd.mu.Lock()
	defer sd.mu.Unlock()
	if d, ok := sd.defs[string(b)]; ok && d.schema == ks {
		if m := d.m.Value(); m != nil {
			return &table{name: d.name, id: d.id, arn: d.arn, created: d.created, schema: ks, keySchema: d.keySchema}, m, nil
		}
	}
	t, m, err := s.seams.decodeTableRecord(b, ks)
	if err != nil {
		return nil, nil, err
	}
	if len(sd.defs) >= sharedDefsSweep {
		for k, d := range sd.defs {
			if d.m.Value() == nil {
				delete(sd.defs, k)
			}
		}
	}
	if sd.defs == nil {
		sd.defs = make(map[string]sharedDef)
	}
	sd.defs[string(b)] = sharedDef{
		name: t.name, id: t.id, arn: t.arn, created: t.created, schema: ks, keySchema: t.keySchema,
		m: weak.Make(m),
	}
	return t, m, nil
}
