package service

import (
	"errors"
	"slices"
	"strings"

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
	if b := in.GlobalTableBillingMode; b != nil && *b != m.billingMode {
		m.billingMode, m.billingReported = *b, true
		if *b == "PAY_PER_REQUEST" {
			m.throughput, m.payPerRequestSince = throughput{}, c.now
		} else if m.throughput.read == 0 {
			m.throughput = throughput{read: 1, write: 1}
		}
	}
	provisioned := m.billingMode != "PAY_PER_REQUEST"
	if w := in.GlobalTableProvisionedWriteCapacityUnits; w != nil {
		if !provisioned {
			return apierr.Validation(apierr.MsgAutoScalingOnDemand)
		}
		m.throughput.write = *w
	}
	e := m.extCopy()
	e.AutoScaling = slices.Clone(e.AutoScaling)
	set := func(index string, write bool, u *AutoScalingSettingsUpdate) error {
		if u == nil {
			return nil
		}
		if !provisioned {
			return apierr.Validation(apierr.MsgAutoScalingOnDemand)
		}
		rg := region
		if write {
			rg = ""
		}
		i := slices.IndexFunc(e.AutoScaling, func(r autoScalingRule) bool { return r.Region == rg && r.Index == index && r.Write == write })
		var s autoScalingSettings
		if i >= 0 {
			s = e.AutoScaling[i].Settings
		}
		if err := s.apply(u); err != nil {
			return err
		}
		rule := autoScalingRule{Region: rg, Index: index, Write: write, Settings: s}
		if i >= 0 {
			e.AutoScaling[i] = rule
		} else {
			e.AutoScaling = append(e.AutoScaling, rule)
		}
		return nil
	}
	if err := set("", true, in.GlobalTableProvisionedWriteCapacityAutoScalingSettingsUpdate); err != nil {
		return err
	}
	gsis := slices.Clone(m.gsis)
	gsi := func(name *string) (*indexDef, error) {
		i := slices.IndexFunc(gsis, func(x *indexDef) bool { return name != nil && x.name == *name })
		if i < 0 {
			return nil, apierr.ResourceNotFound(apierr.MsgIndexNotFound(str(name)))
		}
		x := *gsis[i]
		if x.throughput != nil {
			tp := *x.throughput
			x.throughput = &tp
		}
		gsis[i] = &x
		return &x, nil
	}
	for _, g := range in.GlobalTableGlobalSecondaryIndexSettingsUpdate {
		x, err := gsi(g.IndexName)
		if err != nil {
			return err
		}
		if g.ProvisionedWriteCapacityUnits != nil && x.throughput != nil {
			x.throughput.write = *g.ProvisionedWriteCapacityUnits
		}
		if err := set(x.name, true, g.ProvisionedWriteCapacityAutoScalingSettingsUpdate); err != nil {
			return err
		}
	}
	for _, r := range in.ReplicaSettingsUpdate {
		if *r.RegionName != region {
			continue
		}
		if u := r.ReplicaProvisionedReadCapacityUnits; u != nil {
			if !provisioned {
				return apierr.Validation(apierr.MsgAutoScalingOnDemand)
			}
			m.throughput.read = *u
		}
		if err := set("", false, r.ReplicaProvisionedReadCapacityAutoScalingSettingsUpdate); err != nil {
			return err
		}
		if r.ReplicaTableClass != nil {
			m.tableClass = *r.ReplicaTableClass
		}
		for _, g := range r.ReplicaGlobalSecondaryIndexSettingsUpdate {
			x, err := gsi(g.IndexName)
			if err != nil {
				return err
			}
			if g.ProvisionedReadCapacityUnits != nil && x.throughput != nil {
				x.throughput.read = *g.ProvisionedReadCapacityUnits
			}
			if err := set(x.name, false, g.ProvisionedReadCapacityAutoScalingSettingsUpdate); err != nil {
				return err
			}
		}
	}
	m.gsis = gsis
	m.ext = e
	return nil
}
