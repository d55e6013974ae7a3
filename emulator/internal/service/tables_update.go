package service

import (
	"slices"
	"time"

	"github.com/dynamoemu/dynamoemu/emulator/internal/apierr"
	"github.com/dynamoemu/dynamoemu/emulator/internal/tablespec"
)

// UpdateTable: billing mode, throughput (table and existing GSIs), streams,
// SSE, table class, deletion protection and on-demand limits change the
// metadata at once; GSIs and vector indexes are created and deleted as
// tablespec.Indexes says.
// A member of the request a feature owns (UpdateTableMember:
// ReplicaUpdates) is answered by the feature, once the checks here
// passed; a feature may refuse a change (Hooks.CheckUpdate).

func updateTable(c *call, in *UpdateTableInput) (*UpdateTableOutput, error) {
	newTP, err := checkUpdateTableInput(in)
	if err != nil {
		return nil, err
	}
	if owned := in.Owned.given(); len(owned) > 0 { // a feature's member: alone in the request (feature_update.go)
		d, err := owned[0].run(Call{c: c}, in, in.Owned.vals[owned[0].Name])
		if err != nil {
			return nil, err
		}
		return &UpdateTableOutput{TableDescription: d}, nil
	}
	t, err := c.changeableTable(in.TableName)
	if err != nil {
		return nil, err
	}
	for _, h := range c.svc.seams.hooks { // the features' refusals (feature_lifecycle.go)
		if h.CheckUpdate == nil {
			continue
		}
		if err := h.CheckUpdate(Call{c: c}, Table{t: t}, in); err != nil {
			return nil, err
		}
	}
	if newTP != nil {
		if err := tablespec.CheckTableMaxThroughput(newTP.Read, newTP.Write, c.region); err != nil {
			return nil, err
		}
	}
	u, err := t.update(c, in, newTP)
	if err != nil {
		return nil, err
	}
	if x := u.change.Dropped; x != nil {
		for _, h := range c.svc.seams.hooks { // the stages (feature_lifecycle.go)
			if h.IndexDropped != nil {
				h.IndexDropped(Table{t: t}, x.Name)
			}
		}
	}
	if in.StreamSpecification != nil {
		if _, err := c.checkDefinition(t, DefinitionStreamChanged, tagDescs(t.snapshot().Tags)); err != nil {
			return nil, err
		}
	}
	d := t.describe()
	tablespec.DescribeIndexChange(d, u.change, t)
	warmingDescription(d, in, u.before)
	d.SSEDescription = tablespec.UpdatedSSE(in.SSESpecification, u.before.SSE, d.SSEDescription)
	if in.OnDemandThroughput != nil {
		// The answer echoes the merged ceilings, a removed one as -1;
		// DescribeTable then leaves it out (ack-api-quirks DDB-TABLE-182).
		d.OnDemandThroughput = u.onDemandEcho
	}
	return &UpdateTableOutput{TableDescription: d}, nil
}

// checkUpdateTableInput makes the checks of an UpdateTable request that
// need no table, in AWS's order, and returns its new provisioned
// throughput (nil: none).
func checkUpdateTableInput(in *UpdateTableInput) (*tablespec.Throughput, error) {
	if in.TableName == nil {
		return nil, apierr.Validation(apierr.MsgTableNameRequired)
	}
	if err := updateTableConstraints(in); err != nil {
		return nil, err
	}
	if in.ProvisionedThroughput == nil && in.BillingMode == nil && in.StreamSpecification == nil &&
		len(in.GlobalSecondaryIndexUpdates) == 0 && in.SSESpecification == nil &&
		in.TableClass == nil && in.DeletionProtectionEnabled == nil && in.OnDemandThroughput == nil && len(in.VectorIndexUpdates) == 0 &&
		in.WarmThroughput.Empty() && !slices.ContainsFunc(in.Owned.given(), func(m *ownedMember) bool { return !m.NoChange }) { // an empty one is absent (DDB-TABLE-456)
		return nil, apierr.Validation(apierr.MsgUpdateNothing(in.MultiRegionConsistency != nil))
	}
	if err := checkUpdateCombination(in); err != nil {
		return nil, err
	}
	var newTP *tablespec.Throughput
	if in.ProvisionedThroughput != nil {
		tp, err := tablespec.BoundedThroughput(in.ProvisionedThroughput)
		if err != nil {
			return nil, err
		}
		newTP = tp
	}
	if err := tablespec.ValidateStream(in.StreamSpecification, apierr.MsgUpdateStreamViewTypeRequired, apierr.MsgUpdateStreamViewTypeWhenDisabled); err != nil {
		return nil, err
	}
	if err := tablespec.CheckGSIUpdates(in.GlobalSecondaryIndexUpdates); err != nil {
		return nil, err
	}
	if err := tablespec.CheckVectorUpdates(in.VectorIndexUpdates); err != nil {
		return nil, err
	}
	return newTP, nil
}

