package service

import (
	"errors"
	"slices"
	"strings"
	"time"

	"github.com/dynamoemu/dynamoemu/emulator/internal/apierr"
	"github.com/dynamoemu/dynamoemu/internal/storage"
)

// Global tables, version 2017.11.29 (legacy): CreateGlobalTable,
// DescribeGlobalTable, ListGlobalTables, UpdateGlobalTable,
// DescribeGlobalTableSettings and UpdateGlobalTableSettings (AWS API
// reference, API_CreateGlobalTable and the others). As AWS requires, the
// replicas are tables the user created in each region beforehand: same
// name and key schema, empty, with a NEW_AND_OLD_IMAGES stream. The group
// is recorded in each member's definition (tableExt, with GlobalVersion
// 2017.11.29) and replicates as the 2019.11.21 version does
// (global_tables_repl.go). Removing a replica leaves its table in place,
// no longer replicated, as on AWS.
//
// AWS no longer creates 2017.11.29 global tables: public records of its
// answers in 2026 (ack-api-quirks lab notes DDB-GLOBALTABLE-002) show
// CreateGlobalTable, and UpdateGlobalTable's Create, refused everywhere
// with "One or more parameter values were invalid: DynamoDB global
// tables version 2017.11.29 is not supported. We recommend using DynamoDB
// global tables version 2019.11.21, instead of version 2017.11.29
// (Legacy).", while existing legacy groups are still described. The
// emulator keeps creating them, for code written against such groups.

func init() {
	register("CreateGlobalTable", createGlobalTable)
	register("DescribeGlobalTable", describeGlobalTable)
	register("ListGlobalTables", listGlobalTables)
	register("UpdateGlobalTable", updateGlobalTable)
}

const globalVersion2017 = "2017.11.29"

// Replica is a {RegionName} of a replication group.
type Replica struct {
	RegionName *string `json:"RegionName"`
}

// CreateGlobalTableInput is the CreateGlobalTable request.
type CreateGlobalTableInput struct {
	GlobalTableName  *string   `json:"GlobalTableName"`
	ReplicationGroup []Replica `json:"ReplicationGroup"`
}

// GlobalTableDescription is AWS's GlobalTableDescription.
type GlobalTableDescription struct {
	ReplicationGroup  []ReplicaDescription `json:"ReplicationGroup"`
	GlobalTableArn    string               `json:"GlobalTableArn"`
	CreationDateTime  epochTime            `json:"CreationDateTime"`
	GlobalTableStatus string               `json:"GlobalTableStatus"`
	GlobalTableName   string               `json:"GlobalTableName"`
}

// GlobalTableOutput is the answer of Create, Describe and UpdateGlobalTable.
type GlobalTableOutput struct {
	GlobalTableDescription *GlobalTableDescription `json:"GlobalTableDescription"`
}

// GlobalTableNameInput is DescribeGlobalTable's and DescribeGlobalTableSettings' request.
type GlobalTableNameInput struct {
	GlobalTableName *string `json:"GlobalTableName"`
}

// ListGlobalTablesInput is the ListGlobalTables request.
type ListGlobalTablesInput struct {
	ExclusiveStartGlobalTableName *string `json:"ExclusiveStartGlobalTableName"`
	Limit                         *int64  `json:"Limit"`
	RegionName                    *string `json:"RegionName"`
}

// GlobalTable is one global table listed.
type GlobalTable struct {
	GlobalTableName  string          `json:"GlobalTableName"`
	ReplicationGroup []ReplicaRegion `json:"ReplicationGroup"`
}

// ReplicaRegion is a listed replica.
type ReplicaRegion struct {
	RegionName string `json:"RegionName"`
}

// ListGlobalTablesOutput is the ListGlobalTables response.
type ListGlobalTablesOutput struct {
	GlobalTables                 []GlobalTable `json:"GlobalTables"`
	LastEvaluatedGlobalTableName string        `json:"LastEvaluatedGlobalTableName,omitempty"`
}

// ReplicaUpdate is one of UpdateGlobalTable's ReplicaUpdates.
type ReplicaUpdate struct {
	Create *Replica `json:"Create"`
	Delete *Replica `json:"Delete"`
}

// UpdateGlobalTableInput is the UpdateGlobalTable request.
type UpdateGlobalTableInput struct {
	GlobalTableName *string         `json:"GlobalTableName"`
	ReplicaUpdates  []ReplicaUpdate `json:"ReplicaUpdates"`
}

// globalNameConstraints checks a GlobalTableName (a table name).
func globalNameConstraints(cs *apierr.Constraints, name *string) {
	if apierr.NotNull(cs, name, "globalTableName") {
		apierr.NameConstraints(cs, *name, "globalTableName")
	}
}

// legacyMember returns the table called name in region, or
// TableNotFoundException.
func (c *call) legacyMember(name, region string) (*table, error) {
	t := c.svc.dbs.lookup(nsKey{accessKey: c.accessKey, region: region}).getTable(name)
	if t == nil {
		return nil, apierr.New(apierr.ErrTableNotFound, apierr.MsgGlobalTableRegionTable(name, region))
	}
	return t, nil
}

