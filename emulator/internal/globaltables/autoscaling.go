package globaltables

import (
	"slices"

	"github.com/dynamoemu/dynamoemu/emulator/internal/apierr"
	"github.com/dynamoemu/dynamoemu/emulator/internal/service"
)

// Replica auto scaling: DescribeTableReplicaAutoScaling and
// UpdateTableReplicaAutoScaling (AWS API reference,
// API_UpdateTableReplicaAutoScaling). The settings (minimum, maximum,
// target tracking policy) are kept per replica region and GSI in the
// table's definition and described back; the emulator never scales
// anything (there is no throughput to scale: docs/global-tables.md). A table's own
// region counts as a replica, as it does in a 2019.11.21 global table;
// the regions of its replicas (replicas.go) follow it.

// autoScalingRule is one recorded setting: the write (Write) or read
// capacity of the table (Index "") or a GSI, in Region ("" for write
// capacity, which is the same in every replica).
type autoScalingRule struct {
	Region   string              `json:"region,omitempty"`
	Index    string              `json:"index,omitempty"`
	Write    bool                `json:"write,omitempty"`
	Settings autoScalingSettings `json:"settings"`
}

// autoScalingSettings are the recorded AutoScalingSettingsDescription.
type autoScalingSettings struct {
	Min, Max     int64                   `json:",omitempty"`
	Disabled     bool                    `json:",omitempty"`
	RoleArn      string                  `json:",omitempty"`
	PolicyName   string                  `json:",omitempty"`
	TargetPolicy *TargetTrackingSettings `json:",omitempty"`
}

// TargetTrackingSettings is AutoScalingTargetTrackingScalingPolicyConfiguration.
type TargetTrackingSettings struct {
	DisableScaleIn   *bool    `json:"DisableScaleIn,omitempty"`
	ScaleInCooldown  *int64   `json:"ScaleInCooldown,omitempty"`
	ScaleOutCooldown *int64   `json:"ScaleOutCooldown,omitempty"`
	TargetValue      *float64 `json:"TargetValue"`
}

// AutoScalingPolicyUpdate is AWS's AutoScalingPolicyUpdate.
type AutoScalingPolicyUpdate struct {
	PolicyName                               *string                 `json:"PolicyName"`
	TargetTrackingScalingPolicyConfiguration *TargetTrackingSettings `json:"TargetTrackingScalingPolicyConfiguration"`
}

// AutoScalingSettingsUpdate is AWS's AutoScalingSettingsUpdate.
type AutoScalingSettingsUpdate struct {
	MinimumUnits        *int64                   `json:"MinimumUnits"`
	MaximumUnits        *int64                   `json:"MaximumUnits"`
	AutoScalingDisabled *bool                    `json:"AutoScalingDisabled"`
	AutoScalingRoleArn  *string                  `json:"AutoScalingRoleArn"`
	ScalingPolicyUpdate *AutoScalingPolicyUpdate `json:"ScalingPolicyUpdate"`
}

// AutoScalingPolicyDescription is one scaling policy described.
type AutoScalingPolicyDescription struct {
	PolicyName                               string                  `json:"PolicyName,omitempty"`
	TargetTrackingScalingPolicyConfiguration *TargetTrackingSettings `json:"TargetTrackingScalingPolicyConfiguration,omitempty"`
}

// AutoScalingSettingsDescription is AWS's AutoScalingSettingsDescription.
type AutoScalingSettingsDescription struct {
	MinimumUnits        int64                          `json:"MinimumUnits,omitempty"`
	MaximumUnits        int64                          `json:"MaximumUnits,omitempty"`
	AutoScalingDisabled bool                           `json:"AutoScalingDisabled"`
	AutoScalingRoleArn  string                         `json:"AutoScalingRoleArn,omitempty"`
	ScalingPolicies     []AutoScalingPolicyDescription `json:"ScalingPolicies,omitempty"`
}

// ReplicaGSIAutoScalingDescription is AWS's
// ReplicaGlobalSecondaryIndexAutoScalingDescription.
type ReplicaGSIAutoScalingDescription struct {
	IndexName                                   string                          `json:"IndexName"`
	IndexStatus                                 string                          `json:"IndexStatus"`
	ProvisionedReadCapacityAutoScalingSettings  *AutoScalingSettingsDescription `json:"ProvisionedReadCapacityAutoScalingSettings,omitempty"`
	ProvisionedWriteCapacityAutoScalingSettings *AutoScalingSettingsDescription `json:"ProvisionedWriteCapacityAutoScalingSettings,omitempty"`
}

