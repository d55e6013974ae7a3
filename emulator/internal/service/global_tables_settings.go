package service

import (
	"errors"
	"slices"
	"strings"
	"time"

	"github.com/dynamoemu/dynamoemu/emulator/internal/apierr"
	"github.com/dynamoemu/dynamoemu/internal/storage"
)

// DescribeGlobalTableSettings and UpdateGlobalTableSettings (AWS API
// reference) for 2017.11.29 global tables: each replica's billing mode,
// provisioned capacity and auto scaling settings (kept in the replica
// tables' definitions, as replica_autoscaling.go keeps them), its GSIs'
// and its table class. Capacity is recorded and described, never
// enforced.

// ReplicaGSISettingsDescription is ReplicaGlobalSecondaryIndexSettingsDescription.
type ReplicaGSISettingsDescription struct {
	IndexName                                   string                          `json:"IndexName"`
	IndexStatus                                 string                          `json:"IndexStatus"`
	ProvisionedReadCapacityUnits                int64                           `json:"ProvisionedReadCapacityUnits"`
	ProvisionedReadCapacityAutoScalingSettings  *AutoScalingSettingsDescription `json:"ProvisionedReadCapacityAutoScalingSettings"`
	ProvisionedWriteCapacityUnits               int64                           `json:"ProvisionedWriteCapacityUnits"`
	ProvisionedWriteCapacityAutoScalingSettings *AutoScalingSettingsDescription `json:"ProvisionedWriteCapacityAutoScalingSettings"`
}

// ReplicaSettingsDescription is one replica's settings.
type ReplicaSettingsDescription struct {
	RegionName                                         string                          `json:"RegionName"`
	ReplicaStatus                                      string                          `json:"ReplicaStatus"`
	ReplicaBillingModeSummary                          *BillingModeSummary             `json:"ReplicaBillingModeSummary,omitempty"`
	ReplicaProvisionedReadCapacityUnits                int64                           `json:"ReplicaProvisionedReadCapacityUnits"`
	ReplicaProvisionedReadCapacityAutoScalingSettings  *AutoScalingSettingsDescription `json:"ReplicaProvisionedReadCapacityAutoScalingSettings"`
	ReplicaProvisionedWriteCapacityUnits               int64                           `json:"ReplicaProvisionedWriteCapacityUnits"`
	ReplicaProvisionedWriteCapacityAutoScalingSettings *AutoScalingSettingsDescription `json:"ReplicaProvisionedWriteCapacityAutoScalingSettings"`
	ReplicaGlobalSecondaryIndexSettings                []ReplicaGSISettingsDescription `json:"ReplicaGlobalSecondaryIndexSettings,omitempty"`
	ReplicaTableClassSummary                           *TableClassSummary              `json:"ReplicaTableClassSummary,omitempty"`
}

// GlobalTableSettingsOutput is both operations' response.
type GlobalTableSettingsOutput struct {
	GlobalTableName string                       `json:"GlobalTableName"`
	ReplicaSettings []ReplicaSettingsDescription `json:"ReplicaSettings"`
}

// GlobalGSISettingsUpdate is GlobalTableGlobalSecondaryIndexSettingsUpdate.
type GlobalGSISettingsUpdate struct {
	IndexName                                         *string                    `json:"IndexName"`
	ProvisionedWriteCapacityUnits                     *int64                     `json:"ProvisionedWriteCapacityUnits"`
	ProvisionedWriteCapacityAutoScalingSettingsUpdate *AutoScalingSettingsUpdate `json:"ProvisionedWriteCapacityAutoScalingSettingsUpdate"`
}

// ReplicaGSISettingsUpdate is ReplicaGlobalSecondaryIndexSettingsUpdate.
type ReplicaGSISettingsUpdate struct {
	IndexName                                        *string                    `json:"IndexName"`
	ProvisionedReadCapacityUnits                     *int64                     `json:"ProvisionedReadCapacityUnits"`
	ProvisionedReadCapacityAutoScalingSettingsUpdate *AutoScalingSettingsUpdate `json:"ProvisionedReadCapacityAutoScalingSettingsUpdate"`
}