// checkJoin checks that table t (in region) may join a 2017.11.29 global
// table whose key schema is that of like (nil: t's own): empty, with a
// NEW_AND_OLD_IMAGES stream, not in another global table.
func (c *call) checkJoin(t, like *table, region string) error {
	m := t.snapshot()
	switch {
	case m.ext != nil && (len(m.ext.Replicas) > 0 || m.ext.GlobalVersion != ""):
		return apierr.New(apierr.ErrGlobalTableAlreadyExists, apierr.MsgGlobalTableExists(t.name))
	case !m.streamOn() || *m.stream.StreamViewType != "NEW_AND_OLD_IMAGES":
		return apierr.Validation(apierr.MsgReplicaStreamRequired)
	case t.data != nil && t.data.ItemCount() > 0:
		return apierr.Validation(apierr.MsgGlobalTableNotEmpty(t.name, region))
	case like != nil && !slices.Equal(t.keySchema, like.keySchema):
		return apierr.Validation(apierr.MsgGlobalTableKeyMismatch(t.name, region))
	}
	return nil
}

// setLegacyGroup makes ms one 2017.11.29 global table created at created
// (ms empty of replicas: none), and routes their writes; gone are members
// that leave it.
func (c *call) setLegacyGroup(ms []member, gone []member, created time.Time) error {
	regions := regionsOf(ms)
	for _, g := range gone {
		c.svc.repl.setRoute(g.t.id, replTarget{}, nil, true)
		if err := g.t.changeMeta(func(m *tableMeta) (func(bool) error, error) {
			e := m.extCopy()
			e.Replicas, e.GlobalVersion, e.GlobalCreated = nil, "", time.Time{}
			m.ext = e
			return nil, nil
		}); err != nil && !errors.Is(err, storage.ErrNotDurable) {
			return err
		}
	}
	for _, mb := range ms {
		c.route(mb, regions, true)
		if err := mb.t.changeMeta(func(m *tableMeta) (func(bool) error, error) {
			e := m.extCopy()
			e.Replicas, e.GlobalVersion, e.GlobalCreated = nil, globalVersion2017, created
			for _, r := range regions {
				if r != mb.region {
					e.Replicas = append(e.Replicas, replicaRec{Region: r, Status: "ACTIVE"})
				}
			}
			m.ext = e
			return nil, nil
		}); err != nil && !errors.Is(err, storage.ErrNotDurable) {
			return err
		}
	}
	return nil
}

// legacyGroup returns the 2017.11.29 global table called name as this
// region's member describes it: its members (this region's first) and
// creation time, or GlobalTableNotFoundException.
func (c *call) legacyGroup(name string) ([]member, time.Time, error) {
	t := c.ns.getTable(name)
	if t == nil {
		return nil, time.Time{}, apierr.New(apierr.ErrGlobalTableNotFound, apierr.MsgGlobalTableNotFound(name))
	}
	m := t.snapshot()
	if m.ext == nil || m.ext.GlobalVersion != globalVersion2017 {
		return nil, time.Time{}, apierr.New(apierr.ErrGlobalTableNotFound, apierr.MsgGlobalTableNotFound(name))
	}
	return c.members(t, m), m.ext.GlobalCreated, nil
}

// globalTableDesc describes a 2017.11.29 global table.
func (c *call) globalTableDesc(name string, ms []member, created time.Time) *GlobalTableDescription {
	d := &GlobalTableDescription{
		GlobalTableArn:    "arn:aws:dynamodb::" + c.account + ":global-table/" + name,
		CreationDateTime:  epochTime(created),
		GlobalTableStatus: "ACTIVE",
		GlobalTableName:   name,
	}
	for _, mb := range ms {
		d.ReplicationGroup = append(d.ReplicationGroup, ReplicaDescription{RegionName: mb.region, ReplicaStatus: "ACTIVE"})
	}
	slices.SortFunc(d.ReplicationGroup, func(a, b ReplicaDescription) int { return strings.Compare(a.RegionName, b.RegionName) })
	return d
}

func createGlobalTable(c *call, in *CreateGlobalTableInput) (*GlobalTableOutput, error) {
	var cs apierr.Constraints
	globalNameConstraints(&cs, in.GlobalTableName)
	apierr.NotNull(&cs, nilIfNoSlice(in.ReplicationGroup), "replicationGroup")
	if err := cs.Err(); err != nil {
		return nil, err
	}
	if c.svc.cfg.SharedDB {
		return nil, apierr.Validation(apierr.MsgReplicaSharedDB)
	}
	name := *in.GlobalTableName
	var regions []string
	for _, r := range in.ReplicationGroup {
		if r.RegionName == nil || !validRegion(*r.RegionName) {
			return nil, apierr.Validation(apierr.MsgReplicaRegionInvalid(str(r.RegionName)))
		}
		if !slices.Contains(regions, *r.RegionName) {
			regions = append(regions, *r.RegionName)
		}
	}
	c.svc.repl.globalMu.Lock()
	defer c.svc.repl.globalMu.Unlock()
	var ms []member
	for _, region := range regions {
		t, err := c.legacyMember(name, region)
		if err != nil {
			return nil, err
		}
		var like *table
		if len(ms) > 0 {
			like = ms[0].t
		}
		if err := c.checkJoin(t, like, region); err != nil {
			return nil, err
		}
		ms = append(ms, member{region, t})
	}
	if err := c.setLegacyGroup(ms, nil, c.now); err != nil {
		return nil, err
	}
	return &GlobalTableOutput{GlobalTableDescription: c.globalTableDesc(name, ms, c.now)}, nil
}