// ReplicaAutoScalingDescription is one replica's settings.
type ReplicaAutoScalingDescription struct {
	RegionName                                         string                             `json:"RegionName"`
	ReplicaStatus                                      string                             `json:"ReplicaStatus"`
	GlobalSecondaryIndexes                             []ReplicaGSIAutoScalingDescription `json:"GlobalSecondaryIndexes,omitempty"`
	ReplicaProvisionedReadCapacityAutoScalingSettings  *AutoScalingSettingsDescription    `json:"ReplicaProvisionedReadCapacityAutoScalingSettings,omitempty"`
	ReplicaProvisionedWriteCapacityAutoScalingSettings *AutoScalingSettingsDescription    `json:"ReplicaProvisionedWriteCapacityAutoScalingSettings,omitempty"`
}

// TableAutoScalingDescription is both operations' answer.
type TableAutoScalingDescription struct {
	TableName   string                          `json:"TableName"`
	TableStatus string                          `json:"TableStatus"`
	Replicas    []ReplicaAutoScalingDescription `json:"Replicas"`
}

// DescribeTableReplicaAutoScalingInput is the Describe request.
type DescribeTableReplicaAutoScalingInput struct {
	TableName *string `json:"TableName"`
}

// TableReplicaAutoScalingOutput is both operations' response.
type TableReplicaAutoScalingOutput struct {
	TableAutoScalingDescription *TableAutoScalingDescription `json:"TableAutoScalingDescription"`
}

// GSIAutoScalingUpdate is GlobalSecondaryIndexAutoScalingUpdate.
type GSIAutoScalingUpdate struct {
	IndexName                                 *string                    `json:"IndexName"`
	ProvisionedWriteCapacityAutoScalingUpdate *AutoScalingSettingsUpdate `json:"ProvisionedWriteCapacityAutoScalingUpdate"`
}

// ReplicaGSIAutoScalingUpdate is ReplicaGlobalSecondaryIndexAutoScalingUpdate.
type ReplicaGSIAutoScalingUpdate struct {
	IndexName                                *string                    `json:"IndexName"`
	ProvisionedReadCapacityAutoScalingUpdate *AutoScalingSettingsUpdate `json:"ProvisionedReadCapacityAutoScalingUpdate"`
}

// ReplicaAutoScalingUpdate is one replica's update.
type ReplicaAutoScalingUpdate struct {
	RegionName                                      *string                       `json:"RegionName"`
	ReplicaGlobalSecondaryIndexUpdates              []ReplicaGSIAutoScalingUpdate `json:"ReplicaGlobalSecondaryIndexUpdates"`
	ReplicaProvisionedReadCapacityAutoScalingUpdate *AutoScalingSettingsUpdate    `json:"ReplicaProvisionedReadCapacityAutoScalingUpdate"`
}

// UpdateTableReplicaAutoScalingInput is the Update request.
type UpdateTableReplicaAutoScalingInput struct {
	TableName                                 *string                    `json:"TableName"`
	ProvisionedWriteCapacityAutoScalingUpdate *AutoScalingSettingsUpdate `json:"ProvisionedWriteCapacityAutoScalingUpdate"`
	GlobalSecondaryIndexUpdates               []GSIAutoScalingUpdate     `json:"GlobalSecondaryIndexUpdates"`
	ReplicaUpdates                            []ReplicaAutoScalingUpdate `json:"ReplicaUpdates"`
}

func describeReplicaAutoScaling(c service.Call, in *DescribeTableReplicaAutoScalingInput) (*TableReplicaAutoScalingOutput, error) {
	var cs apierr.Constraints
	apierr.NotNull(&cs, in.TableName, "tableName")
	if err := cs.Err(); err != nil {
		return nil, err
	}
	t, err := c.LookupTable(*in.TableName)
	if err != nil {
		return nil, err
	}
	return &TableReplicaAutoScalingOutput{TableAutoScalingDescription: autoScalingDesc(c, t, t.Definition())}, nil
}

