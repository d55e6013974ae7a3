package backups

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"net/http"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/dynamoemu/dynamoemu/emulator/internal/service"
	"github.com/dynamoemu/dynamoemu/emulator/internal/service/servicetest"
	"github.com/dynamoemu/dynamoemu/emulator/internal/testkit"
)

// TestBackupsConcurrent runs the backup operations from several
// goroutines at once against tables being written, deleted (with
// point-in-time recovery: the SYSTEM backup is kept from the drop
// notification, under the table's lock) and created again, and restores
// racing for the same names. Every answer is a success or one of the
// refusals AWS gives for such races, never a 500; afterwards ListBackups
// lists each backup once and every one it lists describes and restores.
// Run under -race, it checks the feature's lock (backupSet.mu, a leaf)
// against the core's.
func TestBackupsConcurrent(t *testing.T) {
	env := servicetest.New(t, service.Config{Features: testFeatures})
	tables := []string{"tab0", "tab1", "tab2"}
	create := func(name string) (int, string) {
		return env.Send("CreateTable", `{"TableName":"`+name+`","BillingMode":"PAY_PER_REQUEST",
			"AttributeDefinitions":[{"AttributeName":"pk","AttributeType":"S"}],"KeySchema":[{"AttributeName":"pk","KeyType":"HASH"}]}`)
	}
	for _, name := range tables {
		status, out := create(name)
		require.Equal(t, http.StatusOK, status, out)
	}
	allowed := []string{"TableNotFoundException", "ResourceNotFoundException", "ResourceInUseException",
		"TableAlreadyExistsException", "TableInUseException", "BackupNotFoundException", "BackupInUseException",
		"PointInTimeRecoveryUnavailableException", "ValidationException", "LimitExceededException"}
	var (
		mu   sync.Mutex
		arns []string
	)
	var wg sync.WaitGroup
	for w := range 4 {
		wg.Go(func() {
			r := rand.New(rand.NewPCG(uint64(w), 7))
			for i := range 150 {
				table := tables[r.IntN(len(tables))]
				var op, body string
				switch r.IntN(8) {
				case 0:
					op, body = "CreateBackup", fmt.Sprintf(`{"TableName":"%s","BackupName":"b%d-%d"}`, table, w, i)
				case 1:
					op, body = "ListBackups", `{}`
				case 2, 3:
					op, body = "PutItem", fmt.Sprintf(`{"TableName":"%s","Item":{"pk":{"S":"k%d"}}}`, table, r.IntN(20))
				case 4:
					op, body = "UpdateContinuousBackups", `{"TableName":"`+table+`","PointInTimeRecoverySpecification":{"PointInTimeRecoveryEnabled":true}}`
				case 5:
					op, body = "DeleteTable", `{"TableName":"`+table+`"}`
				case 6:
					op, body = "CreateTable", `{"TableName":"`+table+`","BillingMode":"PAY_PER_REQUEST",
						"AttributeDefinitions":[{"AttributeName":"pk","AttributeType":"S"}],"KeySchema":[{"AttributeName":"pk","KeyType":"HASH"}]}`
				default:
					mu.Lock()
					var arn string
					if len(arns) > 0 {
						arn = arns[r.IntN(len(arns))]
					}
					mu.Unlock()
					if arn == "" {
						continue
					}
					if r.IntN(2) == 0 {
						op, body = "RestoreTableFromBackup", fmt.Sprintf(`{"BackupArn":"%s","TargetTableName":"restored%d"}`, arn, r.IntN(3))
					} else {
						op, body = "DeleteBackup", `{"BackupArn":"`+arn+`"}`
					}
				}
				status, out := env.Send(op, body)
				if status != http.StatusOK {
					require.Equal(t, http.StatusBadRequest, status, "%s %s: %s", op, body, out)
					require.Contains(t, allowed, testkit.ErrorType(out), "%s %s: %s", op, body, out)
					continue
				}
				if op == "CreateBackup" {
					var bk struct{ BackupDetails struct{ BackupArn string } }
					testkit.MustUnmarshal(t, out, &bk)
					mu.Lock()
					arns = append(arns, bk.BackupDetails.BackupArn)
					mu.Unlock()
				}
			}
		})
	}
	wg.Wait()

	var listed []string
	var list struct {
		BackupSummaries []struct {
			BackupArn, BackupType string
		}
	}
	require.NoError(t, json.Unmarshal([]byte(env.Must("ListBackups", `{"BackupType":"ALL"}`)), &list))
	system := 0
	for _, s := range list.BackupSummaries {
		if s.BackupType == "SYSTEM" {
			system++
		}
		require.NotContains(t, listed, s.BackupArn, "listed twice")
		listed = append(listed, s.BackupArn)
		env.Must("DescribeBackup", `{"BackupArn":"`+s.BackupArn+`"}`)
	}
	t.Logf("%d backups listed (%d made by CreateBackup, %d SYSTEM)", len(listed), len(arns), system)
	require.Positive(t, system, "no table with point-in-time recovery was deleted: the workload missed the drop notification")
	for i, arn := range listed {
		env.Must("RestoreTableFromBackup", fmt.Sprintf(`{"BackupArn":"%s","TargetTableName":"final%d"}`, arn, i))
	}
	for _, arn := range arns {
		if !slices.Contains(listed, arn) {
			env.Refused("DescribeBackup", `{"BackupArn":"`+arn+`"}`, "BackupNotFoundException")
		}
	}
}

// BenchmarkCreateBackup backs up a table of 10k items of about 200
// bytes: O(1) per table and index (a copy-on-write snapshot), so ns/op
// and B/op do not grow with the table.
//
//	go test ./emulator/internal/backups -run '^$' -bench CreateBackup -benchmem
func BenchmarkCreateBackup(b *testing.B) {
	env := servicetest.New(b, service.Config{Features: testFeatures})
	env.Must("CreateTable", `{"TableName":"bench","BillingMode":"PAY_PER_REQUEST",`+
		`"AttributeDefinitions":[{"AttributeName":"pk","AttributeType":"S"},{"AttributeName":"sk","AttributeType":"N"},{"AttributeName":"status","AttributeType":"S"}],`+
		`"KeySchema":[{"AttributeName":"pk","KeyType":"HASH"},{"AttributeName":"sk","KeyType":"RANGE"}],`+
		`"GlobalSecondaryIndexes":[{"IndexName":"byStatus","KeySchema":[{"AttributeName":"status","KeyType":"HASH"}],"Projection":{"ProjectionType":"KEYS_ONLY"}}]}`)
	const n = 10_000
	for i := 0; i < n; i += 25 {
		var reqs []string
		for j := i; j < i+25; j++ {
			reqs = append(reqs, fmt.Sprintf(`{"PutRequest":{"Item":{"pk":{"S":"TENANT#acme#ORDER#%08d"},"sk":{"N":"%d"},`+
				`"status":{"S":"%s"},"amount":{"N":"1234.50"},"note":{"S":"a note of some length to make the item about two hundred bytes long"}}}}`,
				j/10, j%10, []string{"NEW", "SHIPPED", "PAID"}[j%3]))
		}
		body, _ := json.Marshal(map[string]any{"RequestItems": map[string]json.RawMessage{"bench": json.RawMessage("[" + strings.Join(reqs, ",") + "]")}})
		env.Must("BatchWriteItem", string(body))
	}
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; b.Loop(); i++ {
		env.Must("CreateBackup", fmt.Sprintf(`{"TableName":"bench","BackupName":"backup-%d"}`, i))
	}
}