func describeGlobalTable(c *call, in *GlobalTableNameInput) (*GlobalTableOutput, error) {
	var cs apierr.Constraints
	globalNameConstraints(&cs, in.GlobalTableName)
	if err := cs.Err(); err != nil {
		return nil, err
	}
	ms, created, err := c.legacyGroup(*in.GlobalTableName)
	if err != nil {
		return nil, err
	}
	return &GlobalTableOutput{GlobalTableDescription: c.globalTableDesc(*in.GlobalTableName, ms, created)}, nil
}

func listGlobalTables(c *call, in *ListGlobalTablesInput) (*ListGlobalTablesOutput, error) {
	var cs apierr.Constraints
	if in.ExclusiveStartGlobalTableName != nil {
		apierr.NameConstraints(&cs, *in.ExclusiveStartGlobalTableName, "exclusiveStartGlobalTableName")
	}
	if in.Limit != nil && *in.Limit < 1 {
		cs.Add(apierr.QuoteInt(*in.Limit), "limit", apierr.ValGE(1))
	}
	if err := cs.Err(); err != nil {
		return nil, err
	}
	limit := 100
	if in.Limit != nil && *in.Limit < 100 {
		limit = int(*in.Limit)
	}
	out := &ListGlobalTablesOutput{GlobalTables: []GlobalTable{}}
	for _, name := range c.ns.tableNames() {
		if in.ExclusiveStartGlobalTableName != nil && name <= *in.ExclusiveStartGlobalTableName {
			continue
		}
		ms, _, err := c.legacyGroup(name)
		if err != nil {
			continue
		}
		regions := regionsOf(ms)
		if in.RegionName != nil && !slices.Contains(regions, *in.RegionName) {
			continue
		}
		if len(out.GlobalTables) == limit {
			out.LastEvaluatedGlobalTableName = out.GlobalTables[limit-1].GlobalTableName
			break
		}
		slices.Sort(regions)
		g := GlobalTable{GlobalTableName: name}
		for _, r := range regions {
			g.ReplicationGroup = append(g.ReplicationGroup, ReplicaRegion{r})
		}
		out.GlobalTables = append(out.GlobalTables, g)
	}
	return out, nil
}

func updateGlobalTable(c *call, in *UpdateGlobalTableInput) (*GlobalTableOutput, error) {
	var cs apierr.Constraints
	globalNameConstraints(&cs, in.GlobalTableName)
	apierr.NotNull(&cs, nilIfNoSlice(in.ReplicaUpdates), "replicaUpdates")
	if err := cs.Err(); err != nil {
		return nil, err
	}
	name := *in.GlobalTableName
	c.svc.repl.globalMu.Lock()
	defer c.svc.repl.globalMu.Unlock()
	ms, created, err := c.legacyGroup(name)
	if err != nil {
		return nil, err
	}
	var gone []member
	for _, u := range in.ReplicaUpdates {
		if (u.Create == nil) == (u.Delete == nil) {
			return nil, apierr.Validation(apierr.MsgReplicaOneAction)
		}
		a := u.Create
		if a == nil {
			a = u.Delete
		}
		if a.RegionName == nil || !validRegion(*a.RegionName) {
			return nil, apierr.Validation(apierr.MsgReplicaRegionInvalid(str(a.RegionName)))
		}
		region := *a.RegionName
		i := slices.IndexFunc(ms, func(m member) bool { return m.region == region })
		if u.Create != nil {
			if i >= 0 {
				return nil, apierr.New(apierr.ErrReplicaAlreadyExists, apierr.MsgReplicaInGroup(region))
			}
			t, err := c.legacyMember(name, region)
			if err != nil {
				return nil, err
			}
			if err := c.checkJoin(t, ms[0].t, region); err != nil {
				return nil, err
			}
			ms = append(ms, member{region, t})
			continue
		}
		if i < 0 {
			return nil, apierr.New(apierr.ErrReplicaNotFound, apierr.MsgReplicaNotInGroup(region))
		}
		gone = append(gone, ms[i])
		ms = slices.Delete(ms, i, i+1)
	}
	if err := c.setLegacyGroup(ms, gone, created); err != nil {
		return nil, err
	}
	return &GlobalTableOutput{GlobalTableDescription: c.globalTableDesc(name, ms, created)}, nil
}
