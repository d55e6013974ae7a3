package service

import (
	"time"

	"github.com/dynamoemu/dynamoemu/emulator/internal/tablerec"
	"github.com/dynamoemu/dynamoemu/emulator/internal/tablespec"
	"github.com/dynamoemu/dynamoemu/internal/storage"
)

// A table's definition record: what a namespace's storage.DB holds,
// and so what its commit hook records and DB.Apply rebuilds, is the
// catalog package's doc (emulator/internal/catalog/doc.go); the derived
// state is rebuilt by Namespace.Apply's callback (catalog_apply.go).

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

// tableFixed are the fields of a table a definition record fixes,
// which the tables restored from one record share (Service.defs).
type tableFixed struct {
	name, id, arn string
	created       time.Time
	keySchema     []tablespec.KeyElem
}

// decodeSharedRecord is decodeTableRecord for a table restored from a
// record another table may have published already (a branch's): the
// definition is decoded once and published by each, and the fixed
// fields' strings and key schema are shared (catalog.Defs).
func (s *Service) decodeSharedRecord(b []byte, ks storage.KeySchema) (*table, *tableMeta, error) {
	f, m, err := s.defs.Decode(b, ks, func() (tableFixed, *tableMeta, error) {
		t, m, err := s.seams.decodeTableRecord(b, ks)
		if err != nil {
			return tableFixed{}, nil, err
		}
		return tableFixed{t.name, t.id, t.arn, t.created, t.keySchema}, m, nil
	})
	if err != nil {
		return nil, nil, err
	}
	return &table{name: f.name, id: f.id, arn: f.arn, created: f.created, schema: ks, keySchema: f.keySchema}, m, nil
}
