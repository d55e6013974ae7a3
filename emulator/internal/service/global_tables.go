package service

import (
	"cmp"
	"errors"
	"maps"
	"slices"
	"strings"
	"time"

	"github.com/dynamoemu/dynamoemu/emulator/internal/apierr"
	"github.com/dynamoemu/dynamoemu/internal/storage"
)

// Global tables, version 2019.11.21: UpdateTable's ReplicaUpdates (AWS
// API reference, API_UpdateTable, ReplicationGroupUpdate) and
// DescribeTable's Replicas. A replica is the table of the same name in
// another region's namespace of the same access key (so -sharedDb has no
// global tables). Create makes the replica from a copy-on-write snapshot
// of the table (its items and indexes; its stream, NEW_AND_OLD_IMAGES,
// its own) and from then on the writes of every replica reach every
// other one (global_tables_repl.go). Each member records the other
// regions in its definition (tableExt.Replicas), so replay and
// persistence rebuild the group. Delete removes a replica and deletes
// its table. Update records the replica's read capacity and table class
// overrides. The legacy 2017.11.29 operations are in
// global_tables_legacy.go.
//
// Definition changes made after a replica exists are carried to the
// others (global_tables_sync.go); a replica deleted with DeleteTable in
// its region leaves the others' lists (global_tables_delete.go).

const globalVersion2019 = "2019.11.21"

// ReplicationGroupUpdate is one of UpdateTable's ReplicaUpdates.
type ReplicationGroupUpdate struct {
	Create *ReplicaAction `json:"Create"`
	Update *ReplicaAction `json:"Update"`
	Delete *ReplicaAction `json:"Delete"`
}

// ReplicaAction is CreateReplicationGroupMemberAction,
// UpdateReplicationGroupMemberAction or DeleteReplicationGroupMemberAction.
type ReplicaAction struct {
	RegionName                    *string                 `json:"RegionName"`
	KMSMasterKeyId                *string                 `json:"KMSMasterKeyId"`
	ProvisionedThroughputOverride *ReadThroughputOverride `json:"ProvisionedThroughputOverride"`
	OnDemandThroughputOverride    *OnDemandReadOverride   `json:"OnDemandThroughputOverride"`
	GlobalSecondaryIndexes        []ReplicaGSIOverride    `json:"GlobalSecondaryIndexes"`
	TableClassOverride            *string                 `json:"TableClassOverride"`
}

// ReadThroughputOverride is ProvisionedThroughputOverride.
type ReadThroughputOverride struct {
	ReadCapacityUnits *int64 `json:"ReadCapacityUnits,omitempty"`
}

// OnDemandReadOverride is OnDemandThroughputOverride.
type OnDemandReadOverride struct {
	MaxReadRequestUnits *int64 `json:"MaxReadRequestUnits,omitempty"`
}

// ReplicaGSIOverride is ReplicaGlobalSecondaryIndex.
type ReplicaGSIOverride struct {
	IndexName                     *string                 `json:"IndexName"`
	ProvisionedThroughputOverride *ReadThroughputOverride `json:"ProvisionedThroughputOverride,omitempty"`
	OnDemandThroughputOverride    *OnDemandReadOverride   `json:"OnDemandThroughputOverride,omitempty"`
}

// ReplicaDescription is one of DescribeTable's Replicas.
type ReplicaDescription struct {
	RegionName                    string                  `json:"RegionName"`
	ReplicaStatus                 string                  `json:"ReplicaStatus"`
	KMSMasterKeyId                string                  `json:"KMSMasterKeyId,omitempty"`
	ProvisionedThroughputOverride *ReadThroughputOverride `json:"ProvisionedThroughputOverride,omitempty"`
	ReplicaTableClassSummary      *TableClassSummary      `json:"ReplicaTableClassSummary,omitempty"`
	GlobalSecondaryIndexes        []ReplicaGSIDescription `json:"GlobalSecondaryIndexes,omitempty"`
}

