package globaltables

import (
	"slices"
	"sort"
	"strings"

	"github.com/dynamoemu/dynamoemu/emulator/internal/service"
	"github.com/dynamoemu/dynamoemu/emulator/internal/tablespec"
)

// A replica's own GSI read capacity: UpdateTable's ReplicaUpdates Create
// and Update take GlobalSecondaryIndexes (ReplicaGlobalSecondaryIndex:
// an index name and a ProvisionedThroughputOverride of read capacity),
// which DescribeTable's Replicas show per replica
// (ReplicaGlobalSecondaryIndexDescription). Read capacity is per
// replica; a GSI's write capacity is the global table's
// (sync.go carries it). Overrides merge per index (an
// index not named keeps its own), and an unknown index name is accepted
// and changes nothing, as AWS does (ack-api-quirks lab notes
// DDB-TABLE-250, -307).

// gsiReadOverride is one GSI's read capacity override.
type gsiReadOverride struct {
	Index string `json:"index"`
	Read  int64  `json:"read"`
}

// ReplicaGlobalSecondaryIndexDescription is one GSI of a replica in its
// description: its read capacity override.
type ReplicaGlobalSecondaryIndexDescription struct {
	IndexName                     string                  `json:"IndexName"`
	ProvisionedThroughputOverride *ReadThroughputOverride `json:"ProvisionedThroughputOverride,omitempty"`
}

// mergeGSIReads returns have with the read overrides of us merged in.
func mergeGSIReads(have []gsiReadOverride, us []ReplicaGlobalSecondaryIndex) []gsiReadOverride {
	out := slices.Clone(have)
	for _, u := range us {
		if u.IndexName == nil || u.ProvisionedThroughputOverride == nil || u.ProvisionedThroughputOverride.ReadCapacityUnits == nil {
			continue
		}
		o := gsiReadOverride{Index: *u.IndexName, Read: *u.ProvisionedThroughputOverride.ReadCapacityUnits}
		if i := slices.IndexFunc(out, func(x gsiReadOverride) bool { return x.Index == o.Index }); i >= 0 {
			out[i] = o
		} else {
			out = append(out, o)
		}
	}
	compare := func(a, b gsiReadOverride) int { return strings.Compare(a.Index, b.Index) }
	sort.Slice(out, func(i, j int) bool { return compare(out[i], out[j]) < 0 })
	return out
}

// withOverrides applies a replica's own read capacity (on a provisioned
// table) and table class, as a's overrides give them, to s.
func withOverrides(s *tablespec.Settings, a *ReplicaAction) {
	if o := a.ProvisionedThroughputOverride; o != nil && o.ReadCapacityUnits != nil && s.Billing.Mode != "PAY_PER_REQUEST" {
		s.Capacity.Read = *o.ReadCapacityUnits
	}
	if a.TableClassOverride != nil {
		s.TableClass = *a.TableClassOverride
	}
}

// withGSIReads applies the read capacity overrides of us to the
// provisioned GSIs of the definition e.
func withGSIReads(e *service.Edit, us []ReplicaGlobalSecondaryIndex) {
	for _, o := range mergeGSIReads(nil, us) {
		x, ok := e.Indexes().GSI(o.Index)
		if !ok {
			continue
		}
		if c, provisioned := x.Capacity(); provisioned {
			c.Read = o.Read
			e.SetGSICapacity(o.Index, &c)
		}
	}
}

// describeGSIReads is a replica's GlobalSecondaryIndexes in DescribeTable.
func describeGSIReads(reads []gsiReadOverride) []ReplicaGlobalSecondaryIndexDescription {
	var out []ReplicaGlobalSecondaryIndexDescription
	for _, o := range reads {
		r := o.Read
		out = append(out, ReplicaGlobalSecondaryIndexDescription{IndexName: o.Index, ProvisionedThroughputOverride: &ReadThroughputOverride{ReadCapacityUnits: &r}})
	}
	return out
}
