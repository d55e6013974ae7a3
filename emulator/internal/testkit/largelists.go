package testkit

import (
	"fmt"
	"strings"
)

// LargeList is one shape of LargeLists: an operation whose body is head,
// elements elem(0), elem(1)... separated by commas, and tail.
type LargeList struct {
	Name, Op   string
	Elem       func(i int) string
	Head, Tail string
}

// Body is the shape's request of about size bytes.
func (l LargeList) Body(size int) string {
	var sb strings.Builder
	sb.Grow(size + len(l.Tail) + 128)
	sb.WriteString(l.Head)
	for i := 0; sb.Len() < size; i++ {
		if i > 0 {
			sb.WriteByte(',')
		}
		sb.WriteString(l.Elem(i))
	}
	sb.WriteString(l.Tail)
	return sb.String()
}

// LargeLists are requests whose size is one list or map member, each
// built to a size by Body (cmd/dynamoemu's TestOversizedMembers and
// TestOversizedRequests send the same over HTTP to a server of their
// own): the shapes whose memory the emulator's BenchmarkOversizeMemory
// and the benchmarks' TestLargeListMemoryBudgets measure, on a table
// "tab" (pk S) that holds the item pk "a".
var LargeLists = []LargeList{
	{"AttributesToGet", "GetItem", func(i int) string { return fmt.Sprintf(`"a%07d"`, i) },
		`{"TableName":"tab","Key":{"pk":{"S":"a"}},"AttributesToGet":["pk",`, `]}`},
	// About a million names, one repeated: refused at the first repeat.
	{"AttributesToGetRepeated", "GetItem", func(int) string { return `"a"` },
		`{"TableName":"tab","Key":{"pk":{"S":"a"}},"AttributesToGet":[`, `]}`},
	{"KeyConditions", "Query", func(i int) string {
		return fmt.Sprintf(`"a%07d":{"ComparisonOperator":"EQ","AttributeValueList":[{"S":"x"}]}`, i)
	}, `{"TableName":"tab","KeyConditions":{`, `}}`},
	{"ScanFilter", "Scan", func(i int) string {
		return fmt.Sprintf(`"a%07d":{"ComparisonOperator":"EQ","AttributeValueList":[{"S":"x"}]}`, i)
	}, `{"TableName":"tab","ScanFilter":{`, `}}`},
	{"QueryFilter", "Query", func(i int) string {
		return fmt.Sprintf(`"a%07d":{"ComparisonOperator":"IN","AttributeValueList":[{"S":"x"},{"S":"y"}]}`, i)
	}, `{"TableName":"tab","KeyConditions":{"pk":{"ComparisonOperator":"EQ","AttributeValueList":[{"S":"a"}]}},"QueryFilter":{`, `}}`},
	{"ExpressionAttributeValues", "Query", func(i int) string { return fmt.Sprintf(`":v%07d":{"S":"x"}`, i) },
		`{"TableName":"tab","KeyConditionExpression":"pk = :a","ExpressionAttributeValues":{":a":{"S":"a"},`, `}}`},
	{"Parameters", "ExecuteStatement", func(i int) string { return fmt.Sprintf(`{"S":"k%07d"}`, i) },
		`{"Statement":"SELECT * FROM \"tab\" WHERE pk = ?","Parameters":[`, `]}`},
	{"WideItem", "PutItem", func(i int) string { return fmt.Sprintf(`"a%07d":{"S":"x"}`, i) },
		`{"TableName":"tab","Item":{"pk":{"S":"b"},`, `}}`},
	{"WideItem/BatchWriteItem", "BatchWriteItem", func(i int) string { return fmt.Sprintf(`"a%07d":{"S":"x"}`, i) },
		`{"RequestItems":{"tab":[{"PutRequest":{"Item":{"pk":{"S":"b"},`, `}}}]}}`},
	{"WideItem/TransactWriteItems", "TransactWriteItems", func(i int) string { return fmt.Sprintf(`"a%07d":{"S":"x"}`, i) },
		`{"TransactItems":[{"Put":{"TableName":"tab","Item":{"pk":{"S":"b"},`, `}}}]}`},
	{"ItemList", "PutItem", func(i int) string { return fmt.Sprintf(`{"N":"%07d"}`, i) },
		`{"TableName":"tab","Item":{"pk":{"S":"b"},"l":{"L":[`, `]}}}`},
	{"ItemList/BatchWriteItem", "BatchWriteItem", func(i int) string { return fmt.Sprintf(`{"N":"%07d"}`, i) },
		`{"RequestItems":{"tab":[{"PutRequest":{"Item":{"pk":{"S":"b"},"l":{"L":[`, `]}}}}]}}`},
	{"ItemList/TransactWriteItems", "TransactWriteItems", func(i int) string { return fmt.Sprintf(`{"N":"%07d"}`, i) },
		`{"TransactItems":[{"Put":{"TableName":"tab","Item":{"pk":{"S":"b"},"l":{"L":[`, `]}}}}]}`},
	{"BatchGetAttributesToGet", "BatchGetItem", func(i int) string { return fmt.Sprintf(`"a%07d"`, i%1000) },
		`{"RequestItems":{"tab":{"Keys":[{"pk":{"S":"a"}}],"AttributesToGet":[`, `]}}}`},
	{"BatchGetItem", "BatchGetItem", func(i int) string { return fmt.Sprintf(`{"pk":{"S":"k%07d"}}`, i) },
		`{"RequestItems":{"tab":{"Keys":[`, `]}}}`},
	{"BatchWriteItem", "BatchWriteItem", func(i int) string {
		return fmt.Sprintf(`{"PutRequest":{"Item":{"pk":{"S":"k%07d"},"v":{"S":"%s"}}}}`, i, strings.Repeat("x", 300))
	}, `{"RequestItems":{"tab":[`, `]}}`},
	{"TransactWriteItems", "TransactWriteItems", func(i int) string {
		return fmt.Sprintf(`{"Put":{"TableName":"tab","Item":{"pk":{"S":"k%07d"},"v":{"S":"%s"}}}}`, i, strings.Repeat("x", 300))
	}, `{"TransactItems":[`, `]}`},
	{"TransactGetItems", "TransactGetItems", func(i int) string {
		return fmt.Sprintf(`{"Get":{"TableName":"tab","Key":{"pk":{"S":"k%07d"}}}}`, i)
	}, `{"TransactItems":[`, `]}`},
	{"BatchExecuteStatement", "BatchExecuteStatement", func(i int) string {
		return fmt.Sprintf(`{"Statement":"INSERT INTO \"tab\" VALUE {'pk':'k%07d','v':'%s'}"}`, i, strings.Repeat("x", 300))
	}, `{"Statements":[`, `]}`},
	{"ExecuteTransaction", "ExecuteTransaction", func(i int) string {
		return fmt.Sprintf(`{"Statement":"INSERT INTO \"tab\" VALUE {'pk':?,'v':?}","Parameters":[{"S":"k%07d"},{"S":"%s"}]}`, i, strings.Repeat("x", 300))
	}, `{"TransactStatements":[`, `]}`},
}