// ReplicaSettingsUpdate is one replica's update.
type ReplicaSettingsUpdate struct {
	RegionName                                              *string                    `json:"RegionName"`
	ReplicaProvisionedReadCapacityUnits                     *int64                     `json:"ReplicaProvisionedReadCapacityUnits"`
	ReplicaProvisionedReadCapacityAutoScalingSettingsUpdate *AutoScalingSettingsUpdate `json:"ReplicaProvisionedReadCapacityAutoScalingSettingsUpdate"`
	ReplicaGlobalSecondaryIndexSettingsUpdate               []ReplicaGSISettingsUpdate `json:"ReplicaGlobalSecondaryIndexSettingsUpdate"`
	ReplicaTableClass                                       *string                    `json:"ReplicaTableClass"`
}

// UpdateGlobalTableSettingsInput is the UpdateGlobalTableSettings request.
type UpdateGlobalTableSettingsInput struct {
	GlobalTableName                                              *string                    `json:"GlobalTableName"`
	GlobalTableBillingMode                                       *string                    `json:"GlobalTableBillingMode"`
	GlobalTableProvisionedWriteCapacityUnits                     *int64                     `json:"GlobalTableProvisionedWriteCapacityUnits"`
	GlobalTableProvisionedWriteCapacityAutoScalingSettingsUpdate *AutoScalingSettingsUpdate `json:"GlobalTableProvisionedWriteCapacityAutoScalingSettingsUpdate"`
	GlobalTableGlobalSecondaryIndexSettingsUpdate                []GlobalGSISettingsUpdate  `json:"GlobalTableGlobalSecondaryIndexSettingsUpdate"`
	ReplicaSettingsUpdate                                        []ReplicaSettingsUpdate    `json:"ReplicaSettingsUpdate"`
}

func init() {
	register("DescribeGlobalTableSettings", describeGlobalTableSettings)
	register("UpdateGlobalTableSettings", updateGlobalTableSettings)
}

func describeGlobalTableSettings(c *call, in *GlobalTableNameInput) (*GlobalTableSettingsOutput, error) {
	var cs apierr.Constraints
	globalNameConstraints(&cs, in.GlobalTableName)
	if err := cs.Err(); err != nil {
		return nil, err
	}
	ms, _, err := c.legacyGroup(*in.GlobalTableName)
	if err != nil {
		return nil, err
	}
	return c.globalSettings(*in.GlobalTableName, ms), nil
}

// globalSettings describes the settings of members ms.
func (c *call) globalSettings(name string, ms []member) *GlobalTableSettingsOutput {
	out := &GlobalTableSettingsOutput{GlobalTableName: name}
	for _, mb := range ms {
		m := mb.t.snapshot()
		find := func(index string, write bool) *AutoScalingSettingsDescription {
			if m.ext != nil {
				for _, r := range m.ext.AutoScaling {
					if r.Index == index && r.Write == write && (write || r.Region == "" || r.Region == mb.region) {
						return r.Settings.describe()
					}
				}
			}
			return &AutoScalingSettingsDescription{AutoScalingDisabled: true}
		}
		d := ReplicaSettingsDescription{
			RegionName: mb.region, ReplicaStatus: "ACTIVE",
			ReplicaBillingModeSummary:                          &BillingModeSummary{BillingMode: cmpOr(m.billingMode, "PROVISIONED"), LastUpdateToPayPerRequestDateTime: epochPtr(m.payPerRequestSince)},
			ReplicaProvisionedReadCapacityUnits:                m.throughput.read,
			ReplicaProvisionedWriteCapacityUnits:               m.throughput.write,
			ReplicaProvisionedReadCapacityAutoScalingSettings:  find("", false),
			ReplicaProvisionedWriteCapacityAutoScalingSettings: find("", true),
		}
		if m.tableClass != "" {
			d.ReplicaTableClassSummary = &TableClassSummary{TableClass: m.tableClass}
		}
		for _, x := range m.gsis {
			g := ReplicaGSISettingsDescription{IndexName: x.name, IndexStatus: x.statusAt(c.now),
				ProvisionedReadCapacityAutoScalingSettings:  find(x.name, false),
				ProvisionedWriteCapacityAutoScalingSettings: find(x.name, true)}
			if x.throughput != nil {
				g.ProvisionedReadCapacityUnits, g.ProvisionedWriteCapacityUnits = x.throughput.read, x.throughput.write
			}
			d.ReplicaGlobalSecondaryIndexSettings = append(d.ReplicaGlobalSecondaryIndexSettings, g)
		}
		out.ReplicaSettings = append(out.ReplicaSettings, d)
	}
	slices.SortFunc(out.ReplicaSettings, func(a, b ReplicaSettingsDescription) int { return strings.Compare(a.RegionName, b.RegionName) })
	return out
}

