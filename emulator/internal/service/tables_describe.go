package service

import (
	"fmt"
	"math/rand/v2"
	"time"

	"github.com/dynamoemu/dynamoemu/emulator/internal/tablespec"
)

// epochTime is a timestamp on the wire (tablespec.EpochTime).
type epochTime = tablespec.EpochTime

func epochPtr(t time.Time) *epochTime { return tablespec.EpochPtr(t) }

// streamLabel formats a stream's creation time as AWS's LatestStreamLabel.
func streamLabel(t time.Time) string {
	return t.UTC().Format("2006-01-02T15:04:05.000")
}

// newUUID returns a random version-4 UUID (TableId).
func newUUID() string {
	hi, lo := rand.Uint64(), rand.Uint64()
	hi = hi&^0xf000 | 0x4000     // version 4
	lo = lo&^(0xc<<60) | 0x8<<60 // RFC 4122 variant
	return fmt.Sprintf("%08x-%04x-%04x-%04x-%012x",
		hi>>32, hi>>16&0xffff, hi&0xffff, lo>>48, lo&0xffffffffffff)
}

// describe builds the table's TableDescription from a consistent snapshot
// of its metadata plus the current item count and size.
func (t *table) describe() *TableDescription {
	m := t.snapshot()
	d := &TableDescription{
		TableName:                 t.name,
		TableStatus:               m.statusAt(t.now()),
		CreationDateTime:          epochTime(t.created),
		TableArn:                  t.arn,
		TableId:                   t.id,
		DeletionProtectionEnabled: m.deletionProtection,
		OnDemandThroughput:        m.onDemand,
	}
	for _, a := range m.AttrDefs {
		d.AttributeDefinitions = append(d.AttributeDefinitions, AttributeDefinitionDesc{AttributeName: a.Name, AttributeType: a.Type})
	}
	d.KeySchema = tablespec.DescribeKeySchema(t.keySchema)
	if t.data != nil {
		d.ItemCount = int64(t.data.ItemCount())
		d.TableSizeBytes = t.data.SizeBytes()
	}
	d.ProvisionedThroughput = tablespec.DescribeThroughput(&m.throughput)
	if m.billingReported {
		d.BillingModeSummary = &BillingModeSummary{
			BillingMode:                       m.billingMode,
			LastUpdateToPayPerRequestDateTime: epochPtr(m.payPerRequestSince),
		}
	}
	now := t.now()
	d.LocalSecondaryIndexes, d.GlobalSecondaryIndexes, d.VectorIndexes = m.Indexes.Describe(now, t)
	if m.stream != nil && *m.stream.StreamEnabled {
		d.StreamSpecification = m.stream
	}
	if m.streamLabel != "" { // the latest stream, enabled or not
		d.LatestStreamLabel = m.streamLabel
		d.LatestStreamArn = t.arn + "/stream/" + m.streamLabel
	}
	d.SSEDescription = m.sse
	d.RestoreSummary = m.restoreSummaryAt(t.now())
	if m.tableClass != "" {
		d.TableClassSummary = &TableClassSummary{TableClass: m.tableClass}
	}
	for _, ds := range describers { // the features' parts (feature_update.go)
		ds.Describe(Definition{t: t, m: m}, now, d)
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

// now reads the clock of the emulator that created t.
func (t *table) now() time.Time {
	if t.clock == nil {
		return time.Now()
	}
	return t.clock()
}

// statusAt is the TableStatus at now: a restored table is CREATING
// until its activeAt.
func (m *tableMeta) statusAt(now time.Time) string {
	if m.status == statusActive && now.Before(m.activeAt) {
		return statusCreating
	}
	return m.status
}

// restoreSummaryAt is a restored table's RestoreSummary at now (nil for
// a table not restored).
func (m *tableMeta) restoreSummaryAt(now time.Time) *RestoreSummary {
	if m.restored == nil {
		return nil
	}
	return &RestoreSummary{SourceBackupArn: m.restored.BackupArn, SourceTableArn: m.restored.TableArn,
		RestoreDateTime: epochTime(m.restored.At), RestoreInProgress: now.Before(m.activeAt)}
}

func epochSeconds(s float64) time.Time { return tablespec.EpochSeconds(s) }

// cmpOr is cmp.Or for strings.
func cmpOr(s, def string) string {
	if s == "" {
		return def
	}
	return s
}
