package service

import (
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/dynamoemu/dynamoemu/emulator/internal/tablespec"
)

// recordedTable is a table whose definition sets every setting a record
// keeps, each to a value other than its zero.
func recordedTable() (*table, *tableMeta) {
	at := time.Date(2026, 11, 27, 9, 0, 0, 0, time.UTC)
	t := &table{name: "t", id: "id", arn: "arn:aws:dynamodb:r:1:table/t", created: at,
		keySchema: []tablespec.KeyElem{{Name: "pk", KeyType: "HASH"}}}
	r, w := int64(7), int64(8)
	m := &tableMeta{Status: statusActive, StreamLabel: "label", DeletionProtection: true, ActiveAt: at.Add(time.Hour)}
	m.Billing = tablespec.Billing{Mode: "PAY_PER_REQUEST", Reported: true, PayPerRequestSince: at.Add(time.Minute)}
	m.Capacity = tablespec.Throughput{Read: 3, Write: 4, LastIncrease: at, LastDecrease: at.Add(time.Second), DecreasesToday: 2}
	m.OnDemand = &OnDemandThroughput{MaxReadRequestUnits: &r, MaxWriteRequestUnits: &w}
	m.Warm = tablespec.Warm{Read: 5, Write: 6}
	m.SSE = &SSEDescription{Status: "ENABLED", SSEType: "KMS", KMSMasterKeyArn: "key"}
	m.TableClass = "STANDARD_INFREQUENT_ACCESS"
	m.TTL = tablespec.TTL{Enabled: true, Attr: "exp"}
	m.Recovery = tablespec.Recovery{On: true, Days: 9}
	m.Restored = &tablespec.Restored{BackupArn: "backup", TableArn: "source", At: at.Add(-time.Hour)}
	m.AttrDefs = []tablespec.AttrDef{{Name: "pk", Type: "S"}}
	m.Tags = []tablespec.TagPair{{Key: "k", Value: "v"}}
	return t, m
}

// TestRecordBytes: a definition with every setting set records as it
// always has, byte for byte (the record of the tree before the settings
// became one value), and reads back to the same settings.
func TestRecordBytes(t *testing.T) {
	tt, m := recordedTable()
	got := string(encodeTableMeta(tt, m))
	const want = `{"v":1,"name":"t","id":"id","arn":"arn:aws:dynamodb:r:1:table/t","created":"2026-11-27T09:00:00Z","keySchema":[{"n":"pk","v":"HASH"}],"attrDefs":[{"n":"pk","v":"S"}],"billingMode":"PAY_PER_REQUEST","billingReported":true,"payPerRequestSince":"2026-11-27T09:01:00Z","throughput":{"read":3,"write":4,"lastIncrease":"2026-11-27T09:00:00Z","lastDecrease":"2026-11-27T09:00:01Z","decreasesToday":2},"onDemand":{"MaxReadRequestUnits":7,"MaxWriteRequestUnits":8},"warm":{"read":5,"write":6},"streamLabel":"label","sse":{"Status":"ENABLED","SSEType":"KMS","KMSMasterKeyArn":"key"},"tableClass":"STANDARD_INFREQUENT_ACCESS","deletionProtection":true,"tags":[{"n":"k","v":"v"}],"ttlEnabled":true,"ttlAttr":"exp","pitr":true,"pitrDays":9,"activeAt":"2026-11-27T10:00:00Z","restored":{"backupArn":"backup","tableArn":"source","at":"2026-11-27T08:00:00Z"}}`
	require.Equal(t, want, got)
	_, back, err := (&seams{}).decodeTableRecord([]byte(got), tt.schema)
	require.NoError(t, err)
	require.Equal(t, m.Settings, back.Settings)
}
