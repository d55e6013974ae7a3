package tablespec

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
