package iac

import (
	"encoding/json"
	"fmt"
	"sort"

	"github.com/dynamoemu/dynamoemu/internal/shapes"
)

// The resource types read.
const (
	typeTable       = "AWS::DynamoDB::Table"
	typeGlobalTable = "AWS::DynamoDB::GlobalTable"
	typeSimpleTable = "AWS::Serverless::SimpleTable" // SAM's
)

// isTableType reports whether typ is a table type read.
func isTableType(typ string) bool {
	return typ == typeTable || typ == typeGlobalTable || typ == typeSimpleTable
}

// table reads one resource's Properties into a Table.
func (r *resolver) table(id, typ string, raw map[string]any) (Table, error) {
	at := "Resources." + id + ".Properties"
	rv, err := r.resolve(raw, at)
	if err != nil {
		return Table{}, err
	}
	props, _ := rv.(map[string]any)
	t := Table{LogicalID: id, Name: r.tableNames[id]}
	t.Create.TableName = ptr(r.tableNames[id])
	switch typ {
	case typeGlobalTable:
		err = r.globalTable(&t, props, at)
	case typeSimpleTable:
		err = simpleTable(&t, props, at)
	default:
		err = plainTable(&t, props, at)
	}
	return t, err
}

// unknownProp is the error of a property the emulator cannot take.
func unknownProp(at, name string) error {
	return fmt.Errorf("%s.%s: a property the emulator cannot take exactly (not read)", at, name)
}

// tableProps are the properties of an AWS::DynamoDB::Table the emulator
// takes; any other (KinesisStreamSpecification,
// ImportSourceSpecification, a name unknown) is an error.
type tableProps struct {
	TableName                        string
	AttributeDefinitions             []shapes.AttributeDefinition[*string]
	KeySchema                        []shapes.KeySchemaElement[*string]
	BillingMode                      *string
	TableClass                       *string
	DeletionProtectionEnabled        *bool
	Tags                             []shapes.Tag[*string]
	OnDemandThroughput               *shapes.OnDemandThroughput
	WarmThroughput                   *shapes.WarmThroughput
	ProvisionedThroughput            *shapes.ProvisionedThroughput[*Int]
	GlobalSecondaryIndexes           []cfnGlobalIndex
	LocalSecondaryIndexes            []shapes.LocalSecondaryIndex
	StreamSpecification              *cfnStream
	SSESpecification                 *cfnSSE
	ResourcePolicy                   any // {PolicyDocument: ...}
	TimeToLiveSpecification          *shapes.TimeToLiveSpecification
	PointInTimeRecoverySpecification *shapes.PointInTimeRecoverySpecification
	ContributorInsightsSpecification *cfnInsights
}

// cfnGlobalIndex is a GSI of an AWS::DynamoDB::Table: CreateTable's,
// with its capacity's numbers as CloudFormation takes them.
type cfnGlobalIndex struct {
	shapes.GlobalSecondaryIndex
	ProvisionedThroughput *shapes.ProvisionedThroughput[*Int] `json:"ProvisionedThroughput"`
}

// cfnStream is CloudFormation's StreamSpecification.
type cfnStream struct{ StreamViewType *string }

// create is s as CreateTable's {StreamEnabled, StreamViewType}.
func (s *cfnStream) create() *shapes.StreamSpecification {
	if s == nil {
		return nil
	}
	return &shapes.StreamSpecification{StreamEnabled: ptr(true), StreamViewType: s.StreamViewType}
}

// cfnSSE is CloudFormation's SSESpecification (a global table's takes
// no KMSMasterKeyId: its replicas' do).
type cfnSSE struct {
	SSEEnabled              *bool
	SSEType, KMSMasterKeyId *string
}

// create is s as CreateTable's SSESpecification.
func (s *cfnSSE) create() *shapes.SSESpecification {
	if s == nil {
		return nil
	}
	return &shapes.SSESpecification{Enabled: s.SSEEnabled, SSEType: s.SSEType, KMSMasterKeyId: s.KMSMasterKeyId}
}

// cfnInsights is CloudFormation's ContributorInsightsSpecification.
type cfnInsights struct{ Enabled bool }

