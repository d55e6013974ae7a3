package service

import (
	"slices"
	"time"

	"github.com/dynamoemu/dynamoemu/emulator/internal/apierr"
	"github.com/dynamoemu/dynamoemu/emulator/internal/tablespec"
)

// UpdateTable's VectorIndexUpdates: Create validates a vector index as
// CreateTable does and backfills it from the items at once; Delete
// drops it from storage at once. What DescribeTable shows follows the
// GSIs (tables_gsi.go): CREATING with Backfilling true, then ACTIVE;
// DELETING, then gone; with -delayTransientStatuses for the configured
// delay, else only in UpdateTable's own answer. "You can add or remove
// one vector index for each UpdateTable operation" (AWS's API
// reference), and a vector index operation counts as an online index
// operation with the GSIs' (VECTOR_SPEC.md).

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

// vectorsBusy reports the ResourceInUseException of an index operation
// while a vector index is still CREATING or DELETING (nil: none is).
func (m *tableMeta) vectorsBusy(now time.Time) error {
	for _, x := range m.vectors {
		if x.StatusAt(now) == tablespec.IndexCreating {
			return apierr.ResourceInUse(apierr.MsgIndexBeingCreated)
		}
	}
	for _, x := range m.vdeleting {
		if now.Before(x.GoneAt) {
			return apierr.ResourceInUse(apierr.MsgIndexBeingDeleted)
		}
	}
	return nil
}

// applyVectorUpdates applies VectorIndexUpdates to m (a copy of the
// table's definition), returning the storage work in change. mode is the
// billing mode after the request; delay how long CREATING and DELETING
// last.
func (m *tableMeta) applyVectorUpdates(in *UpdateTableInput, mode string, now time.Time, t *table, delay time.Duration, change *gsiChange) error {
	m.vdeleting = slices.DeleteFunc(slices.Clone(m.vdeleting), func(x *tablespec.VectorIndexDef) bool { return !now.Before(x.GoneAt) })
	if len(m.vectors) > 0 && mode != "PAY_PER_REQUEST" {
		return apierr.Validation(apierr.MsgVectorOnDemandOnly)
	}
	for _, u := range in.VectorIndexUpdates {
		if u.Delete != nil {
			name := *u.Delete.IndexName
			i := slices.IndexFunc(m.vectors, func(x *tablespec.VectorIndexDef) bool { return x.Name == name })
			if i < 0 {
				return apierr.ResourceNotFound(apierr.MsgIndexNotFound(name))
			}
			x := *m.vectors[i]
			x.GoneAt = now.Add(delay)
			m.vectors = slices.Delete(slices.Clone(m.vectors), i, i+1)
			m.vdeleting = append(m.vdeleting, &x)
			m.pruneAttrDefs(t.keySchema)
			change.vdropped = &x
			continue
		}
		if mode != "PAY_PER_REQUEST" {
			return apierr.Validation(apierr.MsgVectorOnDemandOnly)
		}
		attrDefs := slices.Clone(m.attrDefs)
		for _, d := range in.AttributeDefinitions {
			i := slices.IndexFunc(attrDefs, func(a tablespec.AttrDef) bool { return a.Name == *d.AttributeName })
			if i < 0 {
				attrDefs = append(attrDefs, tablespec.AttrDef{Name: *d.AttributeName, Type: *d.AttributeType})
			} else {
				attrDefs[i].Type = *d.AttributeType
			}
		}
		x, err := tablespec.CheckVectorIndex(u.Create, attrDefs, t.keySchema)
		if err != nil {
			return err
		}
		if slices.ContainsFunc(slices.Concat(m.gsis, m.lsis), func(y *tablespec.IndexDef) bool { return y.Name == x.Name }) ||
			slices.ContainsFunc(m.vectors, func(y *tablespec.VectorIndexDef) bool { return y.Name == x.Name }) {
			return apierr.Validation(apierr.MsgIndexExists)
		}
		if len(m.vectors)+1 > tablespec.MaxVectorIndexes {
			return apierr.Validation(apierr.MsgVectorIndexLimit)
		}
		vs := append(slices.Clone(m.vectors), x)
		if err := tablespec.CheckVectorDims(vs); err != nil {
			return err
		}
		x.ARN = t.arn + "/index/" + x.Name
		x.ActiveAt = now.Add(delay)
		x.Backfill = true
		m.vectors = vs
		m.attrDefs = attrDefs
		change.vadded = x
	}
	return nil
}
