package backups

import (
	"strings"
	"testing"

	"github.com/dynamoemu/dynamoemu/emulator/internal/service"
	"github.com/dynamoemu/dynamoemu/emulator/internal/testkit"
)

// vecTable is a table with a vector index of three dimensions.
const vecTable = `{"TableName":"vtab","BillingMode":"PAY_PER_REQUEST",` +
	`"AttributeDefinitions":[{"AttributeName":"pk","AttributeType":"S"},{"AttributeName":"tenant","AttributeType":"S"},{"AttributeName":"cat","AttributeType":"N"}],` +
	`"KeySchema":[{"AttributeName":"pk","KeyType":"HASH"}],` +
	`"VectorIndexes":[{"IndexName":"vidx","VectorAttribute":{"AttributeName":"emb"},"Dimensions":3,"DistanceFunction":"EUCLIDEAN",` +
	`"Projection":{"ProjectionType":"INCLUDE","NonKeyAttributes":["title"]},` +
	`"SearchSchema":[{"AttributeName":"tenant","SearchSchemaElementType":"HASH"},{"AttributeName":"cat","SearchSchemaElementType":"INLINE_FILTER"}]}]}`

// TestVectorBackupRestore: a backup describes its vector indexes; a
// restore carries them (rebuilt from the items, searchable at once), or
// only those VectorIndexOverride names.
func TestVectorBackupRestore(t *testing.T) {
	env := newClockEnv(t, service.Config{Features: testFeatures})
	must := func(op, body string) string { t.Helper(); return env.must(op, body) }
	must("CreateTable", vecTable)
	must("PutItem", `{"TableName":"vtab","Item":{"pk":{"S":"a"},"tenant":{"S":"t1"},"emb":{"L":[{"N":"1"},{"N":"0"},{"N":"0"}]}}}`)
	body := must("CreateBackup", `{"TableName":"vtab","BackupName":"bk1"}`)
	var cb struct{ BackupDetails struct{ BackupArn string } }
	testkit.MustUnmarshal(t, body, &cb)
	arn := cb.BackupDetails.BackupArn
	body = must("DescribeBackup", `{"BackupArn":"`+arn+`"}`)
	if !strings.Contains(body, `"VectorIndexes":[{"IndexName":"vidx","VectorAttribute":{"AttributeName":"emb"},"Dimensions":3`) {
		t.Errorf("DescribeBackup: %s", body)
	}
	must("RestoreTableFromBackup", `{"TargetTableName":"vrest","BackupArn":"`+arn+`"}`)
	body = must("DescribeTable", `{"TableName":"vrest"}`)
	if !strings.Contains(body, `"IndexArn":"arn:aws:dynamodb:us-east-1:000000000000:table/vrest/index/vidx"`) {
		t.Errorf("restored DescribeTable: %s", body)
	}
	body = must("SearchVectors", `{"TableName":"vrest","IndexName":"vidx","SearchVector":[{"N":"1"},{"N":"0"},{"N":"0"}],"TopK":3,`+
		`"SearchConditionExpression":"tenant = :t","ExpressionAttributeValues":{":t":{"S":"t1"}}}`)
	if !strings.Contains(body, `"pk":{"S":"a"}`) {
		t.Errorf("search of the restored table: %s", body)
	}
	status, out := env.send("PutItem", `{"TableName":"vrest","Item":{"pk":{"S":"b"},"emb":{"L":[{"N":"1"}]}}}`)
	if status != 400 {
		t.Errorf("a short vector on the restored table: %d %s", status, out)
	}
	must("RestoreTableFromBackup", `{"TargetTableName":"vnone","BackupArn":"`+arn+`","VectorIndexOverride":[]}`)
	body = must("DescribeTable", `{"TableName":"vnone"}`)
	if strings.Contains(body, "VectorIndexes") {
		t.Errorf("restore without vector indexes: %s", body)
	}
	must("PutItem", `{"TableName":"vnone","Item":{"pk":{"S":"b"},"emb":{"L":[{"N":"1"}]}}}`)
}