func plainTable(t *Table, raw map[string]any, at string) error {
	var p tableProps
	if err := decode(raw, at, &p); err != nil {
		return err
	}
	c := &t.Create
	c.AttributeDefinitions, c.KeySchema, c.BillingMode, c.TableClass = p.AttributeDefinitions, p.KeySchema, p.BillingMode, p.TableClass
	c.DeletionProtectionEnabled, c.Tags = p.DeletionProtectionEnabled, p.Tags
	c.ProvisionedThroughput, c.OnDemandThroughput, c.WarmThroughput = int64s(p.ProvisionedThroughput), p.OnDemandThroughput, p.WarmThroughput
	c.LocalSecondaryIndexes = p.LocalSecondaryIndexes
	for _, g := range p.GlobalSecondaryIndexes {
		g.GlobalSecondaryIndex.ProvisionedThroughput = int64s(g.ProvisionedThroughput)
		c.GlobalSecondaryIndexes = append(c.GlobalSecondaryIndexes, g.GlobalSecondaryIndex)
	}
	c.StreamSpecification, c.SSESpecification = p.StreamSpecification.create(), p.SSESpecification.create()
	if p.ResourcePolicy != nil {
		m, _ := p.ResourcePolicy.(map[string]any)
		doc, ok := m["PolicyDocument"]
		if !ok || len(m) != 1 {
			return fmt.Errorf("%s.ResourcePolicy: want {PolicyDocument: ...}", at)
		}
		b, err := json.Marshal(doc)
		if err != nil {
			return fmt.Errorf("%s.ResourcePolicy: %w", at, err)
		}
		t.Create.ResourcePolicy = ptr(string(b))
	}
	t.settings(p.TimeToLiveSpecification, p.PointInTimeRecoverySpecification, p.ContributorInsightsSpecification)
	return nil
}

// settings keeps what CreateTable does not take, each when enabled.
func (t *Table) settings(ttl *shapes.TimeToLiveSpecification, pitr *shapes.PointInTimeRecoverySpecification, ci *cfnInsights) {
	if ttl != nil && ttl.Enabled != nil && *ttl.Enabled {
		t.TTL = ttl
	}
	if pitr != nil && pitr.PointInTimeRecoveryEnabled != nil && *pitr.PointInTimeRecoveryEnabled {
		t.PITR = pitr
	}
	if ci != nil && ci.Enabled {
		t.ContributorInsights = "ENABLE"
	}
}

// globalTableProps are the properties of an AWS::DynamoDB::GlobalTable
// the emulator takes (GlobalTableWitnesses, MultiRegionConsistency and
// names unknown are errors).
type globalTableProps struct {
	TableName                          string
	Replicas                           any // read by localReplica
	AttributeDefinitions               []shapes.AttributeDefinition[*string]
	KeySchema                          []shapes.KeySchemaElement[*string]
	BillingMode                        *string
	WarmThroughput                     *shapes.WarmThroughput
	WriteProvisionedThroughputSettings *writeProvisioned
	WriteOnDemandThroughputSettings    *struct{ MaxWriteRequestUnits *int64 }
	LocalSecondaryIndexes              []shapes.LocalSecondaryIndex
	GlobalSecondaryIndexes             []globalTableIndex
	StreamSpecification                *cfnStream
	SSESpecification                   *struct {
		SSEEnabled *bool
		SSEType    *string
	}
	TimeToLiveSpecification *shapes.TimeToLiveSpecification
}

// replicaProps are the properties of a global table's replica the
// emulator takes, in the region the tables are made in
// (KinesisStreamSpecification, ReplicaStreamSpecification,
// ResourcePolicy and names unknown are errors).
type replicaProps struct {
	Region                            string
	ReadProvisionedThroughputSettings *readProvisioned
	ReadOnDemandThroughputSettings    *struct{ MaxReadRequestUnits *int64 }
	GlobalSecondaryIndexes            []replicaIndex
	TableClass                        *string
	DeletionProtectionEnabled         *bool
	Tags                              []shapes.Tag[*string]
	PointInTimeRecoverySpecification  *shapes.PointInTimeRecoverySpecification
	ContributorInsightsSpecification  *cfnInsights
	SSESpecification                  *struct{ KMSMasterKeyId *string }
}

// globalTableIndex is a global table's GSI.
type globalTableIndex struct {
	IndexName                          *string
	KeySchema                          []shapes.KeySchemaElement[*string]
	Projection                         *shapes.Projection[*string]
	WarmThroughput                     *shapes.WarmThroughput
	WriteProvisionedThroughputSettings *writeProvisioned
	WriteOnDemandThroughputSettings    *struct{ MaxWriteRequestUnits *int64 }
}

// replicaIndex is a replica's settings of a GSI: its read capacity is
// read; its on-demand reads and contributor insights are not.
type replicaIndex struct {
	IndexName                         string
	ReadProvisionedThroughputSettings *readProvisioned
	ReadOnDemandThroughputSettings    map[string]any
	ContributorInsightsSpecification  map[string]any
}

// writeProvisioned is WriteProvisionedThroughputSettings.
type writeProvisioned struct {
	WriteCapacityAutoScalingSettings *autoScaling
}

// readProvisioned is ReadProvisionedThroughputSettings.
type readProvisioned struct {
	ReadCapacityUnits               *Int
	ReadCapacityAutoScalingSettings *autoScaling
}

