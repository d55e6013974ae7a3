package emulator

import (
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/dynamoemu/dynamoemu/emulator/internal/testkit"
)

// benchKeep opens an emulator kept in a new directory with a table of n
// items (PITR enabled when pitr).
func benchKeep(b *testing.B, n int, pitr bool) *Emulator {
	b.Helper()
	e, err := New(Options{DataDir: b.TempDir()})
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { e.Close() })
	ok := func(op, body string) {
		if res, out := do(b, e, "DynamoDB_20120810."+op, testkit.DefaultAuth, body); res.StatusCode != http.StatusOK {
			b.Fatalf("%s: %s", op, out)
		}
	}
	ok("CreateTable", `{"TableName":"bench","KeySchema":[{"AttributeName":"pk","KeyType":"HASH"}],"AttributeDefinitions":[{"AttributeName":"pk","AttributeType":"S"}],"BillingMode":"PAY_PER_REQUEST"}`)
	for i := 0; i < n; i += 25 {
		var reqs []string
		for j := i; j < min(i+25, n); j++ {
			reqs = append(reqs, fmt.Sprintf(`{"PutRequest":{"Item":{"pk":{"S":"k%07d"},"v":{"S":"%0100d"}}}}`, j, j))
		}
		ok("BatchWriteItem", `{"RequestItems":{"bench":[`+strings.Join(reqs, ",")+`]}}`)
	}
	if pitr {
		ok("UpdateContinuousBackups", `{"TableName":"bench","PointInTimeRecoverySpecification":{"PointInTimeRecoveryEnabled":true}}`)
	}
	return e
}

// BenchmarkKeepCreateBackup: CreateBackup of a 10k-item table (about
// 1.3 MB) with -dbPath, which writes and fsyncs the backup's file.
func BenchmarkKeepCreateBackup(b *testing.B) {
	e := benchKeep(b, 10_000, false)
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		if res, out := do(b, e, "DynamoDB_20120810.CreateBackup", testkit.DefaultAuth, fmt.Sprintf(`{"TableName":"bench","BackupName":"bk%d"}`, i)); res.StatusCode != http.StatusOK {
			b.Fatal(out)
		}
	}
}

// BenchmarkKeepPutItem: PutItem with -dbPath (durability sync) on a
// table without and with point-in-time recovery (its history's log
// written and fsynced too, alongside the namespace's).
func BenchmarkKeepPutItem(b *testing.B) {
	for _, pitr := range []bool{false, true} {
		b.Run(fmt.Sprintf("pitr=%v", pitr), func(b *testing.B) {
			e := benchKeep(b, 0, pitr)
			b.ReportAllocs()
			for i := 0; b.Loop(); i++ {
				if res, out := do(b, e, "DynamoDB_20120810.PutItem", testkit.DefaultAuth, fmt.Sprintf(`{"TableName":"bench","Item":{"pk":{"S":"k%d"},"v":{"S":"x"}}}`, i)); res.StatusCode != http.StatusOK {
					b.Fatal(out)
				}
			}
		})
	}
}
