package tablespec

import "time"

// The parts of a TableDescription that are a function of a definition
// alone.

// DescribeKeySchema is a key schema as DescribeTable reports it.
func DescribeKeySchema(ks []KeyElem) []KeySchemaElementDesc {
	out := make([]KeySchemaElementDesc, len(ks))
	for i, k := range ks {
		out[i] = KeySchemaElementDesc{AttributeName: k.Name, KeyType: k.KeyType}
	}
	return out
}

// DescribeProjection is an index projection as DescribeTable reports it.
func DescribeProjection(p IndexProjection) ProjectionDesc {
	return ProjectionDesc{ProjectionType: p.Type, NonKeyAttributes: p.NonKey}
}

// DescribeThroughput is a provisioned throughput, with its history, as
// DescribeTable reports it.
func DescribeThroughput(tp *Throughput) *ProvisionedThroughputDescription {
	return &ProvisionedThroughputDescription{
		LastIncreaseDateTime:   EpochPtr(tp.LastIncrease),
		LastDecreaseDateTime:   EpochPtr(tp.LastDecrease),
		NumberOfDecreasesToday: tp.DecreasesToday,
		ReadCapacityUnits:      tp.Read,
		WriteCapacityUnits:     tp.Write,
	}
}

// Stats reads an index's entry count and size where its entries are
// (the service's storage table). DynamoDB Local keeps them current; AWS
// refreshes them about every six hours, so a current figure is one AWS
// could show.
type Stats interface {
	IndexStats(x *IndexDef) (count, size int64)
	// VectorStats is false when there is nothing to count.
	VectorStats(x *VectorIndexDef) (count, size int64, ok bool)
}

// Describe describes ix's indexes at now as DescribeTable does: GSIs and
// vector indexes with their status, those being deleted while DELETING.
func (ix *Indexes) Describe(now time.Time, st Stats) ([]LocalSecondaryIndexDescription, []GlobalSecondaryIndexDescription, []VectorIndexDescription) {
	var lsis []LocalSecondaryIndexDescription
	var gsis []GlobalSecondaryIndexDescription
	var vectors []VectorIndexDescription
	for _, x := range ix.LSIs {
		count, size := st.IndexStats(x)
		lsis = append(lsis, LocalSecondaryIndexDescription{
			IndexName:      x.Name,
			KeySchema:      DescribeKeySchema(x.KeySchema),
			Projection:     DescribeProjection(x.Projection),
			IndexArn:       x.ARN,
			ItemCount:      count,
			IndexSizeBytes: size,
		})
	}
	for _, x := range ix.GSIs {
		gsis = append(gsis, DescribeGSI(x, x.StatusAt(now), st))
	}
	for _, x := range ix.Deleting {
		if now.Before(x.GoneAt) {
			gsis = append(gsis, DescribeGSI(x, IndexDeleting, st))
		}
	}
	for _, x := range ix.Vectors {
		vectors = append(vectors, DescribeVector(x, x.StatusAt(now), st))
	}
	for _, x := range ix.VDeleting {
		if now.Before(x.GoneAt) {
			vectors = append(vectors, DescribeVector(x, IndexDeleting, st))
		}
	}
	return lsis, gsis, vectors
}

// DescribeGSI describes GSI x in status (ACTIVE, CREATING or DELETING).
// AWS reports sizes and counts of an ACTIVE index only, and Backfilling
// while an index is being created.
func DescribeGSI(x *IndexDef, status string, st Stats) GlobalSecondaryIndexDescription {
	g := GlobalSecondaryIndexDescription{
		IndexName:          x.Name,
		KeySchema:          DescribeKeySchema(x.KeySchema),
		Projection:         DescribeProjection(x.Projection),
		IndexStatus:        status,
		IndexArn:           x.ARN,
		OnDemandThroughput: x.OnDemand,
		WarmThroughput:     x.WarmNow().Describe(WarmStatus(status)),
	}
	switch status {
	case IndexActive:
		count, size := st.IndexStats(x)
		g.ItemCount, g.IndexSizeBytes = &count, &size
	case IndexCreating:
		b := true
		g.Backfilling = &b
	}
	// A GSI of an on-demand table reports zero throughput, as the table does.
	tp := Throughput{}
	if x.Throughput != nil {
		tp = *x.Throughput
	}
	g.ProvisionedThroughput = DescribeThroughput(&tp)
	return g
}

// DescribeVector describes vector index x in status (ACTIVE, CREATING or
// DELETING): counts and sizes of an ACTIVE index, as for GSIs, and
// Backfilling while one added by UpdateTable is CREATING (an index
// created with its table reports none; VECTOR_SPEC.md).
func DescribeVector(x *VectorIndexDef, status string, st Stats) VectorIndexDescription {
	d := VectorIndexDescription{
		IndexName:        x.Name,
		IndexArn:         x.ARN,
		VectorAttribute:  VectorAttributeDesc{AttributeName: x.Attr},
		Dimensions:       x.Dims,
		DistanceFunction: x.Distance,
		Projection:       DescribeProjection(x.Projection),
		IndexStatus:      status,
	}
	for _, e := range x.Schema {
		d.SearchSchema = append(d.SearchSchema, SearchSchemaElemDesc{AttributeName: e.Name, SearchSchemaElementType: e.Type})
	}
	if status == IndexActive {
		if count, size, ok := st.VectorStats(x); ok {
			d.ItemCount, d.IndexSizeBytes = &count, &size
			if x.Backfill {
				f := false
				d.Backfilling = &f
			}
		}
	} else if status == IndexCreating && x.Backfill {
		b := true
		d.Backfilling = &b
	}
	return d
}