// autoScaling is a capacity's autoscaling: the emulator does not scale,
// so its minimum is the capacity.
type autoScaling struct {
	MinCapacity, MaxCapacity, SeedCapacity   *Int
	TargetTrackingScalingPolicyConfiguration map[string]any
}

// globalTable reads an AWS::DynamoDB::GlobalTable: the table is its
// replica in Options.Region, the other replicas' regions are listed.
func (r *resolver) globalTable(t *Table, raw map[string]any, at string) error {
	var p globalTableProps
	if err := decode(raw, at, &p); err != nil {
		return err
	}
	rat := at + ".Replicas[" + r.opts.Region + "]"
	hereRaw, err := r.localReplica(t, p.Replicas, at)
	if err != nil {
		return err
	}
	var here replicaProps
	if err := decode(hereRaw, rat, &here); err != nil {
		return err
	}
	provisioned := p.BillingMode != nil && *p.BillingMode == "PROVISIONED"
	c := &t.Create
	if provisioned {
		wcu, err := writeUnits(p.WriteProvisionedThroughputSettings, at+".WriteProvisionedThroughputSettings")
		if err != nil {
			return err
		}
		rcu, err := readUnits(here.ReadProvisionedThroughputSettings, rat+".ReadProvisionedThroughputSettings")
		if err != nil {
			return err
		}
		c.ProvisionedThroughput = &shapes.ProvisionedThroughput[*int64]{ReadCapacityUnits: &rcu, WriteCapacityUnits: &wcu}
	}
	c.AttributeDefinitions, c.KeySchema, c.BillingMode, c.WarmThroughput = p.AttributeDefinitions, p.KeySchema, p.BillingMode, p.WarmThroughput
	c.LocalSecondaryIndexes, c.StreamSpecification = p.LocalSecondaryIndexes, p.StreamSpecification.create()
	if p.GlobalSecondaryIndexes != nil {
		if c.GlobalSecondaryIndexes, err = globalIndexes(p.GlobalSecondaryIndexes, here.GlobalSecondaryIndexes, at+".GlobalSecondaryIndexes", rat, provisioned); err != nil {
			return err
		}
	}
	if s := p.SSESpecification; s != nil {
		c.SSESpecification = &shapes.SSESpecification{Enabled: s.SSEEnabled, SSEType: s.SSEType}
	}
	if s := here.SSESpecification; s != nil {
		if c.SSESpecification == nil {
			c.SSESpecification = &shapes.SSESpecification{}
		}
		c.SSESpecification.KMSMasterKeyId = s.KMSMasterKeyId
	}
	if w, rd := p.WriteOnDemandThroughputSettings, here.ReadOnDemandThroughputSettings; w != nil || rd != nil {
		c.OnDemandThroughput = &shapes.OnDemandThroughput{}
		if w != nil {
			c.OnDemandThroughput.MaxWriteRequestUnits = w.MaxWriteRequestUnits
		}
		if rd != nil {
			c.OnDemandThroughput.MaxReadRequestUnits = rd.MaxReadRequestUnits
		}
	}
	c.TableClass, c.DeletionProtectionEnabled, c.Tags = here.TableClass, here.DeletionProtectionEnabled, here.Tags
	t.settings(p.TimeToLiveSpecification, here.PointInTimeRecoverySpecification, here.ContributorInsightsSpecification)
	return nil
}

// localReplica returns the replica of a global table in Options.Region,
// listing the other replicas' regions in t.
func (r *resolver) localReplica(t *Table, replicas any, at string) (map[string]any, error) {
	reps, ok := replicas.([]any)
	if !ok || len(reps) == 0 {
		return nil, fmt.Errorf("%s.Replicas: want a list of replicas", at)
	}
	var here map[string]any
	for i, rep := range reps {
		m, ok := rep.(map[string]any)
		region, _ := m["Region"].(string)
		if !ok || region == "" {
			return nil, fmt.Errorf("%s.Replicas[%d]: want a Region", at, i)
		}
		if region == r.opts.Region {
			here = m
		} else {
			t.Replicas = append(t.Replicas, region)
		}
	}
	if here == nil {
		return nil, fmt.Errorf("%s.Replicas: no replica in %s, the region the tables are made in", at, r.opts.Region)
	}
	return here, nil
}

// writeUnits is a global table's write capacity: its autoscaling minimum
// (the emulator does not scale).
func writeUnits(w *writeProvisioned, at string) (int64, error) {
	if w == nil || w.WriteCapacityAutoScalingSettings == nil {
		return 0, fmt.Errorf("%s.WriteCapacityAutoScalingSettings: a PROVISIONED global table needs it", at)
	}
	if m := w.WriteCapacityAutoScalingSettings.MinCapacity; m != nil {
		return int64(*m), nil
	}
	return 0, fmt.Errorf("%s.WriteCapacityAutoScalingSettings.MinCapacity: a PROVISIONED global table needs it", at)
}

