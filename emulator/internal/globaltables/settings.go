package globaltables

import (
	"cmp"
	"errors"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/dynamoemu/dynamoemu/emulator/internal/apierr"
	"github.com/dynamoemu/dynamoemu/emulator/internal/service"
	"github.com/dynamoemu/dynamoemu/emulator/internal/tablespec"
	"github.com/dynamoemu/dynamoemu/internal/storage"
)

// DescribeGlobalTableSettings and UpdateGlobalTableSettings (AWS API
// reference) for 2017.11.29 global tables: each replica's billing mode,
// provisioned capacity and auto scaling settings (kept in the replica
// tables' definitions, as autoscaling.go keeps them), its GSIs'
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
	ReplicaBillingModeSummary                          *service.BillingModeSummary     `json:"ReplicaBillingModeSummary,omitempty"`
	ReplicaProvisionedReadCapacityUnits                int64                           `json:"ReplicaProvisionedReadCapacityUnits"`
	ReplicaProvisionedReadCapacityAutoScalingSettings  *AutoScalingSettingsDescription `json:"ReplicaProvisionedReadCapacityAutoScalingSettings"`
	ReplicaProvisionedWriteCapacityUnits               int64                           `json:"ReplicaProvisionedWriteCapacityUnits"`
	ReplicaProvisionedWriteCapacityAutoScalingSettings *AutoScalingSettingsDescription `json:"ReplicaProvisionedWriteCapacityAutoScalingSettings"`
	ReplicaGlobalSecondaryIndexSettings                []ReplicaGSISettingsDescription `json:"ReplicaGlobalSecondaryIndexSettings,omitempty"`
	ReplicaTableClassSummary                           *service.TableClassSummary      `json:"ReplicaTableClassSummary,omitempty"`
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

func describeGlobalTableSettings(c service.Call, in *GlobalTableNameInput) (*GlobalTableSettingsOutput, error) {
	var cs apierr.Constraints
	globalNameConstraints(&cs, in.GlobalTableName)
	if err := cs.Err(); err != nil {
		return nil, err
	}
	ms, _, err := legacyGroup(c, *in.GlobalTableName)
	if err != nil {
		return nil, err
	}
	return globalSettings(c, *in.GlobalTableName, ms), nil
}

// globalSettings describes the settings of members ms.
func globalSettings(c service.Call, name string, ms []member) *GlobalTableSettingsOutput {
	out := &GlobalTableSettingsOutput{GlobalTableName: name}
	for _, mb := range ms {
		m := mb.t.Definition()
		x, _ := partOf(m)
		find := func(index string, write bool) *AutoScalingSettingsDescription {
			for _, r := range x.AutoScaling {
				if r.Index == index && r.Write == write && (write || r.Region == "" || r.Region == mb.region) {
					return r.Settings.describe()
				}
			}
			return &AutoScalingSettingsDescription{AutoScalingDisabled: true}
		}
		st := m.Settings()
		b, tp := st.Billing, st.Capacity
		d := ReplicaSettingsDescription{
			RegionName: mb.region, ReplicaStatus: "ACTIVE",
			ReplicaBillingModeSummary:                          &service.BillingModeSummary{BillingMode: cmp.Or(b.Mode, "PROVISIONED"), LastUpdateToPayPerRequestDateTime: tablespec.EpochPtr(b.PayPerRequestSince)},
			ReplicaProvisionedReadCapacityUnits:                tp.Read,
			ReplicaProvisionedWriteCapacityUnits:               tp.Write,
			ReplicaProvisionedReadCapacityAutoScalingSettings:  find("", false),
			ReplicaProvisionedWriteCapacityAutoScalingSettings: find("", true),
		}
		if st.TableClass != "" {
			d.ReplicaTableClassSummary = &service.TableClassSummary{TableClass: st.TableClass}
		}
		for _, g := range m.Indexes().GSIList() {
			gd := ReplicaGSISettingsDescription{IndexName: g.Name(), IndexStatus: g.StatusAt(c.Now()),
				ProvisionedReadCapacityAutoScalingSettings:  find(g.Name(), false),
				ProvisionedWriteCapacityAutoScalingSettings: find(g.Name(), true)}
			if gc, ok := g.Capacity(); ok {
				gd.ProvisionedReadCapacityUnits, gd.ProvisionedWriteCapacityUnits = gc.Read, gc.Write
			}
			d.ReplicaGlobalSecondaryIndexSettings = append(d.ReplicaGlobalSecondaryIndexSettings, gd)
		}
		out.ReplicaSettings = append(out.ReplicaSettings, d)
	}
	compare := func(a, b ReplicaSettingsDescription) int { return strings.Compare(a.RegionName, b.RegionName) }
	sort.Slice(out.ReplicaSettings, func(i, j int) bool { return compare(out.ReplicaSettings[i], out.ReplicaSettings[j]) < 0 })
	return out
}

func updateGlobalTableSettings(c service.Call, in *UpdateGlobalTableSettingsInput) (*GlobalTableSettingsOutput, error) {
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
	rp := replicators.Of(c)
	rp.globalMu.Lock()
	defer rp.globalMu.Unlock()
	ms, _, err := legacyGroup(c, name)
	if err != nil {
		return nil, err
	}
	for _, r := range in.ReplicaSettingsUpdate {
		if r.RegionName == nil || !slices.ContainsFunc(ms, func(m member) bool { return m.region == *r.RegionName }) {
			return nil, apierr.New(apierr.ErrReplicaNotFound, apierr.MsgReplicaNotInGroup(str(r.RegionName)))
		}
	}
	for _, mb := range ms {
		err := mb.t.Change(func(e *service.Edit) (func(bool) error, error) {
			return nil, applyGlobalSettings(e, mb.region, in, c.Now())
		})
		if err != nil && !errors.Is(err, storage.ErrNotDurable) {
			return nil, err
		}
	}
	return globalSettings(c, name, ms), nil
}

