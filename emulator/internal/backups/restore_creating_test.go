package backups

import (
	"fmt"
	"github.com/dynamoemu/dynamoemu/emulator/internal/service"
	"net/http"
	"strconv"
	"testing"
	"time"

	"github.com/dynamoemu/dynamoemu/emulator/internal/testkit"
)

// TestRestoredTableCreatingServesNoItems: a restored table is CREATING
// for the transient delay, and meanwhile every data-plane request to it
// is answered as AWS answers one to a table being created: 400
// ResourceNotFoundException "Requested resource not found" (catalog.go,
// lookupTable); once ACTIVE the same requests succeed with its items.
// Control-plane reads (DescribeTable) answer throughout.
func TestRestoredTableCreatingServesNoItems(t *testing.T) {
	env := newClockEnv(t, service.Config{Features: testFeatures, TransientDelay: 2 * time.Second})
	clock, send, must := env.clock, env.send, env.must
	must("CreateTable", `{"TableName":"src","BillingMode":"PAY_PER_REQUEST",
		"AttributeDefinitions":[{"AttributeName":"pk","AttributeType":"S"},{"AttributeName":"v","AttributeType":"S"}],
		"KeySchema":[{"AttributeName":"pk","KeyType":"HASH"}],
		"GlobalSecondaryIndexes":[{"IndexName":"byV","KeySchema":[{"AttributeName":"v","KeyType":"HASH"}],"Projection":{"ProjectionType":"ALL"}}]}`)
	clock.Advance(2 * time.Second)
	must("PutItem", `{"TableName":"src","Item":{"pk":{"S":"a"},"v":{"S":"x"}}}`)
	must("UpdateContinuousBackups", `{"TableName":"src","PointInTimeRecoverySpecification":{"PointInTimeRecoveryEnabled":true}}`)
	var bk struct{ BackupDetails struct{ BackupArn string } }
	testkit.MustUnmarshal(t, must("CreateBackup", `{"TableName":"src","BackupName":"bk1"}`), &bk)
	clock.Advance(2 * time.Second)

	requests := []struct{ op, body string }{
		{"GetItem", `{"TableName":"%s","Key":{"pk":{"S":"a"}}}`},
		{"PutItem", `{"TableName":"%s","Item":{"pk":{"S":"b"},"v":{"S":"y"}}}`},
		{"UpdateItem", `{"TableName":"%s","Key":{"pk":{"S":"c"}},"UpdateExpression":"SET v = :v","ExpressionAttributeValues":{":v":{"S":"z"}}}`},
		{"DeleteItem", `{"TableName":"%s","Key":{"pk":{"S":"zz"}}}`},
		{"Query", `{"TableName":"%s","KeyConditionExpression":"pk = :p","ExpressionAttributeValues":{":p":{"S":"a"}}}`},
		{"Query", `{"TableName":"%s","IndexName":"byV","KeyConditionExpression":"v = :v","ExpressionAttributeValues":{":v":{"S":"x"}}}`},
		{"Scan", `{"TableName":"%s"}`},
		{"BatchGetItem", `{"RequestItems":{"%s":{"Keys":[{"pk":{"S":"a"}}]}}}`},
		{"BatchWriteItem", `{"RequestItems":{"%s":[{"PutRequest":{"Item":{"pk":{"S":"d"},"v":{"S":"y"}}}}]}}`},
		{"TransactGetItems", `{"TransactItems":[{"Get":{"TableName":"%s","Key":{"pk":{"S":"a"}}}}]}`},
		{"TransactWriteItems", `{"TransactItems":[{"Put":{"TableName":"%s","Item":{"pk":{"S":"e"},"v":{"S":"y"}}}}]}`},
		{"ExecuteStatement", `{"Statement":"SELECT * FROM \"%s\" WHERE pk = 'a'"}`},
	}
	restores := []struct{ op, body string }{
		{"RestoreTableFromBackup", `{"BackupArn":"` + bk.BackupDetails.BackupArn + `","TargetTableName":"%s"}`},
		{"RestoreTableToPointInTime", `{"SourceTableName":"src","TargetTableName":"%s","UseLatestRestorableTime":true}`},
	}
	for i, r := range restores {
		target := "restored" + strconv.Itoa(i)
		must(r.op, fmt.Sprintf(r.body, target))
		var dt struct{ Table struct{ TableStatus string } }
		testkit.MustUnmarshal(t, must("DescribeTable", `{"TableName":"`+target+`"}`), &dt)
		if dt.Table.TableStatus != "CREATING" {
			t.Fatalf("%s: got %s, want CREATING", r.op, dt.Table.TableStatus)
		}
		for _, q := range requests {
			status, out := send(q.op, fmt.Sprintf(q.body, target))
			typ, msg := testkit.ErrorOf(out)
			if status != http.StatusBadRequest || typ != "ResourceNotFoundException" || msg != "Requested resource not found" {
				t.Errorf("%s to a table CREATING (%s): got %d %s %q, want 400 ResourceNotFoundException %q",
					q.op, r.op, status, typ, msg, "Requested resource not found")
			}
		}
		clock.Advance(2 * time.Second)
		for _, q := range requests {
			if status, out := send(q.op, fmt.Sprintf(q.body, target)); status != http.StatusOK {
				t.Errorf("%s to the restored table once ACTIVE (%s): got %d %s, want 200", q.op, r.op, status, out)
			}
		}
		var got struct{ Item map[string]map[string]string }
		testkit.MustUnmarshal(t, must("GetItem", `{"TableName":"`+target+`","Key":{"pk":{"S":"a"}}}`), &got)
		if got.Item["v"]["S"] != "x" {
			t.Errorf("%s: the restored item: got %v, want v=x", r.op, got.Item)
		}
	}
}
