package service

import (
	"errors"
	"slices"
	"time"

	"github.com/dynamoemu/dynamoemu/emulator/internal/apierr"
	"github.com/dynamoemu/dynamoemu/emulator/internal/tablespec"
	"github.com/dynamoemu/dynamoemu/internal/storage"
)

// RestoreTableFromBackup and RestoreTableToPointInTime: a new table made
// of a snapshot (a backup's, or a point in time's from the pitr feature) with
// storage's DB.RestoreTable, which shares the snapshot's items and index
// entries instead of copying them (O(1) B-trees plus one map entry per
// partition) and records the whole table in one RecordRestoreTable.
//
// What the restored table keeps, after AWS's reference
// (https://docs.aws.amazon.com/amazondynamodb/latest/APIReference/API_RestoreTableToPointInTime.html):
// the items, the key schema, the secondary indexes (all, or those the
// overrides name), the billing mode and provisioned throughput (or the
// overrides'), the encryption (or the override's) and the table class.
// What it does not: tags, the stream, TimeToLive, point-in-time recovery
// and deletion protection, which are set again by hand on AWS. It is
// CREATING for the transient delay (-delayTransientStatuses; none by
// default), with a RestoreSummary saying where it came from.

// restoreTable makes table name in the call's namespace from the source
// table src (its fixed fields) with definition sm, changed by ov, and
// the snapshot snapshot returns for the derivation it is given (the
// restored table's indexes and definition record).
func (c *call) restoreTable(name string, src *table, sm *tableMeta, ov *RestoreOverrides, from *restoreInfo,
	snapshot func(storage.Derivation) (*storage.TableSnapshot, error)) (*table, error) {
	now := c.Now()
	if err := c.restoreAdmissible(name, now); err != nil {
		return nil, err
	}
	t := &table{
		name: name, schema: src.schema, keySchema: src.keySchema,
		arn: c.tableARN(name), id: tablespec.NewUUID(), created: now, clock: c.clock,
	}
	m, err := restoredMeta(c, t, sm, ov, from)
	if err != nil {
		return nil, err
	}
	t.meta.Store(m)
	vdefs := tablespec.VectorStorageDefs(m.Vectors)
	if vdefs == nil {
		vdefs = []storage.VectorIndexDef{} // not nil: exactly these, none
	}
	snap, err := snapshot(storage.Derivation{
		Indexes:       tablespec.StorageDefs(slices.Concat(m.LSIs, m.GSIs)),
		VectorIndexes: vdefs,
		Meta:          map[string][]byte{metaKeyTable: encodeTableMeta(t, m)},
	})
	if err != nil {
		return nil, err
	}
	ns := c.ns.registered()
	st, err := ns.db.RestoreTable(name, t.id, snap)
	if errors.Is(err, storage.ErrTableExists) {
		return nil, apierr.New(apierr.ErrTableAlreadyExists, apierr.MsgTableAlreadyExists(name))
	}
	if err != nil && !errors.Is(err, storage.ErrNotDurable) {
		return nil, err
	}
	ns.loadedDefinition(t, nil)
	ns.publishTable(t, st, m, Stream{})
	return t, err
}

// maxConcurrentRestores is how many restores a namespace runs at once
// (AWS's API reference, API_RestoreTableFromBackup: "up to 50 concurrent
// restores (any type of restore) in a given account"). A restore runs
// while its table is CREATING: with no transient delay, never.
const maxConcurrentRestores = 50

// restoreAdmissible checks that a restore into table name may start at
// now: the name is free (TableAlreadyExistsException; a table whose own
// restore is CREATING is TableInUseException, as AWS answers:
// ack-api-quirks DDB-TABLE-219) and fewer than maxConcurrentRestores
// restores are CREATING in the namespace (LimitExceededException). Two
// restores racing past the count may make it one more.
func (c *call) restoreAdmissible(name string, now time.Time) error {
	if t := c.ns.getTable(name); t != nil {
		if m := t.meta.Load(); m.restored != nil && m.statusAt(now) == statusCreating {
			from := m.restored.BackupArn
			if from == "" {
				from = m.restored.TableArn
			}
			return apierr.New(apierr.ErrTableInUse, apierr.MsgTableBeingRestored(name, from))
		}
		return apierr.New(apierr.ErrTableAlreadyExists, apierr.MsgTableAlreadyExists(name))
	}
	if c.svc.cfg.TransientDelay <= 0 {
		return nil
	}
	n := 0
	for _, t := range c.ns.allTables() {
		if m := t.meta.Load(); m.restored != nil && m.statusAt(now) == statusCreating {
			n++
		}
	}
	if n >= maxConcurrentRestores {
		return apierr.LimitExceeded(apierr.MsgRestoreLimit)
	}
	return nil
}

// restoredMeta is the definition of t restored from a table whose
// definition was sm, with overrides ov.
func restoredMeta(c *call, t *table, sm *tableMeta, ov *RestoreOverrides, from *restoreInfo) (*tableMeta, error) {
	now := c.Now()
	m := &tableMeta{
		status:          statusActive,
		billingMode:     sm.billingMode,
		billingReported: sm.billingReported,
		throughput:      tablespec.Throughput{Read: sm.throughput.Read, Write: sm.throughput.Write},
		onDemand:        sm.onDemand,
		warm:            sm.warm,
		sse:             sm.sse,
		tableClass:      sm.tableClass,
		restored:        from,
	}
	if d := c.svc.cfg.TransientDelay; d > 0 {
		m.activeAt = now.Add(d)
	}
	if b := ov.BillingModeOverride; b != nil {
		m.billingMode, m.billingReported = *b, true
	}
	if p := ov.ProvisionedThroughputOverride; p != nil {
		m.throughput = tablespec.Throughput{Read: *p.ReadCapacityUnits, Write: *p.WriteCapacityUnits}
	}
	if o := ov.OnDemandThroughputOverride; o != nil {
		m.onDemand = o
	}
	if s := ov.SSESpecificationOverride; s != nil {
		m.sse = tablespec.DescribeSSE(s, c.region, c.account)
	}
	switch {
	case m.billingMode == "PAY_PER_REQUEST":
		m.throughput = tablespec.Throughput{}
		if sm.billingMode != "PAY_PER_REQUEST" || sm.payPerRequestSince.IsZero() {
			m.payPerRequestSince = now
		} else {
			m.payPerRequestSince = sm.payPerRequestSince
		}
	case m.throughput.Read == 0 || m.throughput.Write == 0:
		return nil, apierr.Validation(apierr.MsgUpdateProvisionedNeedsThroughput)
	}
	ix, err := ov.RestoredIndexes(&sm.Indexes, t.arn, m.billingMode, func(a string) bool {
		return a == t.schema.Partition.Name || a == t.schema.Sort.Name
	})
	if err != nil {
		return nil, err
	}
	m.Indexes = ix
	return m, nil
}