// applyGlobalSettings applies in to the definition e of the replica in
// region, at now.
func applyGlobalSettings(e *service.Edit, region string, in *UpdateGlobalTableSettingsInput, now time.Time) error {
	applyGlobalBillingMode(e, in.GlobalTableBillingMode, now)
	x, _ := partOf(e.Definition)
	ed := &globalSettingsEdit{e: e, region: region, provisioned: e.Settings().Billing.Mode != "PAY_PER_REQUEST", x: x}
	if w := in.GlobalTableProvisionedWriteCapacityUnits; w != nil {
		if !ed.provisioned {
			return apierr.Validation(apierr.MsgAutoScalingOnDemand)
		}
		e.Settings().Capacity.Write = *w
	}
	ed.x.AutoScaling = slices.Clone(ed.x.AutoScaling)
	if err := ed.setScaling("", true, in.GlobalTableProvisionedWriteCapacityAutoScalingSettingsUpdate); err != nil {
		return err
	}
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
	setPart(e, ed.x)
	return nil
}

// applyGlobalBillingMode switches e to billing mode b, if given and
// another: on-demand since now, or provisioned with 1 and 1 when e had
// no capacity.
func applyGlobalBillingMode(e *service.Edit, b *string, now time.Time) {
	s := e.Settings()
	if b == nil || *b == s.Billing.Mode {
		return
	}
	s.Billing.Mode, s.Billing.Reported = *b, true
	if *b == "PAY_PER_REQUEST" {
		s.Billing.PayPerRequestSince = now
		s.Capacity = tablespec.Throughput{}
	} else if s.Capacity.Read == 0 {
		s.Capacity = tablespec.Throughput{Read: 1, Write: 1}
	}
}

// globalSettingsEdit is an UpdateGlobalTableSettings being applied to the
// definition e of the replica in region: x is e's part, copied, which
// becomes e's once every update applied (the rest changes in e at once;
// nothing is recorded unless every update applied).
type globalSettingsEdit struct {
	e           *service.Edit
	region      string
	provisioned bool // e's billing mode is PROVISIONED
	x           part
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
	i := slices.IndexFunc(ed.x.AutoScaling, func(r autoScalingRule) bool { return r.Region == rg && r.Index == index && r.Write == write })
	var s autoScalingSettings
	if i >= 0 {
		s = ed.x.AutoScaling[i].Settings
	}
	if err := s.apply(u); err != nil {
		return err
	}
	rule := autoScalingRule{Region: rg, Index: index, Write: write, Settings: s}
	if i >= 0 {
		ed.x.AutoScaling[i] = rule
	} else {
		ed.x.AutoScaling = append(ed.x.AutoScaling, rule)
	}
	return nil
}

// gsi returns the GSI named name, or ResourceNotFound.
func (ed *globalSettingsEdit) gsi(name *string) (service.GSI, error) {
	if name != nil {
		if x, ok := ed.e.Indexes().GSI(*name); ok {
			return x, nil
		}
	}
	return service.GSI{}, apierr.ResourceNotFound(apierr.MsgIndexNotFound(str(name)))
}

// gsiWrite applies a GSI's write capacity and write auto scaling, which
// every replica shares.
func (ed *globalSettingsEdit) gsiWrite(g GlobalGSISettingsUpdate) error {
	x, err := ed.gsi(g.IndexName)
	if err != nil {
		return err
	}
	if c, ok := x.Capacity(); ok && g.ProvisionedWriteCapacityUnits != nil {
		c.Write = *g.ProvisionedWriteCapacityUnits
		ed.e.SetGSICapacity(x.Name(), &c)
	}
	return ed.setScaling(x.Name(), true, g.ProvisionedWriteCapacityAutoScalingSettingsUpdate)
}

// replica applies the update r of ed's own region: read capacity and its
// auto scaling, table class, and its GSIs' read settings.
func (ed *globalSettingsEdit) replica(r ReplicaSettingsUpdate) error {
	if u := r.ReplicaProvisionedReadCapacityUnits; u != nil {
		if !ed.provisioned {
			return apierr.Validation(apierr.MsgAutoScalingOnDemand)
		}
		ed.e.Settings().Capacity.Read = *u
	}
	if err := ed.setScaling("", false, r.ReplicaProvisionedReadCapacityAutoScalingSettingsUpdate); err != nil {
		return err
	}
	if r.ReplicaTableClass != nil {
		ed.e.Settings().TableClass = *r.ReplicaTableClass
	}
	for _, g := range r.ReplicaGlobalSecondaryIndexSettingsUpdate {
		x, err := ed.gsi(g.IndexName)
		if err != nil {
			return err
		}
		if c, ok := x.Capacity(); ok && g.ProvisionedReadCapacityUnits != nil {
			c.Read = *g.ProvisionedReadCapacityUnits
			ed.e.SetGSICapacity(x.Name(), &c)
		}
		if err := ed.setScaling(x.Name(), false, g.ProvisionedReadCapacityAutoScalingSettingsUpdate); err != nil {
			return err
		}
	}
	return nil
}