// describeReplicas returns DescribeTable's Replicas and
// GlobalTableVersion for definition m (none for a table with no replicas).
func (t *table) describeReplicas(m *tableMeta, now time.Time) ([]ReplicaDescription, string) {
	if m.ext == nil || len(m.ext.Replicas) == 0 {
		return nil, ""
	}
	var out []ReplicaDescription
	for _, r := range m.ext.Replicas {
		if r.statusAt(now) == replicaGone {
			continue
		}
		d := ReplicaDescription{RegionName: r.Region, ReplicaStatus: r.statusAt(now), KMSMasterKeyId: r.KMS}
		if r.ReadOverride > 0 {
			d.ProvisionedThroughputOverride = &ReadThroughputOverride{ReadCapacityUnits: &r.ReadOverride}
		}
		if r.TableClass != "" {
			d.ReplicaTableClassSummary = &TableClassSummary{TableClass: r.TableClass}
		}
		d.GlobalSecondaryIndexes = describeGSIReads(r.GSIRead)
		out = append(out, d)
	}
	if len(out) == 0 {
		return nil, "" // the last replica is gone: a table of one region
	}
	slices.SortFunc(out, func(a, b ReplicaDescription) int { return strings.Compare(a.RegionName, b.RegionName) })
	return out, m.ext.GlobalVersion
}

// validRegion reports whether s looks like an AWS region name
// (us-east-1, ap-southeast-2, us-gov-west-1).
func validRegion(s string) bool {
	parts := strings.Split(s, "-")
	if len(parts) < 3 || len(s) > 32 {
		return false
	}
	for i, p := range parts {
		if p == "" {
			return false
		}
		for j := 0; j < len(p); j++ {
			c := p[j]
			digit := c >= '0' && c <= '9'
			if i == len(parts)-1 && !digit || i < len(parts)-1 && (c < 'a' || c > 'z') {
				return false
			}
		}
	}
	return true
}

// member is one replica of a global table: its region and table.
type member struct {
	region string
	t      *table
}

// members returns the replicas of t's global table as t's definition m
// lists them, t first; a region whose table is gone, or that is leaving
// (DELETING), is left out.
func (c *call) members(t *table, m *tableMeta) []member {
	out := []member{{c.region, t}}
	if m.ext == nil {
		return out
	}
	for _, r := range m.ext.Replicas {
		if st := r.statusAt(c.now); st == "DELETING" || st == replicaGone {
			continue
		}
		if rt := c.svc.dbs.lookup(nsKey{accessKey: c.accessKey, region: r.Region}).getTable(t.name); rt != nil {
			out = append(out, member{r.Region, rt})
		}
	}
	return out
}

// regionsOf returns the regions of ms.
func regionsOf(ms []member) []string {
	out := make([]string, len(ms))
	for i, m := range ms {
		out[i] = m.region
	}
	return out
}

// without returns regions without r.
func without(regions []string, r string) []string {
	return slices.DeleteFunc(slices.Clone(regions), func(x string) bool { return x == r })
}

// route makes member m's writes go to the other regions; legacy marks
// a 2017.11.29 global table.
func (c *call) route(m member, regions []string, legacy bool) {
	c.svc.repl.setRoute(m.t.id, replTarget{c.accessKey, m.region, m.t.name}, without(regions, m.region), legacy)
}

// updateReplicas runs UpdateTable's ReplicaUpdates (alone in the
// request: checkUpdateCombination).
func (c *call) updateReplicas(in *UpdateTableInput) (*UpdateTableOutput, error) {
	if c.svc.cfg.SharedDB {
		return nil, apierr.Validation(apierr.MsgReplicaSharedDB)
	}
	createsOrDeletes := 0
	for _, u := range in.ReplicaUpdates {
		n := 0
		for _, a := range []*ReplicaAction{u.Create, u.Update, u.Delete} {
			if a != nil {
				n++
				if a.RegionName == nil || !validRegion(*a.RegionName) {
					return nil, apierr.Validation(apierr.MsgReplicaRegionInvalid(str(a.RegionName)))
				}
			}
		}
		switch {
		case n == 0:
			return nil, apierr.Validation(apierr.MsgReplicaNoAction)
		case n > 1:
			return nil, apierr.Validation(apierr.MsgReplicaMixedActions)
		}
		if u.Update == nil {
			createsOrDeletes++
		}
		if a := cmp.Or(u.Create, u.Delete); a != nil && *a.RegionName == c.region {
			return nil, apierr.Validation(apierr.MsgReplicaLocalRegion)
		}
	}
	if createsOrDeletes > 1 {
		return nil, apierr.Validation(apierr.MsgReplicaManyActions)
	}
	c.svc.repl.globalMu.Lock()
	defer c.svc.repl.globalMu.Unlock()
	t, err := c.controlPlaneTable(in.TableName)
	if err != nil {
		return nil, err
	}
	if err := c.checkReplicasSettled(t); err != nil { // global_tables_delete.go
		return nil, err
	}
	for _, u := range in.ReplicaUpdates {
		switch {
		case u.Create != nil:
			err = c.createReplica(t, u.Create)
		case u.Delete != nil:
			err = c.deleteReplica(t, *u.Delete.RegionName)
		default:
			err = c.updateReplica(t, u.Update)
		}
		if err != nil {
			return nil, err
		}
	}
	return &UpdateTableOutput{TableDescription: t.describe()}, nil
}

