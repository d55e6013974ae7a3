package globaltables

import (
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/dynamoemu/dynamoemu/emulator/internal/apierr"
	"github.com/dynamoemu/dynamoemu/emulator/internal/service"
)

// Global tables, version 2017.11.29 (legacy): CreateGlobalTable,
// DescribeGlobalTable, ListGlobalTables, UpdateGlobalTable,
// DescribeGlobalTableSettings and UpdateGlobalTableSettings (AWS API
// reference, API_CreateGlobalTable and the others). As AWS requires, the
// replicas are tables the user created in each region beforehand: same
// name and key schema, empty, with a NEW_AND_OLD_IMAGES stream. The group
// is recorded in each member's definition (the feature's part, with
// GlobalVersion 2017.11.29) and replicates as the 2019.11.21 version does
// (replication.go). Removing a replica leaves its table in place,
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
	CreationDateTime  service.EpochTime    `json:"CreationDateTime"`
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
func legacyMember(c service.Call, name, region string) (service.Table, error) {
	t, ok := c.InRegion(region).Table(name)
	if !ok {
		return service.Table{}, apierr.New(apierr.ErrTableNotFound, apierr.MsgGlobalTableRegionTable(name, region))
	}
	return t, nil
}

// checkJoin checks that table t (in region) may join a 2017.11.29 global
// table whose key schema is that of like (nil: t's own): empty, with a
// NEW_AND_OLD_IMAGES stream, not in another global table.
func checkJoin(t service.Table, like *service.Table, region string) error {
	d := t.Definition()
	x, _ := partOf(d)
	switch {
	case len(x.Replicas) > 0 || x.GlobalVersion != "":
		return apierr.New(apierr.ErrGlobalTableAlreadyExists, apierr.MsgGlobalTableExists(t.Info().Name))
	case d.StreamView() != "NEW_AND_OLD_IMAGES":
		return apierr.Validation(apierr.MsgReplicaStreamRequired)
	case t.Storage() != nil && t.Storage().ItemCount() > 0:
		return apierr.Validation(apierr.MsgGlobalTableNotEmpty(t.Info().Name, region))
	case like != nil && !slices.Equal(t.Info().KeyNames(), like.Info().KeyNames()):
		return apierr.Validation(apierr.MsgGlobalTableKeyMismatch(t.Info().Name, region))
	}
	return nil
}

// setLegacyGroup makes ms one 2017.11.29 global table created at created
// (ms empty of replicas: none), and routes their writes; gone are members
// that leave it.
func (r *replicator) setLegacyGroup(c service.Call, ms []member, gone []member, created time.Time) error {
	regions := regionsOf(ms)
	for _, g := range gone {
		r.setRoute(g.t.Info().ID, replTarget{}, nil, true)
		if err := changePart(g.t, func(x *part) {
			x.Replicas, x.GlobalVersion, x.GlobalCreated = nil, "", time.Time{}
		}); err != nil {
			return err
		}
	}
	for _, mb := range ms {
		r.route(c, mb, regions, true)
		if err := changePart(mb.t, func(x *part) {
			x.Replicas, x.GlobalVersion, x.GlobalCreated = nil, globalVersion2017, created
			for _, rg := range regions {
				if rg != mb.region {
					x.Replicas = append(x.Replicas, replicaRec{Region: rg, Status: "ACTIVE"})
				}
			}
		}); err != nil {
			return err
		}
	}
	return nil
}

// legacyGroup returns the 2017.11.29 global table called name as this
// region's member describes it: its members (this region's first) and
// creation time, or GlobalTableNotFoundException.
func legacyGroup(c service.Call, name string) ([]member, time.Time, error) {
	t, ok := c.Table(name)
	if !ok {
		return nil, time.Time{}, apierr.New(apierr.ErrGlobalTableNotFound, apierr.MsgGlobalTableNotFound(name))
	}
	x, _ := partOf(t.Definition())
	if x.GlobalVersion != globalVersion2017 {
		return nil, time.Time{}, apierr.New(apierr.ErrGlobalTableNotFound, apierr.MsgGlobalTableNotFound(name))
	}
	return members(c, t, x), x.GlobalCreated, nil
}

