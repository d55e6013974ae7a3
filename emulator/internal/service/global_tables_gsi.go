package service

import (
	"slices"
	"strings"
)

// A replica's own GSI read capacity: UpdateTable's ReplicaUpdates Create
// and Update take GlobalSecondaryIndexes (ReplicaGlobalSecondaryIndex:
// an index name and a ProvisionedThroughputOverride of read capacity),
// which DescribeTable's Replicas show per replica
// (ReplicaGlobalSecondaryIndexDescription). Read capacity is per
// replica; a GSI's write capacity is the global table's
// (global_tables_sync.go carries it). Overrides merge per index (an
// index not named keeps its own), and an unknown index name is accepted
// and changes nothing, as AWS does (ack-api-quirks lab notes
// DDB-TABLE-250, -307).

// gsiReadOverride is one GSI's read capacity override.
type gsiReadOverride struct {
	Index string `json:"index"`
	Read  int64  `json:"read"`
}

// ReplicaGSIDescription is ReplicaGlobalSecondaryIndexDescription.
type ReplicaGSIDescription struct {
	IndexName                     string                  `json:"IndexName"`
	ProvisionedThroughputOverride *ReadThroughputOverride `json:"ProvisionedThroughputOverride,omitempty"`
}

// mergeGSIReads returns have with the read overrides of us merged in.
func mergeGSIReads(have []gsiReadOverride, us []ReplicaGSIOverride) []gsiReadOverride {
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
	slices.SortFunc(out, func(a, b gsiReadOverride) int { return strings.Compare(a.Index, b.Index) })
	return out
}

// withGSIReads returns gsis with the read capacity overrides of us
// applied to the provisioned ones.
func withGSIReads(gsis []*indexDef, us []ReplicaGSIOverride) []*indexDef {
	reads := mergeGSIReads(nil, us)
	if len(reads) == 0 {
		return gsis
	}
	out := slices.Clone(gsis)
	for i, x := range out {
		j := slices.IndexFunc(reads, func(o gsiReadOverride) bool { return o.Index == x.name })
		if j < 0 || x.throughput == nil {
			continue
		}
		y := *x
		tp := *x.throughput
		tp.read = reads[j].Read
		y.throughput = &tp
		out[i] = &y
	}
	return out
}

// describeGSIReads is a replica's GlobalSecondaryIndexes in DescribeTable.
func describeGSIReads(reads []gsiReadOverride) []ReplicaGSIDescription {
	var out []ReplicaGSIDescription
	for _, o := range reads {
		r := o.Read
		out = append(out, ReplicaGSIDescription{IndexName: o.Index, ProvisionedThroughputOverride: &ReadThroughputOverride{ReadCapacityUnits: &r}})
	}
	return out
}