// createReplica adds region a.RegionName to t's global table. globalMu
// is held.
func (c *call) createReplica(t *table, a *ReplicaAction) error {
	region := *a.RegionName
	m := t.snapshot()
	switch {
	case m.statusAt(c.now) != statusActive:
		return apierr.ResourceInUse(apierr.MsgTableNotActive(t.name, m.statusAt(c.now)))
	case m.ext != nil && m.ext.GlobalVersion != "" && m.ext.GlobalVersion != globalVersion2019:
		return apierr.Validation(apierr.MsgReplicaVersionMix)
	case slices.Contains(m.replicaRegions(c.region, c.now), region):
		return apierr.Validation(apierr.MsgReplicaAlreadyTables(t.name))
	case m.billingMode != "PAY_PER_REQUEST" && !m.writeAutoScaled():
		return apierr.Validation(apierr.MsgReplicaWriteCapacity)
	}
	tc := *c
	tc.ns, tc.region, tc.out, tc.tableName = c.svc.dbs.get(nsKey{accessKey: c.accessKey, region: region}), region, nil, nil
	if tc.ns.getTable(t.name) != nil {
		return apierr.Validation(apierr.MsgReplicaAlreadyTables(t.name))
	}
	// AWS needs no stream first: it enables NEW_AND_OLD_IMAGES on a
	// table without one and keeps a stream of another view type
	// (ack-api-quirks lab notes DDB-TABLE-305, -221).
	if !m.streamOn() {
		if err := c.enableReplicaStream(t); err != nil {
			return err
		}
		m = t.snapshot()
	}
	ms := c.members(t, m)
	all := append(regionsOf(ms), region)
	target := replTarget{c.accessKey, region, t.name}
	r := &c.svc.repl
	// From here on every member's writes are queued for the new
	// replica too, and wait there until it exists; the queue so far is
	// applied, so that the snapshot below has every earlier write.
	r.mu.Lock()
	if r.creating == nil {
		r.creating = map[replTarget]bool{}
	}
	r.creating[target] = true
	r.mu.Unlock()
	for _, mb := range ms {
		c.route(mb, all, false)
	}
	r.drainMu.Lock()
	r.drainLocked(time.Time{}, true)
	nt, err := tc.replicaTable(t, m, a, regionsOf(ms))
	r.mu.Lock()
	delete(r.creating, target)
	if err == nil {
		if src := r.stamps[t.id]; src != nil {
			r.stamps[nt.id] = maps.Clone(src)
		}
	}
	r.mu.Unlock()
	r.drainMu.Unlock()
	if err != nil {
		for _, mb := range ms {
			c.route(mb, regionsOf(ms), false)
		}
		return err
	}
	c.route(member{region, nt}, all, false)
	r.seedDef(nt, nt.snapshot())
	rec := replicaRec{Region: region, Status: "CREATING", Until: c.transientUntil(), Next: "ACTIVE", KMS: str(a.KMSMasterKeyId), TableClass: str(a.TableClassOverride),
		Source: c.region, Created: c.now}
	if o := a.ProvisionedThroughputOverride; o != nil && o.ReadCapacityUnits != nil {
		rec.ReadOverride = *o.ReadCapacityUnits
	}
	rec.GSIRead = mergeGSIReads(nil, a.GlobalSecondaryIndexes)
	for _, mb := range ms {
		if err := mb.t.changeMeta(func(m *tableMeta) (func(bool) error, error) {
			e := m.extCopy()
			e.Replicas = append(pruneGone(e.Replicas, c.now), rec)
			e.GlobalVersion = globalVersion2019
			m.ext = e
			return nil, nil
		}); err != nil && !errors.Is(err, storage.ErrNotDurable) {
			return err
		}
	}
	return nil
}