func updateReplicaAutoScaling(c service.Call, in *UpdateTableReplicaAutoScalingInput) (*TableReplicaAutoScalingOutput, error) {
	var cs apierr.Constraints
	apierr.NotNull(&cs, in.TableName, "tableName")
	if err := cs.Err(); err != nil {
		return nil, err
	}
	if in.ProvisionedWriteCapacityAutoScalingUpdate == nil && len(in.GlobalSecondaryIndexUpdates) == 0 && len(in.ReplicaUpdates) == 0 {
		return nil, apierr.Validation(apierr.MsgAutoScalingNoUpdate)
	}
	t, err := c.LookupTable(*in.TableName)
	if err != nil {
		return nil, err
	}
	var desc *TableAutoScalingDescription
	err = t.Change(func(e *service.Edit) (func(bool) error, error) {
		if st := e.StatusAt(c.Now()); st != statusActive {
			return nil, apierr.ResourceInUse(apierr.MsgTableNotActive(t.Info().Name, st))
		}
		if e.Settings().Billing.Mode == "PAY_PER_REQUEST" {
			return nil, apierr.Validation(apierr.MsgAutoScalingOnDemand)
		}
		x, _ := partOf(e.Definition)
		rules := slices.Clone(x.AutoScaling)
		set := func(region, index string, write bool, u *AutoScalingSettingsUpdate) error {
			if u == nil {
				return nil
			}
			i := slices.IndexFunc(rules, func(r autoScalingRule) bool {
				return r.Region == region && r.Index == index && r.Write == write
			})
			var s autoScalingSettings
			if i >= 0 {
				s = rules[i].Settings
			}
			if err := s.apply(u); err != nil {
				return err
			}
			r := autoScalingRule{Region: region, Index: index, Write: write, Settings: s}
			if i >= 0 {
				rules[i] = r
			} else {
				rules = append(rules, r)
			}
			return nil
		}
		if err := set("", "", true, in.ProvisionedWriteCapacityAutoScalingUpdate); err != nil {
			return nil, err
		}
		hasGSI := func(name *string) bool {
			if name == nil {
				return false
			}
			_, ok := e.Indexes().GSI(*name)
			return ok
		}
		for _, g := range in.GlobalSecondaryIndexUpdates {
			if !hasGSI(g.IndexName) {
				return nil, apierr.ResourceNotFound(apierr.MsgIndexNotFound(deref(g.IndexName)))
			}
			if err := set("", *g.IndexName, true, g.ProvisionedWriteCapacityAutoScalingUpdate); err != nil {
				return nil, err
			}
		}
		regions := x.replicaRegions(c.Region(), c.Now())
		for _, r := range in.ReplicaUpdates {
			if r.RegionName == nil || !slices.Contains(regions, *r.RegionName) {
				return nil, apierr.Validation(apierr.MsgReplicaNotFound(deref(r.RegionName)))
			}
			if err := set(*r.RegionName, "", false, r.ReplicaProvisionedReadCapacityAutoScalingUpdate); err != nil {
				return nil, err
			}
			for _, g := range r.ReplicaGlobalSecondaryIndexUpdates {
				if !hasGSI(g.IndexName) {
					return nil, apierr.ResourceNotFound(apierr.MsgIndexNotFound(deref(g.IndexName)))
				}
				if err := set(*r.RegionName, *g.IndexName, false, g.ProvisionedReadCapacityAutoScalingUpdate); err != nil {
					return nil, err
				}
			}
		}
		x.AutoScaling = rules
		setPart(e, x)
		desc = autoScalingDesc(c, t, e.Definition)
		return nil, nil
	})
	if err != nil {
		return nil, err
	}
	return &TableReplicaAutoScalingOutput{TableAutoScalingDescription: desc}, nil
}

