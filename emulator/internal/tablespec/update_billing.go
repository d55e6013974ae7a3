package tablespec

import (
	"slices"
	"time"

	"github.com/dynamoemu/dynamoemu/emulator/internal/apierr"
	"github.com/dynamoemu/dynamoemu/internal/shapes"
)

// UpdateTable's changes of billing mode and throughput, and its answer's
// index change under way.

// CheckBillingSwitch refuses a change of billing mode (to mode) or of
// throughput (newTP; ptGiven: the request gives ProvisionedThroughput)
// AWS does not make.
func (s *Settings) CheckBillingSwitch(mode string, ptGiven bool, newTP *Throughput) error {
	switch {
	case mode == "PAY_PER_REQUEST" && ptGiven:
		return apierr.Validation(apierr.MsgPPRWithThroughput)
	case mode == "PROVISIONED" && s.Billing.Mode == "PAY_PER_REQUEST" && !ptGiven:
		return apierr.Validation(apierr.MsgUpdateProvisionedNeedsThroughput)
	case newTP != nil && s.Billing.Mode == "PROVISIONED" && mode == "PROVISIONED" &&
		newTP.Read == s.Capacity.Read && newTP.Write == s.Capacity.Write:
		return apierr.Validation(apierr.MsgThroughputUnchanged(s.Capacity.Read, newTP.Read, s.Capacity.Write, newTP.Write))
	}
	return nil
}

// ApplyBilling sets the billing mode of a table (settings s, indexes x)
// to mode and its throughput to newTP (nil: unchanged).
func ApplyBilling(s *Settings, x *Indexes, mode string, newTP *Throughput, now time.Time) {
	if mode == "PAY_PER_REQUEST" {
		s.Billing.Reported = true // the service's billing_summary.go
	}
	switch {
	case mode == "PAY_PER_REQUEST" && s.Billing.Mode != "PAY_PER_REQUEST":
		s.Capacity = Throughput{}
		s.Billing.PayPerRequestSince = now
		for i, g := range x.GSIs {
			y := *g
			y.Throughput = nil
			x.GSIs[i] = &y
		}
	case mode == "PROVISIONED" && s.Billing.Mode == "PAY_PER_REQUEST":
		s.Capacity = Throughput{Read: newTP.Read, Write: newTP.Write}
		// Switching to PROVISIONED clears the on-demand ceilings
		// (captured against AWS, eu-west-2: nubo-db/dynoxide's
		// OnDemandThroughput work).
		s.OnDemand = nil
		// AWS requires each GSI's throughput in the same request; until
		// GlobalSecondaryIndexUpdates.Update can carry it here, GSIs take
		// the table's.
		for i, g := range x.GSIs {
			if g.Throughput == nil {
				y := *g
				y.Throughput = &Throughput{Read: newTP.Read, Write: newTP.Write}
				x.GSIs[i] = &y
			}
		}
	case newTP != nil:
		s.Capacity.Apply(newTP.Read, newTP.Write, now)
	}
	s.Billing.Mode = mode
}

// DescribeIndexChange shows in UpdateTable's answer d the index change
// under way, as AWS's does, even when it has finished already.
func DescribeIndexChange(d *shapes.TableDescription, change IndexChange, st Stats) {
	if x := change.Added; x != nil {
		for i, g := range d.GlobalSecondaryIndexes {
			if g.IndexName == x.Name {
				d.GlobalSecondaryIndexes[i] = DescribeGSI(x, IndexCreating, st)
			}
		}
	}
	if x := change.Dropped; x != nil && !slices.ContainsFunc(d.GlobalSecondaryIndexes, func(g GlobalSecondaryIndexDescription) bool {
		return g.IndexName == x.Name
	}) {
		d.GlobalSecondaryIndexes = append(d.GlobalSecondaryIndexes, DescribeGSI(x, IndexDeleting, st))
	}
	if x := change.VAdded; x != nil {
		for i, v := range d.VectorIndexes {
			if v.IndexName == x.Name {
				d.VectorIndexes[i] = DescribeVector(x, IndexCreating, st)
			}
		}
	}
	if x := change.VDropped; x != nil && !slices.ContainsFunc(d.VectorIndexes, func(v VectorIndexDescription) bool {
		return v.IndexName == x.Name
	}) {
		d.VectorIndexes = append(d.VectorIndexes, DescribeVector(x, IndexDeleting, st))
	}
}