// writeAutoScaled reports whether the table's write capacity has auto
// scaling (replica_autoscaling.go).
func (m *tableMeta) writeAutoScaled() bool {
	if m.ext == nil {
		return false
	}
	for _, r := range m.ext.AutoScaling {
		if r.Write && r.Index == "" && !r.Settings.Disabled {
			return true
		}
	}
	return false
}

// replicaTable makes the replica of src (definition sm) in the call's
// region from a snapshot of src taken now, with the action's overrides;
// others are the regions of the other replicas. drainMu is held.
func (c *call) replicaTable(src *table, sm *tableMeta, a *ReplicaAction, others []string) (*table, error) {
	now := c.Now()
	t := &table{name: src.name, schema: src.schema, keySchema: src.keySchema,
		arn: c.tableARN(src.name), id: newUUID(), created: now, clock: c.clock}
	m := &tableMeta{
		status: statusActive, attrDefs: sm.attrDefs,
		billingMode: sm.billingMode, billingReported: sm.billingReported, payPerRequestSince: sm.payPerRequestSince,
		throughput: throughput{read: sm.throughput.read, write: sm.throughput.write}, onDemand: sm.onDemand,
		stream: sm.stream, sse: sm.sse, tableClass: sm.tableClass, ttl: sm.ttl,
	}
	if d := c.svc.cfg.TransientDelay; d > 0 {
		m.activeAt = now.Add(d)
	}
	if o := a.ProvisionedThroughputOverride; o != nil && o.ReadCapacityUnits != nil && m.billingMode != "PAY_PER_REQUEST" {
		m.throughput.read = *o.ReadCapacityUnits
	}
	if a.TableClassOverride != nil {
		m.tableClass = *a.TableClassOverride
	}
	var err error
	if m.gsis, err = overrideIndexes(t, sm.gsis, false, nil, m.billingMode); err != nil {
		return nil, err
	}
	if m.lsis, err = overrideIndexes(t, sm.lsis, false, nil, m.billingMode); err != nil {
		return nil, err
	}
	m.gsis = withGSIReads(m.gsis, a.GlobalSecondaryIndexes) // global_tables_gsi.go
	e := &tableExt{GlobalVersion: globalVersion2019}
	if sm.ext != nil {
		e.AutoScaling = sm.ext.AutoScaling
	}
	for _, r := range others {
		rec := replicaRec{Region: r, Status: "ACTIVE"}
		if sm.ext != nil {
			// What the source knows of each other member's origin.
			for _, x := range sm.ext.Replicas {
				if x.Region == r {
					rec.Source, rec.Created = x.Source, x.Created
				}
			}
		}
		e.Replicas = append(e.Replicas, rec)
	}
	e.Source, e.SourceAt = others[0], now // the region it is made from (global_tables_delete.go)
	m.ext = e
	s := t.registerStream(c, m, *sm.stream.StreamViewType, "")
	t.meta.Store(m)
	snap, err := src.data.Snapshot().Derive(storage.Derivation{
		Indexes: storageDefs(slices.Concat(m.lsis, m.gsis)),
		Meta:    map[string][]byte{metaKeyTable: encodeTableMeta(t, m)},
	})
	if err != nil {
		c.forgetStream(s)
		return nil, err
	}
	st, err := c.ns.db.RestoreTable(t.name, t.id, snap)
	if errors.Is(err, storage.ErrTableExists) {
		c.forgetStream(s)
		return nil, apierr.Validation(apierr.MsgReplicaAlreadyTables(t.name))
	}
	if err != nil && !errors.Is(err, storage.ErrNotDurable) {
		c.forgetStream(s)
		return nil, err
	}
	t.conv.Store(c.svc.conv.restored(t, nil))
	c.ns.publishTable(t, st, m, s)
	return t, nil
}