// apply merges update u into s, with AWS's checks: units of at least 1,
// a minimum not above the maximum, a target value of 20 to 90.
func (s *autoScalingSettings) apply(u *AutoScalingSettingsUpdate) error {
	var cs apierr.Constraints
	if u.MinimumUnits != nil && *u.MinimumUnits < 1 {
		cs.Add(apierr.QuoteInt(*u.MinimumUnits), "minimumUnits", apierr.ValGE(1))
	}
	if u.MaximumUnits != nil && *u.MaximumUnits < 1 {
		cs.Add(apierr.QuoteInt(*u.MaximumUnits), "maximumUnits", apierr.ValGE(1))
	}
	if u.AutoScalingRoleArn != nil && len(*u.AutoScalingRoleArn) > 1600 {
		cs.Add(apierr.Quote(*u.AutoScalingRoleArn), "autoScalingRoleArn", apierr.LenLE(1600))
	}
	if p := u.ScalingPolicyUpdate; p != nil {
		if p.TargetTrackingScalingPolicyConfiguration == nil {
			cs.Add("null", "scalingPolicyUpdate.targetTrackingScalingPolicyConfiguration", apierr.MemberNotNull)
		} else if p.TargetTrackingScalingPolicyConfiguration.TargetValue == nil {
			cs.Add("null", "scalingPolicyUpdate.targetTrackingScalingPolicyConfiguration.targetValue", apierr.MemberNotNull)
		}
	}
	if err := cs.Err(); err != nil {
		return err
	}
	n := *s
	if u.MinimumUnits != nil {
		n.Min = *u.MinimumUnits
	}
	if u.MaximumUnits != nil {
		n.Max = *u.MaximumUnits
	}
	if n.Min > 0 && n.Max > 0 && n.Min > n.Max {
		return apierr.Validation(apierr.MsgAutoScalingMinMax)
	}
	if u.AutoScalingDisabled != nil {
		n.Disabled = *u.AutoScalingDisabled
	}
	if u.AutoScalingRoleArn != nil {
		n.RoleArn = *u.AutoScalingRoleArn
	}
	if p := u.ScalingPolicyUpdate; p != nil {
		tv := *p.TargetTrackingScalingPolicyConfiguration.TargetValue
		if tv < 20 || tv > 90 {
			return apierr.Validation(apierr.MsgAutoScalingTarget)
		}
		n.PolicyName = str(p.PolicyName)
		if n.PolicyName == "" {
			n.PolicyName = "DynamoDBUtilization"
		}
		tp := *p.TargetTrackingScalingPolicyConfiguration
		n.TargetPolicy = &tp
	}
	*s = n
	return nil
}

// describe returns s as AWS describes it.
func (s autoScalingSettings) describe() *AutoScalingSettingsDescription {
	d := &AutoScalingSettingsDescription{MinimumUnits: s.Min, MaximumUnits: s.Max, AutoScalingDisabled: s.Disabled, AutoScalingRoleArn: s.RoleArn}
	if s.TargetPolicy != nil {
		d.ScalingPolicies = []AutoScalingPolicyDescription{{PolicyName: s.PolicyName, TargetTrackingScalingPolicyConfiguration: s.TargetPolicy}}
	}
	return d
}

// autoScalingDesc describes the auto scaling of t with definition m: a
// replica per region (its own first), each with its read settings, the
// table's write settings, and its GSIs'. A capacity without settings is
// described as AutoScalingDisabled.
func autoScalingDesc(c service.Call, t service.Table, m service.Definition) *TableAutoScalingDescription {
	x, _ := partOf(m)
	rules := x.AutoScaling
	find := func(region, index string, write bool) *AutoScalingSettingsDescription {
		for _, r := range rules {
			if r.Region == region && r.Index == index && r.Write == write {
				return r.Settings.describe()
			}
		}
		return &AutoScalingSettingsDescription{AutoScalingDisabled: true}
	}
	now := c.Now()
	d := &TableAutoScalingDescription{TableName: t.Info().Name, TableStatus: describedStatusAt(m, x, now), Replicas: []ReplicaAutoScalingDescription{}} // as DescribeTable: status.go
	for _, region := range x.replicaRegions(c.Region(), now) {
		r := ReplicaAutoScalingDescription{
			RegionName:    region,
			ReplicaStatus: replicaStatus(m, x, region, now),
			ReplicaProvisionedReadCapacityAutoScalingSettings:  find(region, "", false),
			ReplicaProvisionedWriteCapacityAutoScalingSettings: find("", "", true),
		}
		for _, g := range m.Indexes().GSIList() {
			r.GlobalSecondaryIndexes = append(r.GlobalSecondaryIndexes, ReplicaGSIAutoScalingDescription{
				IndexName:   g.Name(),
				IndexStatus: g.StatusAt(now),
				ProvisionedReadCapacityAutoScalingSettings:  find(region, g.Name(), false),
				ProvisionedWriteCapacityAutoScalingSettings: find("", g.Name(), true),
			})
		}
		d.Replicas = append(d.Replicas, r)
	}
	return d
}