// warmingDescription shows in UpdateTable's answer d a warm throughput
// change under way as AWS does: the values before, UPDATING
// (DDB-TABLE-179); DescribeTable then shows the new ones.
func warmingDescription(d *TableDescription, in *UpdateTableInput, before *tableMeta) {
	if !in.WarmThroughput.Empty() {
		d.WarmThroughput = before.WarmNow().Describe("UPDATING")
	}
	tablespec.WarmingGSIs(d.GlobalSecondaryIndexes, in.GlobalSecondaryIndexUpdates, &before.Indexes)
}

// update applies a validated UpdateTable request to t's metadata and,
// for an index created or deleted, to its storage: all of it or, on
// error, none of it. The new definition is recorded first (changeMeta),
// then storage changes, then the definition is published: a GSI is in
// storage before a reader can find it in the definition (a reader that
// found a GSI about to be dropped meets storage.ErrNoIndex and answers
// as if it had never found it).
func (t *table) update(c *call, in *UpdateTableInput, newTP *tablespec.Throughput) (tableUpdate, error) {
	var u tableUpdate
	err := t.changeMeta(func(m *tableMeta) (func(bool) error, error) {
		u.before = t.snapshot()
		if m.Status == statusDeleting {
			// Found before a DeleteTable took it out of the catalog.
			return nil, apierr.ResourceNotFound(apierr.MsgTableNotFound(t.name))
		}
		for _, h := range c.svc.seams.hooks { // the features' refusals (feature_lifecycle.go)
			if h.CheckUpdateLocked == nil {
				continue
			}
			if err := h.CheckUpdateLocked(Call{c: c}, Definition{t: t, m: m}, in); err != nil {
				return nil, err
			}
		}
		old := *m // m is a copy: nothing changes unless every check passes
		m.GSIs = slices.Clone(m.GSIs)
		m.Vectors = slices.Clone(m.Vectors)
		var err error
		if u, err = t.updateLocked(c, in, newTP, m, c.now, u.before); err != nil {
			return nil, err
		}
		change := u.change
		s := t.prepareStreamLocked(c, &old, m)
		return func(recorded bool) error {
			if !recorded {
				c.forgetStream(s)
				return nil
			}
			t.syncStreamLocked(&old, m, s, c.now)
			if x := change.Added; x != nil {
				if err := t.data.AddIndex(x.StorageDef()); err != nil {
					return err
				}
			}
			if x := change.Dropped; x != nil {
				if err := t.data.DropIndex(x.Name); err != nil {
					return err
				}
			}
			if x := change.VAdded; x != nil {
				if err := t.data.AddVectorIndex(x.Def); err != nil {
					return err
				}
			}
			if x := change.VDropped; x != nil {
				if err := t.data.DropVectorIndex(x.Name); err != nil {
					return err
				}
			}
			return nil
		}, nil
	})
	if err != nil {
		return tableUpdate{}, err
	}
	return u, nil
}

// tableUpdate is what an UpdateTable changed: the index change, the
// definition it was made to, and the on-demand ceilings to answer.
type tableUpdate struct {
	change       tablespec.IndexChange
	before       *tableMeta
	onDemandEcho *OnDemandThroughput
}

// updateLocked applies the request to m, a copy of t's metadata
// (before: the definition it was taken from).
func (t *table) updateLocked(c *call, in *UpdateTableInput, newTP *tablespec.Throughput, mp *tableMeta, now time.Time, before *tableMeta) (tableUpdate, error) {
	m := *mp
	defer func() { *mp = m }()
	u := tableUpdate{before: before}

	mode := m.Billing.Mode
	if in.BillingMode != nil {
		mode = *in.BillingMode
	}
	if err := m.CheckBillingSwitch(mode, in.ProvisionedThroughput != nil, newTP); err != nil {
		return u, err
	}
	var keptOnDemand *OnDemandThroughput
	if in.OnDemandThroughput != nil {
		var err error
		if u.onDemandEcho, keptOnDemand, err = tablespec.UpdateOnDemand(in.OnDemandThroughput, m.OnDemand, mode); err != nil {
			return u, err
		}
	}
	if err := m.CheckOneOnlineIndex(indexOps(in), now); err != nil {
		return u, err
	}
	m.Warm = m.WarmNow() // warm throughput never goes down (DDB-TABLE-061)
	m.RaiseWarmFloors()
	if w := in.WarmThroughput; !w.Empty() {
		var err error
		if m.Warm, err = tablespec.RaiseWarm(w, "", m.Warm); err != nil {
			return u, err
		}
	}
	iu := &tablespec.IndexUpdate{GSIUpdates: in.GlobalSecondaryIndexUpdates, VectorUpdates: in.VectorIndexUpdates,
		AttrDefs: in.AttributeDefinitions, TableKeys: t.keySchema, TableARN: t.arn,
		Mode: mode, Now: now, Delay: c.svc.cfg.TransientDelay}
	var err error
	if u.change, err = m.ApplyGSIUpdates(iu); err != nil {
		return u, err
	}
	if err := m.ApplyVectorUpdates(iu, &u.change); err != nil {
		return u, err
	}
	tablespec.ApplyBilling(&m.Settings, &m.Indexes, mode, newTP, now)
	if err := t.applyStream(&m, in.StreamSpecification); err != nil {
		return u, err
	}
	if in.SSESpecification != nil {
		m.SSE = tablespec.DescribeSSE(in.SSESpecification, c.region, c.account)
	}
	if in.TableClass != nil {
		m.TableClass = *in.TableClass
	}
	if in.DeletionProtectionEnabled != nil {
		m.DeletionProtection = *in.DeletionProtectionEnabled
	}
	if in.OnDemandThroughput != nil {
		m.OnDemand = keptOnDemand
	}
	return u, nil
}

