package pitr

import (
	"fmt"
	"maps"
	"math/rand/v2"
	"net/http"
	"sync"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/dynamoemu/dynamoemu/emulator/internal/testkit"
)

// TestPITRConcurrent runs point-in-time recovery's operations from
// several goroutines at once against tables being written on every
// path (PutItem, BatchWriteItem, TransactWriteItems, DeleteItem), their
// definitions changed (UpdateTable), deleted and created again: the
// recorder's locks (pitrRecorder.mu, pitrLog.mu: leaves, taken in the
// commit hook under storage's locks) against the core's. Every answer is
// a success or a refusal AWS gives for such races, never a 500 or a
// hang (testkit.WaitOrDump dumps the goroutines after its bound). Once
// quiet, a restore to the latest time of each table holds exactly its
// items. Run it under -race.
func TestPITRConcurrent(t *testing.T) {
	env := newEnv(t)
	tables := []string{"tab0", "tab1"}
	create := `{"TableName":"%s","BillingMode":"PAY_PER_REQUEST",
		"AttributeDefinitions":[{"AttributeName":"pk","AttributeType":"S"}],"KeySchema":[{"AttributeName":"pk","KeyType":"HASH"}]}`
	for _, name := range tables {
		env.must("CreateTable", fmt.Sprintf(create, name))
	}
	allowed := []string{"TableNotFoundException", "ResourceNotFoundException", "ResourceInUseException",
		"TableAlreadyExistsException", "TableInUseException", "PointInTimeRecoveryUnavailableException",
		"ValidationException", "LimitExceededException", "TransactionCanceledException"}
	var (
		wg   sync.WaitGroup
		mu   sync.Mutex
		okOf = map[string]int{}
	)
	for w := range 4 {
		wg.Go(func() {
			r := rand.New(rand.NewPCG(uint64(w), 11))
			for i := range 200 {
				table := tables[r.IntN(len(tables))]
				item := fmt.Sprintf(`{"pk":{"S":"k%d"},"n":{"N":"%d"}}`, r.IntN(30), i)
				var op, body string
				switch r.IntN(12) {
				case 0, 1, 2:
					op, body = "PutItem", `{"TableName":"`+table+`","Item":`+item+`}`
				case 3:
					op, body = "BatchWriteItem", `{"RequestItems":{"`+table+`":[{"PutRequest":{"Item":`+item+`}}]}}`
				case 4:
					op, body = "TransactWriteItems", `{"TransactItems":[{"Put":{"TableName":"`+table+`","Item":`+item+`}}]}`
				case 5:
					op, body = "DeleteItem", fmt.Sprintf(`{"TableName":"%s","Key":{"pk":{"S":"k%d"}}}`, table, r.IntN(30))
				case 6:
					op, body = "UpdateContinuousBackups", `{"TableName":"`+table+`","PointInTimeRecoverySpecification":{"PointInTimeRecoveryEnabled":`+
						testkit.Pick(r, "true", "true", "false")+`,"RecoveryPeriodInDays":`+testkit.Pick(r, "1", "35")+`}}`
				case 7:
					op, body = "DescribeContinuousBackups", `{"TableName":"`+table+`"}`
				case 8:
					op, body = "RestoreTableToPointInTime", fmt.Sprintf(`{"SourceTableName":"%s","TargetTableName":"restored-%d-%d","UseLatestRestorableTime":true}`, table, w, i)
				case 9:
					op, body = "UpdateTable", `{"TableName":"`+table+`","BillingMode":"`+testkit.Pick(r, "PAY_PER_REQUEST", "PROVISIONED")+
						`","ProvisionedThroughput":{"ReadCapacityUnits":5,"WriteCapacityUnits":5}}`
					if r.IntN(2) == 0 {
						op, body = "UpdateTable", `{"TableName":"`+table+`","BillingMode":"PAY_PER_REQUEST"}`
					}
				case 10:
					op, body = "DeleteTable", `{"TableName":"`+table+`"}`
				default:
					op, body = "CreateTable", fmt.Sprintf(create, table)
				}
				status, out := env.send(op, body)
				if status != http.StatusOK {
					require.Equal(t, http.StatusBadRequest, status, "%s %s: %s", op, body, out)
					require.Contains(t, allowed, testkit.ErrorType(out), "%s %s: %s", op, body, out)
					continue
				}
				mu.Lock()
				okOf[op]++
				mu.Unlock()
			}
		})
	}
	testkit.WaitOrDump(t, &wg)
	t.Logf("successes: %v", okOf)
	for _, op := range []string{"UpdateContinuousBackups", "RestoreTableToPointInTime", "DeleteTable", "PutItem"} {
		require.Positive(t, okOf[op], "no %s succeeded: the workload missed it", op)
	}
	for _, name := range tables {
		if status, _ := env.send("DescribeTable", `{"TableName":"`+name+`"}`); status != http.StatusOK {
			env.must("CreateTable", fmt.Sprintf(create, name))
		}
		env.must("UpdateContinuousBackups", `{"TableName":"`+name+`","PointInTimeRecoverySpecification":{"PointInTimeRecoveryEnabled":true}}`)
		env.must("RestoreTableToPointInTime", `{"SourceTableName":"`+name+`","TargetTableName":"final-`+name+`","UseLatestRestorableTime":true}`)
		got, want := scanAll(t, env, "final-"+name), scanAll(t, env, name)
		require.True(t, maps.Equal(got, want), "%s: restored %v, source %v", name, sorted(got), sorted(want))
	}
}