// readUnits is a replica's read capacity: ReadCapacityUnits, or its
// autoscaling minimum.
func readUnits(rp *readProvisioned, at string) (int64, error) {
	switch {
	case rp == nil:
	case rp.ReadCapacityUnits != nil:
		return int64(*rp.ReadCapacityUnits), nil
	case rp.ReadCapacityAutoScalingSettings != nil && rp.ReadCapacityAutoScalingSettings.MinCapacity != nil:
		return int64(*rp.ReadCapacityAutoScalingSettings.MinCapacity), nil
	}
	return 0, fmt.Errorf("%s: a PROVISIONED global table's replica needs ReadCapacityUnits or ReadCapacityAutoScalingSettings", at)
}

// globalIndexes makes a global table's GSIs CreateTable's, with the read
// settings of the replica here (at rat).
func globalIndexes(l []globalTableIndex, here []replicaIndex, at, rat string, provisioned bool) ([]shapes.GlobalSecondaryIndex, error) {
	repIdx := map[string]*readProvisioned{}
	for _, ri := range here {
		repIdx[ri.IndexName] = ri.ReadProvisionedThroughputSettings
	}
	out := make([]shapes.GlobalSecondaryIndex, 0, len(l))
	for i, g := range l {
		idx := shapes.GlobalSecondaryIndex{IndexName: g.IndexName, KeySchema: g.KeySchema, Projection: g.Projection, WarmThroughput: g.WarmThroughput}
		name := ""
		if g.IndexName != nil {
			name = *g.IndexName
		}
		if w := g.WriteOnDemandThroughputSettings; w != nil {
			idx.OnDemandThroughput = &shapes.OnDemandThroughput{MaxWriteRequestUnits: w.MaxWriteRequestUnits}
		}
		if provisioned {
			wcu, err := writeUnits(g.WriteProvisionedThroughputSettings, fmt.Sprintf("%s[%d].WriteProvisionedThroughputSettings", at, i))
			if err != nil {
				return nil, err
			}
			rcu, err := readUnits(repIdx[name], rat+".GlobalSecondaryIndexes["+name+"].ReadProvisionedThroughputSettings")
			if err != nil {
				return nil, err
			}
			idx.ProvisionedThroughput = &shapes.ProvisionedThroughput[*int64]{ReadCapacityUnits: &rcu, WriteCapacityUnits: &wcu}
		}
		out = append(out, idx)
	}
	return out, nil
}

// simpleTableProps are the properties of SAM's
// AWS::Serverless::SimpleTable.
type simpleTableProps struct {
	TableName             string
	PrimaryKey            *struct{ Name, Type string }
	ProvisionedThroughput *shapes.ProvisionedThroughput[*Int]
	SSESpecification      *struct{ SSEEnabled *bool }
	Tags                  any // a mapping of tag names to values
}

// simpleTable reads SAM's AWS::Serverless::SimpleTable: a partition key
// (PrimaryKey, default {Name: id, Type: String}), on-demand unless
// ProvisionedThroughput says otherwise, Tags as a map.
func simpleTable(t *Table, raw map[string]any, at string) error {
	var p simpleTableProps
	if err := decode(raw, at, &p); err != nil {
		return err
	}
	key, typ := "id", "String"
	if pk := p.PrimaryKey; pk != nil {
		if pk.Name != "" {
			key = pk.Name
		}
		if pk.Type != "" {
			typ = pk.Type
		}
	}
	c := &t.Create
	c.ProvisionedThroughput = int64s(p.ProvisionedThroughput)
	if p.SSESpecification != nil {
		c.SSESpecification = &shapes.SSESpecification{Enabled: p.SSESpecification.SSEEnabled}
	}
	if p.Tags != nil {
		m, ok := p.Tags.(map[string]any)
		if !ok {
			return fmt.Errorf("%s.Tags: want a mapping of tag names to values", at)
		}
		for _, k := range sortedKeys(m) {
			c.Tags = append(c.Tags, shapes.Tag[*string]{Key: ptr(k), Value: ptr(scalarString(m[k]))})
		}
	}
	short := map[string]string{"String": "S", "Number": "N", "Binary": "B"}[typ]
	if short == "" {
		return fmt.Errorf("%s.PrimaryKey.Type %q: want String, Number or Binary", at, typ)
	}
	c.AttributeDefinitions = []shapes.AttributeDefinition[*string]{{AttributeName: ptr(key), AttributeType: ptr(short)}}
	c.KeySchema = []shapes.KeySchemaElement[*string]{{AttributeName: ptr(key), KeyType: ptr("HASH")}}
	if c.ProvisionedThroughput == nil {
		c.BillingMode = ptr("PAY_PER_REQUEST")
	}
	return nil
}

func sortedKeys(m map[string]any) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}
