package tablespec

import (
	"slices"
	"time"

	"github.com/dynamoemu/dynamoemu/emulator/internal/apierr"
)

// RestoredIndexes is the indexes and attribute definitions of a table
// restored (RestoreTableFromBackup, RestoreTableToPointInTime) from a
// table whose definition had src, changed by the overrides ov: the
// restored table's ARN is arn, its billing mode billing, and key names
// its key attributes. The checks come in AWS's order: a GSI override
// naming no index of src, an LSI's, a vector index's, then vector
// indexes on a provisioned table. The attribute definitions kept are
// those the key schema and the indexes use.
func (ov *RestoreOverrides) RestoredIndexes(src *Indexes, arn, billing string, key func(name string) bool) (Indexes, error) {
	var ix Indexes
	var err error
	if ix.GSIs, err = overrideIndexes(arn, src.GSIs, ov.GlobalSecondaryIndexOverride != nil, gsiOverrides(ov.GlobalSecondaryIndexOverride), billing); err != nil {
		return Indexes{}, err
	}
	if ix.LSIs, err = overrideIndexes(arn, src.LSIs, ov.LocalSecondaryIndexOverride != nil, lsiOverrides(ov.LocalSecondaryIndexOverride), billing); err != nil {
		return Indexes{}, err
	}
	if ix.Vectors, err = overrideVectors(arn, src.Vectors, ov.VectorIndexOverride); err != nil {
		return Indexes{}, err
	}
	if len(ix.Vectors) > 0 && billing != "PAY_PER_REQUEST" {
		return Indexes{}, apierr.Validation(apierr.MsgVectorOnDemandOnly)
	}
	// The attribute definitions the key schema and the indexes use.
	for _, a := range src.AttrDefs {
		used := key(a.Name)
		for _, x := range slices.Concat(ix.LSIs, ix.GSIs) {
			used = used || x.IsKeyAttr(a.Name)
		}
		for _, x := range ix.Vectors {
			used = used || x.SchemaElem(a.Name) != nil
		}
		if used {
			ix.AttrDefs = append(ix.AttrDefs, a)
		}
	}
	return ix, nil
}

// overrideVectors returns the vector indexes of the restored table (of
// ARN arn): those of the source (src), or when VectorIndexOverride is
// given (ovs not nil) those it names (by IndexName: as for GSIs, the
// other members are not compared), each with its new ARN and ACTIVE.
func overrideVectors(arn string, src []*VectorIndexDef, ovs []VectorIndex) ([]*VectorIndexDef, error) {
	pick := src
	if ovs != nil {
		pick = nil
		for _, o := range ovs {
			name := ""
			if o.IndexName != nil {
				name = *o.IndexName
			}
			i := slices.IndexFunc(src, func(x *VectorIndexDef) bool { return x.Name == name })
			if i < 0 {
				return nil, apierr.Validation(apierr.MsgIndexOverrideUnknown(name))
			}
			pick = append(pick, src[i])
		}
	}
	var out []*VectorIndexDef
	for _, x := range pick {
		y := *x
		y.ARN = arn + "/index/" + x.Name
		y.ActiveAt, y.GoneAt, y.Backfill = time.Time{}, time.Time{}, false
		out = append(out, &y)
	}
	return out, nil
}

// indexOverride is an index override: its name and, for a GSI, its
// provisioned throughput.
type indexOverride struct {
	name       string
	throughput *ProvisionedThroughput
}

func gsiOverrides(xs []GlobalSecondaryIndex) []indexOverride {
	out := make([]indexOverride, len(xs))
	for i, x := range xs {
		out[i] = indexOverride{*x.IndexName, x.ProvisionedThroughput}
	}
	return out
}

func lsiOverrides(xs []LocalSecondaryIndex) []indexOverride {
	out := make([]indexOverride, len(xs))
	for i, x := range xs {
		out[i] = indexOverride{name: *x.IndexName}
	}
	return out
}

// overrideIndexes returns the indexes of the restored table (of ARN
// arn): those of the source (src), or when given (set) only those the
// overrides name, each with its new ARN and, on a provisioned table, its
// throughput (the override's, or the source index's).
func overrideIndexes(arn string, src []*IndexDef, set bool, ovs []indexOverride, billing string) ([]*IndexDef, error) {
	pick := src
	if set {
		pick = nil
		for _, o := range ovs {
			i := slices.IndexFunc(src, func(x *IndexDef) bool { return x.Name == o.name })
			if i < 0 {
				return nil, apierr.Validation(apierr.MsgIndexOverrideUnknown(o.name))
			}
			pick = append(pick, src[i])
		}
	}
	var out []*IndexDef
	for _, x := range pick {
		y := *x
		y.ARN = arn + "/index/" + x.Name
		y.ActiveAt, y.GoneAt = time.Time{}, time.Time{}
		y.Throughput = nil
		if !x.Local && billing == "PROVISIONED" {
			tp := Throughput{Read: 1, Write: 1}
			if x.Throughput != nil {
				tp = Throughput{Read: x.Throughput.Read, Write: x.Throughput.Write}
			}
			if i := slices.IndexFunc(ovs, func(o indexOverride) bool { return o.name == x.Name }); i >= 0 && ovs[i].throughput != nil {
				p := ovs[i].throughput
				if p.ReadCapacityUnits != nil && p.WriteCapacityUnits != nil {
					tp = Throughput{Read: *p.ReadCapacityUnits, Write: *p.WriteCapacityUnits}
				}
			}
			y.Throughput = &tp
		}
		out = append(out, &y)
	}
	return out, nil
}

// CopiedIndexes is the secondary indexes src as a copy of their table
// (of ARN arn and billing mode billing) has them: each with its new ARN,
// ACTIVE, and on a provisioned table its throughput (the source index's).
func CopiedIndexes(arn string, src []*IndexDef, billing string) []*IndexDef {
	out, _ := overrideIndexes(arn, src, false, nil, billing) // no overrides: no error
	return out
}