func updateGlobalTableSettings(c *call, in *UpdateGlobalTableSettingsInput) (*GlobalTableSettingsOutput, error) {
	var cs apierr.Constraints
	globalNameConstraints(&cs, in.GlobalTableName)
	apierr.Enum(&cs, in.GlobalTableBillingMode, "globalTableBillingMode", "PROVISIONED", "PAY_PER_REQUEST")
	positive := func(p *int64, path string) {
		if p != nil && *p < 1 {
			cs.Add(apierr.QuoteInt(*p), path, apierr.ValGE(1))
		}
	}
	positive(in.GlobalTableProvisionedWriteCapacityUnits, "globalTableProvisionedWriteCapacityUnits")
	for _, r := range in.ReplicaSettingsUpdate {
		positive(r.ReplicaProvisionedReadCapacityUnits, "replicaSettingsUpdate.member.replicaProvisionedReadCapacityUnits")
	}
	if err := cs.Err(); err != nil {
		return nil, err
	}
	name := *in.GlobalTableName
	c.svc.repl.globalMu.Lock()
	defer c.svc.repl.globalMu.Unlock()
	ms, _, err := c.legacyGroup(name)
	if err != nil {
		return nil, err
	}
	for _, r := range in.ReplicaSettingsUpdate {
		if r.RegionName == nil || !slices.ContainsFunc(ms, func(m member) bool { return m.region == *r.RegionName }) {
			return nil, apierr.New(apierr.ErrReplicaNotFound, apierr.MsgReplicaNotInGroup(str(r.RegionName)))
		}
	}
	for _, mb := range ms {
		err := mb.t.changeMeta(func(m *tableMeta) (func(bool) error, error) {
			return nil, c.applyGlobalSettings(m, mb.region, in)
		})
		if err != nil && !errors.Is(err, storage.ErrNotDurable) {
			return nil, err
		}
	}
	return c.globalSettings(name, ms), nil
}

// applyGlobalSettings applies in to the definition m of the replica in region.
func (c *call) applyGlobalSettings(m *tableMeta, region string, in *UpdateGlobalTableSettingsInput) error {
	applyGlobalBillingMode(m, in.GlobalTableBillingMode, c.now)
	ed := &globalSettingsEdit{m: m, region: region, provisioned: m.billingMode != "PAY_PER_REQUEST"}
	if w := in.GlobalTableProvisionedWriteCapacityUnits; w != nil {
		if !ed.provisioned {
			return apierr.Validation(apierr.MsgAutoScalingOnDemand)
		}
		m.throughput.write = *w
	}
	ed.e = m.extCopy()
	ed.e.AutoScaling = slices.Clone(ed.e.AutoScaling)
	if err := ed.setScaling("", true, in.GlobalTableProvisionedWriteCapacityAutoScalingSettingsUpdate); err != nil {
		return err
	}
	ed.gsis = slices.Clone(m.gsis)
	for _, g := range in.GlobalTableGlobalSecondaryIndexSettingsUpdate {
		if err := ed.gsiWrite(g); err != nil {
			return err
		}
	}
	for _, r := range in.ReplicaSettingsUpdate {
		if *r.RegionName != region {
			continue
		}
		if err := ed.replica(r); err != nil {
			return err
		}
	}
	m.gsis = ed.gsis
	m.ext = ed.e
	return nil
}

