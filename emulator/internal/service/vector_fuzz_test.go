package service

import (
	"strings"
	"testing"
	"time"

	"github.com/dynamoemu/dynamoemu/emulator/internal/testkit"
)

// FuzzSearchVectors feeds arbitrary bodies to SearchVectors, and to
// CreateTable and UpdateTable as vector index definitions, on a table
// with a vector index and items: bad input must get a 400, never a panic
// or a 500, and the table must stay searchable.
func FuzzSearchVectors(f *testing.F) {
	for _, seed := range []string{
		`{}`,
		`{"TableName":"vtab","IndexName":"vidx","SearchVector":[{"N":"1"},{"N":"0"},{"N":"0"}],"TopK":3,"SearchConditionExpression":"tenant = :t","ExpressionAttributeValues":{":t":{"S":"t1"}}}`,
		`{"TableName":"vtab","IndexName":"vidx","SearchVector":[{"N":"1"},{"S":"0"},{"N":"1e39"}],"TopK":0}`,
		`{"TableName":"vtab","IndexName":"vidx","SearchVector":[{"N":"1"},{"N":"0"},{"N":"0"}],"TopK":101,"ProjectionExpression":"emb, #x","ExpressionAttributeNames":{"#x":"title"}}`,
		`{"TableName":"vtab","IndexName":"vidx","SearchVector":[{"N":"1"},{"N":"0"},{"N":"0"}],"TopK":5,"SearchConditionExpression":"(tenant = :t) AND cat = :c OR cat < :c","ExpressionAttributeValues":{":t":{"S":"t1"},":c":{"N":"1"}}}`,
		`{"TableName":"vtab","IndexName":"vidx","SearchVector":{"L":[]},"TopK":"5"}`,
		`{"TableName":"vtab","VectorIndexUpdates":[{"Create":{"IndexName":"v2","VectorAttribute":{"AttributeName":"emb"},"Dimensions":3,"DistanceFunction":"COSINE","Projection":{"ProjectionType":"ALL"}}}]}`,
		`{"TableName":"vtab","VectorIndexUpdates":[{"Delete":{"IndexName":"v2"}},{}]}`,
		`{"TableName":"vnew","BillingMode":"PAY_PER_REQUEST","AttributeDefinitions":[{"AttributeName":"pk","AttributeType":"S"}],"KeySchema":[{"AttributeName":"pk","KeyType":"HASH"}],` +
			`"VectorIndexes":[{"IndexName":"vx1","VectorAttribute":{"AttributeName":"e"},"Dimensions":4097,"DistanceFunction":"DOT_PRODUCT","Projection":{"ProjectionType":"INCLUDE"},"SearchSchema":[{}]}]}`,
	} {
		f.Add(seed)
	}
	e := newTestService(f, Config{Clock: func() time.Time { return tablesClock }})
	for _, call := range [][2]string{
		{"CreateTable", vecTable},
		{"PutItem", `{"TableName":"vtab","Item":{"pk":{"S":"a"},"tenant":{"S":"t1"},"cat":{"N":"1"},"title":{"S":"A"},"emb":{"L":[{"N":"1"},{"N":"0"},{"N":"0"}]}}}`},
		{"PutItem", `{"TableName":"vtab","Item":{"pk":{"S":"b"},"tenant":{"S":"t1"},"emb":{"L":[{"N":"0"},{"N":"1"},{"N":"0"}]}}}`},
	} {
		if res, b := doService(f, e, "DynamoDB_20120810."+call[0], testkit.DefaultAuth, call[1]); res.StatusCode != 200 {
			f.Fatalf("%s: %d %s", call[0], res.StatusCode, b)
		}
	}
	f.Fuzz(func(t *testing.T, body string) {
		for _, op := range []string{"SearchVectors", "CreateTable", "UpdateTable"} {
			res, b := doService(t, e, "DynamoDB_20120810."+op, testkit.DefaultAuth, body)
			if res.StatusCode != 200 && res.StatusCode != 400 && res.StatusCode != 413 {
				t.Fatalf("%s %s: status %d %s", op, body, res.StatusCode, b)
			}
		}
		tablesDo(t, e, "DeleteTable", `{"TableName":"vnew"}`)
		res, b := doService(t, e, "DynamoDB_20120810.SearchVectors", testkit.DefaultAuth,
			`{"TableName":"vtab","IndexName":"vidx","SearchVector":[{"N":"1"},{"N":"0"},{"N":"0"}],"TopK":3,"SearchConditionExpression":"tenant = :t","ExpressionAttributeValues":{":t":{"S":"t1"}}}`)
		if res.StatusCode != 200 && !strings.Contains(b, "does not have the specified index") { // the body may delete vidx
			t.Fatalf("the table stopped answering: %d %s", res.StatusCode, b)
		}
	})
}
