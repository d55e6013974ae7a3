package catalog

import (
	"encoding/json"
	"time"

	"github.com/dynamoemu/dynamoemu/emulator/internal/tablerec"
	"github.com/dynamoemu/dynamoemu/emulator/internal/tablespec"
)

// Def is the part of a table's definition that UpdateTable,
// UpdateTimeToLive, the tag operations or DeleteTable (for the status)
// may change. A published Def is immutable: a change copies it (its
// slices are replaced, never modified in place) and publishes the copy
// (the service's table.changeMeta).
type Def struct {
	// Indexes are the attribute definitions and the indexes
	// (tablespec.Indexes: UpdateTable's index changes are its methods).
	tablespec.Indexes
	// Settings are the settings its requests set (billing, capacity,
	// on-demand limits, warm throughput, SSE, class, TimeToLive,
	// point-in-time recovery, where a restored table came from): a
	// feature reads them whole (Definition.Settings) and changes them
	// in place (Edit.Settings).
	tablespec.Settings
	Status             string                         // TableStatus: ACTIVE, DELETING
	Stream             *tablespec.StreamSpecification // nil or StreamEnabled false: no stream
	StreamLabel        string                         // LatestStreamLabel of the latest stream, even once disabled
	DeletionProtection bool
	Tags               []tablespec.TagPair // in the order first added
	// The latest stream's shard id, awsRegion and creation time (its
	// label is StreamLabel), recorded so that a replay rebuilds the same
	// stream.
	StreamShard   string
	StreamRegion  string
	StreamCreated time.Time
	// A table restored from a backup or a point in time is CREATING
	// until ActiveAt (zero: ACTIVE at once).
	ActiveAt time.Time
	// Features are the slots of the table-level features, by feature
	// name: JSON the catalog carries without reading; a map replaced
	// whole on change.
	Features map[string]json.RawMessage
}

// TableStatus values.
const (
	StatusActive   = "ACTIVE"
	StatusDeleting = "DELETING"
	StatusCreating = "CREATING"
)

// StatusAt is the TableStatus at now: a restored table is CREATING
// until its ActiveAt.
func (m *Def) StatusAt(now time.Time) string {
	if m.Status == StatusActive && now.Before(m.ActiveAt) {
		return StatusCreating
	}
	return m.Status
}

// StreamOn reports whether the definition has a stream enabled.
func (m *Def) StreamOn() bool { return m.Stream != nil && *m.Stream.StreamEnabled }

// RestoreSummaryAt is a restored table's RestoreSummary at now (nil for
// a table not restored).
func (m *Def) RestoreSummaryAt(now time.Time) *tablespec.RestoreSummary {
	if m.Restored == nil {
		return nil
	}
	return &tablespec.RestoreSummary{SourceBackupArn: m.Restored.BackupArn, SourceTableArn: m.Restored.TableArn,
		RestoreDateTime: tablespec.EpochTime(m.Restored.At), RestoreInProgress: now.Before(m.ActiveAt)}
}

// Fixed are the fields of a table its definition record fixes, which
// never change after its creation.
type Fixed struct {
	Name, ID, ARN string // ARN: arn:aws:dynamodb:<region>:<account>:table/<name>; ID: its TableId, a UUID
	Created       time.Time
	KeySchema     []tablespec.KeyElem // as given, for DescribeTable
}

// MetaKey is the storage metadata key of a table's definition record.
const MetaKey = tablerec.MetaKey

// Encode returns the metadata record of a table of fixed fields f and
// definition m.
func Encode(f Fixed, m *Def) []byte {
	r := tablerec.Table{
		Name: f.Name, ID: f.ID, ARN: f.ARN, Created: f.Created,
		KeySchema:          tablerec.KeyElemRecords(f.KeySchema),
		BillingMode:        m.Billing.Mode,
		BillingReported:    m.Billing.Reported,
		PayPerRequestSince: m.Billing.PayPerRequestSince,
		Throughput:         tablerec.ThroughputRecord(m.Capacity),
		OnDemand:           m.OnDemand,
		Warm:               tablerec.Warm(m.Warm),
		Stream:             m.Stream,
		StreamLabel:        m.StreamLabel,
		StreamShard:        m.StreamShard,
		StreamRegion:       m.StreamRegion,
		StreamCreated:      m.StreamCreated,
		SSE:                m.SSE,
		TableClass:         m.TableClass,
		DeletionProtection: m.DeletionProtection,
		LSIs:               tablerec.IndexRecords(m.LSIs),
		GSIs:               tablerec.IndexRecords(m.GSIs),
		Deleting:           tablerec.IndexRecords(m.Deleting),
		Vectors:            tablerec.VectorRecords(m.Vectors),
		VDeleting:          tablerec.VectorRecords(m.VDeleting),
		TTLEnabled:         m.TTL.Enabled,
		TTLAttr:            m.TTL.Attr,
		PITR:               m.Recovery.On,
		PITRDays:           m.Recovery.Days,
		ActiveAt:           m.ActiveAt,
		Restored:           m.Restored,
	}
	for _, a := range m.AttrDefs {
		r.AttrDefs = append(r.AttrDefs, tablerec.Key{Name: a.Name, Value: a.Type})
	}
	for _, tp := range m.Tags {
		r.Tags = append(r.Tags, tablerec.Key{Name: tp.Key, Value: tp.Value})
	}
	return tablerec.Encode(&r, m.Features)
}

// Decode parses a table's metadata record: the table's fixed fields and
// its definition (status ACTIVE). Its features' slots are those of
// features (tablerec.Decode, with each feature's "ext" members).
func Decode(b []byte, features []string, extMembers map[string][]string) (Fixed, *Def, error) {
	r, slots, err := tablerec.Decode(b, features, extMembers)
	if err != nil {
		return Fixed{}, nil, err
	}
	f := Fixed{Name: r.Name, ID: r.ID, ARN: r.ARN, Created: r.Created, KeySchema: tablerec.KeyElems(r.KeySchema)}
	m := &Def{
		Status: StatusActive,
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
		Stream:             r.Stream,
		StreamLabel:        r.StreamLabel,
		StreamShard:        r.StreamShard,
		StreamRegion:       r.StreamRegion,
		StreamCreated:      r.StreamCreated,
		DeletionProtection: r.DeletionProtection,
		Indexes: tablespec.Indexes{
			LSIs:      tablerec.IndexDefs(r.LSIs),
			GSIs:      tablerec.IndexDefs(r.GSIs),
			Deleting:  tablerec.IndexDefs(r.Deleting),
			Vectors:   tablerec.VectorDefs(r.Vectors),
			VDeleting: tablerec.VectorDefs(r.VDeleting),
		},
		ActiveAt: r.ActiveAt,
		Features: slots,
	}
	for _, a := range r.AttrDefs {
		m.AttrDefs = append(m.AttrDefs, tablespec.AttrDef{Name: a.Name, Type: a.Value})
	}
	for _, tp := range r.Tags {
		m.Tags = append(m.Tags, tablespec.TagPair{Key: tp.Name, Value: tp.Value})
	}
	return f, m, nil
}