// applyGlobalBillingMode switches m to billing mode b, if given and
// another: on-demand since now, or provisioned with 1 and 1 when m had
// no capacity.
func applyGlobalBillingMode(m *tableMeta, b *string, now time.Time) {
	if b == nil || *b == m.billingMode {
		return
	}
	m.billingMode, m.billingReported = *b, true
	if *b == "PAY_PER_REQUEST" {
		m.throughput, m.payPerRequestSince = throughput{}, now
	} else if m.throughput.read == 0 {
		m.throughput = throughput{read: 1, write: 1}
	}
}

// globalSettingsEdit is an UpdateGlobalTableSettings being applied to the
// definition m of the replica in region: e and gsis are m's extension
// and GSIs, copied, and become m's when every update applied.
type globalSettingsEdit struct {
	m           *tableMeta
	region      string
	provisioned bool // m's billing mode is PROVISIONED
	e           *tableExt
	gsis        []*indexDef
}

// setScaling applies u, if given, to the auto scaling rule of index (""
// the table) for writes (every region) or reads (ed's region).
func (ed *globalSettingsEdit) setScaling(index string, write bool, u *AutoScalingSettingsUpdate) error {
	if u == nil {
		return nil
	}
	if !ed.provisioned {
		return apierr.Validation(apierr.MsgAutoScalingOnDemand)
	}
	rg := ed.region
	if write {
		rg = ""
	}
	i := slices.IndexFunc(ed.e.AutoScaling, func(r autoScalingRule) bool { return r.Region == rg && r.Index == index && r.Write == write })
	var s autoScalingSettings
	if i >= 0 {
		s = ed.e.AutoScaling[i].Settings
	}
	if err := s.apply(u); err != nil {
		return err
	}
	rule := autoScalingRule{Region: rg, Index: index, Write: write, Settings: s}
	if i >= 0 {
		ed.e.AutoScaling[i] = rule
	} else {
		ed.e.AutoScaling = append(ed.e.AutoScaling, rule)
	}
	return nil
}

// gsi returns a copy of the GSI named name (and of its throughput), put
// in ed.gsis in its place to be changed, or ResourceNotFound.
func (ed *globalSettingsEdit) gsi(name *string) (*indexDef, error) {
	i := slices.IndexFunc(ed.gsis, func(x *indexDef) bool { return name != nil && x.name == *name })
	if i < 0 {
		return nil, apierr.ResourceNotFound(apierr.MsgIndexNotFound(str(name)))
	}
	x := *ed.gsis[i]
	if x.throughput != nil {
		tp := *x.throughput
		x.throughput = &tp
	}
	ed.gsis[i] = &x
	return &x, nil
}

// gsiWrite applies a GSI's write capacity and write auto scaling, which
// every replica shares.
func (ed *globalSettingsEdit) gsiWrite(g GlobalGSISettingsUpdate) error {
	x, err := ed.gsi(g.IndexName)
	if err != nil {
		return err
	}
	if g.ProvisionedWriteCapacityUnits != nil && x.throughput != nil {
		x.throughput.write = *g.ProvisionedWriteCapacityUnits
	}
	return ed.setScaling(x.name, true, g.ProvisionedWriteCapacityAutoScalingSettingsUpdate)
}

// replica applies the update r of ed's own region: read capacity and its
// auto scaling, table class, and its GSIs' read settings.
func (ed *globalSettingsEdit) replica(r ReplicaSettingsUpdate) error {
	if u := r.ReplicaProvisionedReadCapacityUnits; u != nil {
		if !ed.provisioned {
			return apierr.Validation(apierr.MsgAutoScalingOnDemand)
		}
		ed.m.throughput.read = *u
	}
	if err := ed.setScaling("", false, r.ReplicaProvisionedReadCapacityAutoScalingSettingsUpdate); err != nil {
		return err
	}
	if r.ReplicaTableClass != nil {
		ed.m.tableClass = *r.ReplicaTableClass
	}
	for _, g := range r.ReplicaGlobalSecondaryIndexSettingsUpdate {
		x, err := ed.gsi(g.IndexName)
		if err != nil {
			return err
		}
		if g.ProvisionedReadCapacityUnits != nil && x.throughput != nil {
			x.throughput.read = *g.ProvisionedReadCapacityUnits
		}
		if err := ed.setScaling(x.name, false, g.ProvisionedReadCapacityAutoScalingSettingsUpdate); err != nil {
			return err
		}
	}
	return nil
}