// globalTableDesc describes a 2017.11.29 global table.
func globalTableDesc(c service.Call, name string, ms []member, created time.Time) *GlobalTableDescription {
	d := &GlobalTableDescription{
		GlobalTableArn:    "arn:aws:dynamodb::" + c.Account() + ":global-table/" + name,
		CreationDateTime:  service.EpochTime(created),
		GlobalTableStatus: "ACTIVE",
		GlobalTableName:   name,
	}
	for _, mb := range ms {
		d.ReplicationGroup = append(d.ReplicationGroup, ReplicaDescription{RegionName: mb.region, ReplicaArn: mb.t.Info().ARN, ReplicaStatus: "ACTIVE"})
	}
	compare := func(a, b ReplicaDescription) int { return strings.Compare(a.RegionName, b.RegionName) }
	sort.Slice(d.ReplicationGroup, func(i, j int) bool { return compare(d.ReplicationGroup[i], d.ReplicationGroup[j]) < 0 })
	return d
}

func createGlobalTable(c service.Call, in *CreateGlobalTableInput) (*GlobalTableOutput, error) {
	var cs apierr.Constraints
	globalNameConstraints(&cs, in.GlobalTableName)
	apierr.NotNull(&cs, nilIfNoSlice(in.ReplicationGroup), "replicationGroup")
	if err := cs.Err(); err != nil {
		return nil, err
	}
	if c.Space().Shared() {
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
	r := replicators.Of(c)
	r.globalMu.Lock()
	defer r.globalMu.Unlock()
	var ms []member
	for _, region := range regions {
		t, err := legacyMember(c, name, region)
		if err != nil {
			return nil, err
		}
		var like *service.Table
		if len(ms) > 0 {
			like = &ms[0].t
		}
		if err := checkJoin(t, like, region); err != nil {
			return nil, err
		}
		ms = append(ms, member{region, t})
	}
	if err := r.setLegacyGroup(c, ms, nil, c.Now()); err != nil {
		return nil, err
	}
	return &GlobalTableOutput{GlobalTableDescription: globalTableDesc(c, name, ms, c.Now())}, nil
}

func describeGlobalTable(c service.Call, in *GlobalTableNameInput) (*GlobalTableOutput, error) {
	var cs apierr.Constraints
	globalNameConstraints(&cs, in.GlobalTableName)
	if err := cs.Err(); err != nil {
		return nil, err
	}
	ms, created, err := legacyGroup(c, *in.GlobalTableName)
	if err != nil {
		return nil, err
	}
	return &GlobalTableOutput{GlobalTableDescription: globalTableDesc(c, *in.GlobalTableName, ms, created)}, nil
}

func listGlobalTables(c service.Call, in *ListGlobalTablesInput) (*ListGlobalTablesOutput, error) {
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
	for _, name := range c.Space().TableNames() {
		if in.ExclusiveStartGlobalTableName != nil && name <= *in.ExclusiveStartGlobalTableName {
			continue
		}
		ms, _, err := legacyGroup(c, name)
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

func updateGlobalTable(c service.Call, in *UpdateGlobalTableInput) (*GlobalTableOutput, error) {
	var cs apierr.Constraints
	globalNameConstraints(&cs, in.GlobalTableName)
	apierr.NotNull(&cs, nilIfNoSlice(in.ReplicaUpdates), "replicaUpdates")
	if err := cs.Err(); err != nil {
		return nil, err
	}
	name := *in.GlobalTableName
	r := replicators.Of(c)
	r.globalMu.Lock()
	defer r.globalMu.Unlock()
	ms, created, err := legacyGroup(c, name)
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
			t, err := legacyMember(c, name, region)
			if err != nil {
				return nil, err
			}
			if err := checkJoin(t, &ms[0].t, region); err != nil {
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
	if err := r.setLegacyGroup(c, ms, gone, created); err != nil {
		return nil, err
	}
	return &GlobalTableOutput{GlobalTableDescription: globalTableDesc(c, name, ms, created)}, nil
}

// nilIfNoSlice turns "member absent" (a nil slice) into a nil pointer so
// apierr.NotNull can check it; an empty JSON list is present.
func nilIfNoSlice[T any](s []T) *[]T {
	if s == nil {
		return nil
	}
	return &s
}