// applyStream applies a StreamSpecification (nil: none) to m.
func (t *table) applyStream(m *tableMeta, s *StreamSpecification) error {
	if s == nil {
		return nil
	}
	enabled := m.Stream != nil && *m.Stream.StreamEnabled
	switch {
	case *s.StreamEnabled && enabled:
		return apierr.Validation(apierr.MsgStreamAlreadyEnabled(t.name))
	case !*s.StreamEnabled && !enabled:
		return apierr.Validation(apierr.MsgStreamNotEnabled(t.name))
	case *s.StreamEnabled:
		m.Stream = s // its label is chosen as it starts (syncStreamLocked)
	default:
		// The stream stays readable for 24 hours: DescribeTable keeps
		// LatestStreamLabel and LatestStreamArn but drops
		// StreamSpecification (AWS and DynamoDB Local agree).
		m.Stream = nil
	}
	return nil
}

// checkUpdateCombination applies AWS's rule that an UpdateTable request
// makes one kind of change (tablespec.CheckUpdateCombination).
func checkUpdateCombination(in *UpdateTableInput) error {
	m := tablespec.UpdateMembers{
		"BillingMode":                 in.BillingMode != nil,
		"ProvisionedThroughput":       in.ProvisionedThroughput != nil,
		"GlobalSecondaryIndexUpdates": len(in.GlobalSecondaryIndexUpdates) > 0,
		"VectorIndexUpdates":          len(in.VectorIndexUpdates) > 0,
		"StreamSpecification":         in.StreamSpecification != nil,
		"SSESpecification":            in.SSESpecification != nil,
		"TableClass":                  in.TableClass != nil,
		"DeletionProtectionEnabled":   in.DeletionProtectionEnabled != nil,
		"OnDemandThroughput":          in.OnDemandThroughput != nil,
		"WarmThroughput":              !in.WarmThroughput.Empty(),
	}
	var owned []tablespec.OwnedMember
	for _, o := range in.Owned.given() {
		m[o.Name] = true
		owned = append(owned, o.OwnedMember)
	}
	return tablespec.CheckUpdateCombination(m, in.GlobalSecondaryIndexUpdates, indexOps(in), owned)
}

// updateTableConstraints reports the model-constraint violations of an
// UpdateTable request.
func updateTableConstraints(in *UpdateTableInput) error {
	var cs apierr.Constraints
	tablespec.AttrDefsConstraints(&cs, in.AttributeDefinitions)
	tablespec.TableNameConstraints(&cs, *in.TableName)
	apierr.Enum(&cs, in.BillingMode, "billingMode", "PROVISIONED", "PAY_PER_REQUEST")
	tablespec.ThroughputConstraints(&cs, in.ProvisionedThroughput, "provisionedThroughput")
	tablespec.GSIUpdateConstraints(&cs, in.GlobalSecondaryIndexUpdates)
	tablespec.VectorUpdateConstraints(&cs, in.VectorIndexUpdates)
	tablespec.StreamConstraints(&cs, in.StreamSpecification)
	tablespec.SSEConstraints(&cs, in.SSESpecification)
	tablespec.UpdateEnums(&cs, in.TableClass, in.MultiRegionConsistency)
	return cs.Err()
}

// indexOps counts the index creations and deletions an UpdateTable asks
// for, GSIs and vector indexes together.
func indexOps(in *UpdateTableInput) int {
	n := len(in.VectorIndexUpdates)
	for _, u := range in.GlobalSecondaryIndexUpdates {
		if u.Create != nil || u.Delete != nil {
			n++
		}
	}
	return n
}