// deleteReplica removes region from t's global table and deletes the
// replica's table; the others show it DELETING for the transient delay,
// then no more. globalMu is held.
func (c *call) deleteReplica(t *table, region string) error {
	m := t.snapshot()
	if !slices.Contains(m.replicaRegions(c.region, c.now), region) {
		return apierr.Validation(apierr.MsgReplicaNotPart(region))
	}
	if m.sourcedRecently(region, c.region, c.now) {
		return apierr.Validation(apierr.MsgReplicaSourceRecent)
	}
	ms := c.members(t, m)
	rest := without(regionsOf(ms), region)
	r := &c.svc.repl
	for _, mb := range ms {
		if mb.region == region {
			r.forget(mb.t.id)
			continue
		}
		c.route(mb, rest, false)
	}
	r.mu.Lock()
	r.queue = slices.DeleteFunc(r.queue, func(op replOp) bool {
		return op.to.region == region && op.to.name == t.name && op.to.accessKey == c.accessKey
	})
	r.pending.Store(int64(len(r.queue)))
	r.mu.Unlock()
	tc := *c
	tc.ns, tc.region, tc.out, tc.tableName = c.svc.dbs.lookup(nsKey{accessKey: c.accessKey, region: region}), region, nil, nil
	if tc.ns.getTable(t.name) != nil {
		name := t.name
		if _, err := deleteTable(&tc, &DeleteTableInput{TableName: &name}); err != nil {
			return err
		}
	}
	until := c.transientUntil()
	for _, mb := range ms {
		if mb.region == region {
			continue
		}
		if err := mb.t.changeMeta(func(m *tableMeta) (func(bool) error, error) {
			e := m.extCopy()
			e.Replicas = markDeleting(e.Replicas, region, c.now, until)
			m.ext = e
			return nil, nil
		}); err != nil && !errors.Is(err, storage.ErrNotDurable) {
			return err
		}
	}
	return nil
}

// updateReplica records a replica's overrides: in every member's view
// and on the replica's table (read capacity, table class).
func (c *call) updateReplica(t *table, a *ReplicaAction) error {
	region := *a.RegionName
	m := t.snapshot()
	if region == c.region || !slices.Contains(m.replicaRegions(c.region, c.now), region) {
		return apierr.Validation(apierr.MsgReplicaNotPart(region))
	}
	for _, mb := range c.members(t, m) {
		err := mb.t.changeMeta(func(m *tableMeta) (func(bool) error, error) {
			if mb.region == region {
				if o := a.ProvisionedThroughputOverride; o != nil && o.ReadCapacityUnits != nil && m.billingMode != "PAY_PER_REQUEST" {
					m.throughput.read = *o.ReadCapacityUnits
				}
				if a.TableClassOverride != nil {
					m.tableClass = *a.TableClassOverride
				}
				m.gsis = withGSIReads(m.gsis, a.GlobalSecondaryIndexes)
				return nil, nil
			}
			e := m.extCopy()
			e.Replicas = slices.Clone(e.Replicas)
			for i := range e.Replicas {
				if e.Replicas[i].Region != region {
					continue
				}
				if o := a.ProvisionedThroughputOverride; o != nil && o.ReadCapacityUnits != nil {
					e.Replicas[i].ReadOverride = *o.ReadCapacityUnits
				}
				if a.TableClassOverride != nil {
					e.Replicas[i].TableClass = *a.TableClassOverride
				}
				if a.KMSMasterKeyId != nil {
					e.Replicas[i].KMS = *a.KMSMasterKeyId
				}
				e.Replicas[i].GSIRead = mergeGSIReads(e.Replicas[i].GSIRead, a.GlobalSecondaryIndexes)
			}
			m.ext = e
			return nil, nil
		})
		if err != nil && !errors.Is(err, storage.ErrNotDurable) {
			return err
		}
	}
	return nil
}

// syncReplication routes the writes of table t (definition m, just
// published by a replay) to its replicas: Namespace.Apply calls it, so a
// namespace loaded from disk replicates again.
func (ns *Namespace) syncReplication(t *table, m *tableMeta) {
	if m.ext == nil || len(m.ext.Replicas) == 0 || ns.key == "shared" {
		return
	}
	key, region, ok := strings.Cut(ns.key, "/")
	if !ok {
		return
	}
	to := liveRegions(m.ext.Replicas, ns.svc.clock())
	ns.svc.repl.setRoute(t.id, replTarget{key, region, t.name}, to, m.ext.GlobalVersion == globalVersion2017)
	if len(to) > 0 {
		ns.svc.repl.seedDef(t, m)
	}
}
