package service

import "github.com/dynamoemu/dynamoemu/emulator/internal/tablespec"

// describe builds the table's TableDescription from a consistent snapshot
// of its metadata plus the current item count and size.
func (t *table) describe() *TableDescription {
	m := t.snapshot()
	d := &TableDescription{
		TableName:                 t.name,
		TableStatus:               m.StatusAt(t.readClock()),
		CreationDateTime:          tablespec.EpochTime(t.created),
		TableArn:                  t.arn,
		TableId:                   t.id,
		DeletionProtectionEnabled: m.DeletionProtection,
		OnDemandThroughput:        m.OnDemand,
	}
	for _, a := range m.AttrDefs {
		d.AttributeDefinitions = append(d.AttributeDefinitions, AttributeDefinitionDesc{AttributeName: a.Name, AttributeType: a.Type})
	}
	d.KeySchema = tablespec.DescribeKeySchema(t.keySchema)
	if t.data != nil {
		d.ItemCount = int64(t.data.ItemCount())
		// Items by AWS's item size rules (developer guide,
		// CapacityUnitCalculations), a vector attribute at four bytes a
		// dimension (vector_capacity.go). The per-item storage overhead
		// that guide names "for storage billing" (100 bytes an item) is
		// left out, as DynamoDB Local leaves it out; no record of AWS's
		// TableSizeBytes shows it counted.
		d.TableSizeBytes = t.data.BilledSizeBytes()
	}
	d.ProvisionedThroughput = tablespec.DescribeThroughput(&m.Capacity)
	d.WarmThroughput = m.WarmNow().Describe(tablespec.WarmStatus(d.TableStatus))
	if m.Billing.Reported {
		d.BillingModeSummary = &BillingModeSummary{
			BillingMode:                       m.Billing.Mode,
			LastUpdateToPayPerRequestDateTime: tablespec.EpochPtr(m.Billing.PayPerRequestSince),
		}
	}
	now := t.readClock()
	d.LocalSecondaryIndexes, d.GlobalSecondaryIndexes, d.VectorIndexes = m.Indexes.Describe(now, t)
	if m.Stream != nil && *m.Stream.StreamEnabled {
		d.StreamSpecification = m.Stream
	}
	if m.StreamLabel != "" { // the latest stream, enabled or not
		d.LatestStreamLabel = m.StreamLabel
		d.LatestStreamArn = t.arn + "/stream/" + m.StreamLabel
	}
	d.SSEDescription = m.SSE
	d.RestoreSummary = m.RestoreSummaryAt(t.readClock())
	if m.TableClass != "" {
		d.TableClassSummary = &TableClassSummary{TableClass: m.TableClass}
	}
	for _, h := range t.ns.svc.seams.hooks { // the features' parts (feature_lifecycle.go)
		if h.Describe != nil {
			h.Describe(Definition{t: t, m: m}, now, d)
		}
	}
	return d
}

// IndexStats returns the entry count and size of index x
// (tablespec.Stats).
func (t *table) IndexStats(x *tablespec.IndexDef) (count, size int64) {
	if t.data == nil {
		return 0, 0
	}
	n, sz, err := t.data.IndexStats(x.Name)
	if err != nil {
		return 0, 0
	}
	return int64(n), sz
}
