package service

import (
	"cmp"
	"time"

	"github.com/dynamoemu/dynamoemu/emulator/internal/tablespec"
	"github.com/dynamoemu/dynamoemu/internal/storage"
)

// A table as it was, for a feature that keeps one (a backup) and makes
// a table of it again (a restore); and the notifications of a table's
// and a namespace's lifecycle a feature may take.

// TableCopy is a table as it was: its fixed fields, its definition and a
// copy-on-write snapshot of its items and indexes (storage's
// Table.Snapshot, O(1)), whose metadata holds the definition record.
type TableCopy struct {
	snap *storage.TableSnapshot
	t    *table
	m    *tableMeta
}

// Copy returns the table as it is now.
func (t Table) Copy() (TableCopy, error) { return CopyOf(t.t.data.Snapshot()) }

// CopyOf reads the table a snapshot holds (one Copy took, or one read
// back from a file).
func CopyOf(snap *storage.TableSnapshot) (TableCopy, error) {
	def, dm, err := decodeTableRecord(snap.Meta(metaKeyTable), snap.KeySchema())
	if err != nil {
		return TableCopy{}, err
	}
	return TableCopy{snap: snap, t: def, m: dm}, nil
}

// Snapshot is the copy's items, indexes and definition record.
func (tc TableCopy) Snapshot() *storage.TableSnapshot { return tc.snap }

// Name is the table's name.
func (tc TableCopy) Name() string { return tc.t.name }

// ID is the table's TableId.
func (tc TableCopy) ID() string { return tc.t.id }

// ARN is the table's ARN.
func (tc TableCopy) ARN() string { return tc.t.arn }

// Source describes the table as it was, as a backup's description does:
// its key schema, size and capacity, and its indexes, stream, TTL and
// encryption.
func (tc TableCopy) Source() (*SourceTableDetails, *SourceTableFeatureDetails) {
	t, m := tc.t, tc.m
	src := &SourceTableDetails{
		TableName: t.name, TableId: t.id, TableArn: t.arn, TableSizeBytes: tc.snap.SizeBytes(),
		KeySchema: tablespec.DescribeKeySchema(t.keySchema), TableCreationDateTime: epochTime(t.created),
		ProvisionedThroughput: &tablespec.SourceThroughput{ReadCapacityUnits: m.throughput.Read, WriteCapacityUnits: m.throughput.Write},
		OnDemandThroughput:    m.onDemand,
		ItemCount:             int64(tc.snap.ItemCount()),
		BillingMode:           cmp.Or(m.billingMode, "PROVISIONED"),
	}
	f := m.Indexes.SourceFeatures()
	f.SSEDescription = m.sse
	if m.streamOn() {
		f.StreamDescription = m.stream
	}
	if m.ttl.enabled {
		f.TimeToLiveDescription = &TimeToLiveDesc{AttributeName: m.ttl.attr, TimeToLiveStatus: "ENABLED"}
	}
	return src, f
}

// RestoreFromCopy makes table name in the request's namespace of tc,
// changed by ov, as RestoreTableFromBackup does (restore.go's
// restoreTable): the table says it was restored from the backup of ARN
// backupARN taken at at. It answers the new table's description.
func (c Call) RestoreFromCopy(name string, tc TableCopy, ov *RestoreOverrides, backupARN string, at time.Time) (*TableDescription, error) {
	t, err := c.c.restoreTable(name, tc.t, tc.m, ov, &restoreInfo{BackupArn: backupARN, At: at},
		func(d storage.Derivation) (*storage.TableSnapshot, error) { return tc.snap.Derive(d) })
	if err != nil {
		return nil, err
	}
	return t.describe(), nil
}

// Opener is a feature told when a namespace is made (before anything is
// loaded into it), to read what it keeps beside it (Space.Keep).
type Opener interface {
	Opened(s Space)
}

// Dropper is a feature told when a table is deleted: its drop recorded,
// the table out of its namespace, its lock held (take no other table's).
type Dropper interface {
	Dropped(d Dropped)
}

// IndexDropper is a stage told when UpdateTable has deleted a GSI of t,
// once the change is recorded, with no lock held.
type IndexDropper interface {
	IndexDropped(t Table, index string)
}

// Dropped is a table just deleted.
type Dropped struct {
	s   Space
	t   *table
	m   *tableMeta
	now time.Time
}

// Space is the table's namespace.
func (d Dropped) Space() Space { return d.s }

// Table is the table.
func (d Dropped) Table() Table { return Table{t: d.t} }

// Now is when it was deleted.
func (d Dropped) Now() time.Time { return d.now }

// PointInTimeRecovery reports whether the table had point-in-time
// recovery on when it was deleted.
func (d Dropped) PointInTimeRecovery() bool { return d.m.pitr }

// openers and droppers are the features in use that take those
// notifications, in Use's order.
var (
	openers  []Opener
	droppers []Dropper

	indexDroppers []IndexDropper
)

// Keep returns the Keeper of the namespace's side directory sub (files
// beside its DB: Config.Keep), or nil when the namespace is not kept on
// disk.
func (s Space) Keep(sub string) (Keeper, error) {
	keep := s.ns.svc.cfg.Keep
	if keep == nil || !s.ns.persisted() {
		return nil, nil
	}
	return keep(s.ns.key, sub)
}

// ID is the namespace's ID.
func (s Space) ID() string { return s.ns.key }
