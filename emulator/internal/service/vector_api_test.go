package service

import (
	"strings"
	"testing"
)

// Vector indexes through the API: CreateTable, DescribeTable, writes,
// SearchVectors and UpdateTable (the conformance suite covers the wire
// shapes and AWS's messages; conformance/vector_test.go).

const vecTable = `{"TableName":"vtab","BillingMode":"PAY_PER_REQUEST",` +
	`"AttributeDefinitions":[{"AttributeName":"pk","AttributeType":"S"},{"AttributeName":"tenant","AttributeType":"S"},{"AttributeName":"cat","AttributeType":"N"}],` +
	`"KeySchema":[{"AttributeName":"pk","KeyType":"HASH"}],` +
	`"VectorIndexes":[{"IndexName":"vidx","VectorAttribute":{"AttributeName":"emb"},"Dimensions":3,"DistanceFunction":"EUCLIDEAN",` +
	`"Projection":{"ProjectionType":"INCLUDE","NonKeyAttributes":["title"]},` +
	`"SearchSchema":[{"AttributeName":"tenant","SearchSchemaElementType":"HASH"},{"AttributeName":"cat","SearchSchemaElementType":"INLINE_FILTER"}]}]}`

func TestVectorSearchSmoke(t *testing.T) {
	e := newTablesEmulator(t)
	body := mustTables(t, e, "CreateTable", vecTable)
	for _, want := range []string{`"VectorIndexes":[{"IndexName":"vidx"`, `"IndexStatus":"ACTIVE"`, `"DistanceFunction":"EUCLIDEAN"`, `"SearchSchema":[{"AttributeName":"tenant","SearchSchemaElementType":"HASH"}`} {
		if !strings.Contains(body, want) {
			t.Errorf("CreateTable answer lacks %s: %s", want, body)
		}
	}
	for _, it := range []string{
		`{"pk":{"S":"a"},"tenant":{"S":"t1"},"cat":{"N":"1"},"title":{"S":"A"},"misc":{"S":"x"},"emb":{"L":[{"N":"1"},{"N":"0"},{"N":"0"}]}}`,
		`{"pk":{"S":"b"},"tenant":{"S":"t1"},"cat":{"N":"2"},"title":{"S":"B"},"emb":{"L":[{"N":"2"},{"N":"0"},{"N":"0"}]}}`,
		`{"pk":{"S":"c"},"tenant":{"S":"t2"},"cat":{"N":"1"},"emb":{"L":[{"N":"1"},{"N":"0"},{"N":"0"}]}}`,
		`{"pk":{"S":"d"},"tenant":{"S":"t1"},"emb":{"L":[{"N":"0"},{"N":"0"},{"N":"0"}]}}`,
	} {
		mustTables(t, e, "PutItem", `{"TableName":"vtab","Item":`+it+`}`)
	}
	body = mustTables(t, e, "SearchVectors", `{"TableName":"vtab","IndexName":"vidx","SearchVector":[{"N":"1"},{"N":"0"},{"N":"0"}],"TopK":10,`+
		`"SearchConditionExpression":"tenant = :t","ExpressionAttributeValues":{":t":{"S":"t1"}},"ReturnConsumedCapacity":"TOTAL"}`)
	// b and d tie at 1: in Scan order (b's partition key hash is smaller).
	want := `{"SearchResults":[{"Item":{"cat":{"N":"1"},"pk":{"S":"a"},"tenant":{"S":"t1"},"title":{"S":"A"}},"Score":0},` +
		`{"Item":{"cat":{"N":"2"},"pk":{"S":"b"},"tenant":{"S":"t1"},"title":{"S":"B"}},"Score":1},` +
		`{"Item":{"pk":{"S":"d"},"tenant":{"S":"t1"}},"Score":1}],"ConsumedCapacity":{"VectorSearchRequestBytes":1024}}`
	if body != want {
		t.Errorf("SearchVectors:\n got %s\nwant %s", body, want)
	}
	body = mustTables(t, e, "SearchVectors", `{"TableName":"vtab","IndexName":"vidx","SearchVector":[{"N":"1"},{"N":"0"},{"N":"0"}],"TopK":1,`+
		`"SearchConditionExpression":"tenant = :t AND #c = :c","ExpressionAttributeNames":{"#c":"cat"},"ExpressionAttributeValues":{":t":{"S":"t1"},":c":{"N":"2"}},"ProjectionExpression":"emb, misc, pk"}`)
	want = `{"SearchResults":[{"Item":{"emb":{"L":[{"N":"2"},{"N":"0"},{"N":"0"}]},"pk":{"S":"b"}},"Score":1}]}`
	if body != want {
		t.Errorf("SearchVectors with a filter and a projection:\n got %s\nwant %s", body, want)
	}
	r := tablesDo(t, e, "PutItem", `{"TableName":"vtab","Item":{"pk":{"S":"e"},"emb":{"L":[{"N":"1"}]}}}`)
	if r.status != 400 || !strings.Contains(r.msg, "Invalid size for parameter emb, Expected: 3, Actual: 1. IndexName: vidx") {
		t.Errorf("PutItem of a short vector: %d %s %s", r.status, r.typ, r.msg)
	}
	r = tablesDo(t, e, "Query", `{"TableName":"vtab","IndexName":"vidx","KeyConditionExpression":"tenant = :t","ExpressionAttributeValues":{":t":{"S":"t1"}}}`)
	if r.status != 400 || r.msg != "Query operation not supported on this index type." {
		t.Errorf("Query of a vector index: %d %s %s", r.status, r.typ, r.msg)
	}
	body = mustTables(t, e, "UpdateTable", `{"TableName":"vtab","VectorIndexUpdates":[{"Create":{"IndexName":"vcos","VectorAttribute":{"AttributeName":"emb"},"Dimensions":3,"DistanceFunction":"COSINE","Projection":{"ProjectionType":"KEYS_ONLY"}}}]}`)
	if !strings.Contains(body, `"IndexName":"vcos","IndexArn":"arn:aws:dynamodb:us-east-1:000000000000:table/vtab/index/vcos"`) || !strings.Contains(body, `"IndexStatus":"CREATING","Backfilling":true`) {
		t.Errorf("UpdateTable Create: %s", body)
	}
	body = mustTables(t, e, "SearchVectors", `{"TableName":"vtab","IndexName":"vcos","SearchVector":[{"N":"0"},{"N":"1"},{"N":"0"}],"TopK":2}`)
	if !strings.Contains(body, `"Score":1`) || strings.Count(body, `"Item"`) != 2 {
		t.Errorf("SearchVectors of the new index: %s", body)
	}
	body = mustTables(t, e, "UpdateTable", `{"TableName":"vtab","VectorIndexUpdates":[{"Delete":{"IndexName":"vcos"}}]}`)
	if !strings.Contains(body, `"IndexStatus":"DELETING"`) {
		t.Errorf("UpdateTable Delete: %s", body)
	}
	r = tablesDo(t, e, "SearchVectors", `{"TableName":"vtab","IndexName":"vcos","SearchVector":[{"N":"0"},{"N":"1"},{"N":"0"}],"TopK":2}`)
	if r.msg != "The table does not have the specified index: vcos" {
		t.Errorf("SearchVectors of a deleted index: %d %s %s", r.status, r.typ, r.msg)
	}
}
