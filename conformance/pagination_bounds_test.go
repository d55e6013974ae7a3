package conformance

import (
	"fmt"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

// TestPaginationAtInclusiveBound: when a Query's page stops exactly on the
// last item its key condition can match (an inclusive bound at the end of
// the walk, or the one item of a table without a sort key), the answer has
// no LastEvaluatedKey, and that key is refused as ExclusiveStartKey
// (DynamoDB Local's rule). An equality keeps its LastEvaluatedKey.
func TestPaginationAtInclusiveBound(t *testing.T) {
	t.Parallel()
	c := newClient(t)
	table := createTable(t, c, tableDef(keyDef{"pk", "S"}, keyDef{"sk", "N"}))
	for i := 1; i <= 5; i++ {
		mustPut(t, c, table, item{"pk": s("p"), "sk": n(fmt.Sprint(i))})
	}
	vals := func(extra item) item { return with(item{":p": s("p")}, extra) }
	tests := []struct {
		name    string
		cond    string
		values  item
		forward bool
		limit   int32
		lek     string // sk of LastEvaluatedKey; "" for none
	}{
		{"le stops on bound", "pk = :p AND sk <= :b", vals(item{":b": n("3")}), true, 3, ""},
		{"le stops before bound", "pk = :p AND sk <= :b", vals(item{":b": n("3")}), true, 2, "2"},
		{"between stops on upper bound", "pk = :p AND sk BETWEEN :a AND :b", vals(item{":a": n("2"), ":b": n("4")}), true, 3, ""},
		{"between backward stops on lower bound", "pk = :p AND sk BETWEEN :a AND :b", vals(item{":a": n("2"), ":b": n("4")}), false, 3, ""},
		{"ge backward stops on bound", "pk = :p AND sk >= :b", vals(item{":b": n("3")}), false, 3, ""},
		{"ge forward keeps its key", "pk = :p AND sk >= :b", vals(item{":b": n("1")}), true, 5, "5"},
		{"le beyond the last item keeps its key", "pk = :p AND sk <= :b", vals(item{":b": n("10")}), true, 5, "5"},
		{"equality keeps its key", "pk = :p AND sk = :b", vals(item{":b": n("2")}), true, 1, "2"},
		{"partition keeps its key", "pk = :p", vals(nil), true, 5, "5"},
	}
	for _, tt := range tests {
		out, err := c.Query(ctx(t), &dynamodb.QueryInput{TableName: &table, KeyConditionExpression: &tt.cond,
			ExpressionAttributeValues: tt.values, ScanIndexForward: aws.Bool(tt.forward), Limit: aws.Int32(tt.limit)})
		mustNoError(t, err)
		got := ""
		if out.LastEvaluatedKey != nil {
			got = out.LastEvaluatedKey["sk"].(*types.AttributeValueMemberN).Value
		}
		if got != tt.lek {
			t.Errorf("%s: got LastEvaluatedKey sk %q, want %q", tt.name, got, tt.lek)
		}
	}

	refused := []struct {
		name, cond string
		values     item
		forward    bool
		start      string
	}{
		{"le bound", "pk = :p AND sk <= :b", vals(item{":b": n("3")}), true, "3"},
		{"between upper bound", "pk = :p AND sk BETWEEN :a AND :b", vals(item{":a": n("2"), ":b": n("4")}), true, "4"},
		{"ge bound backward", "pk = :p AND sk >= :b", vals(item{":b": n("3")}), false, "3"},
	}
	for _, tt := range refused {
		_, err := c.Query(ctx(t), &dynamodb.QueryInput{TableName: &table, KeyConditionExpression: &tt.cond,
			ExpressionAttributeValues: tt.values, ScanIndexForward: aws.Bool(tt.forward),
			ExclusiveStartKey: item{"pk": s("p"), "sk": n(tt.start)}})
		requireValidation(t, err, "The provided starting key does not match the range key predicate")
	}
	// The start bound in the walk's direction is a fine start key.
	cond := "pk = :p AND sk >= :b"
	out, err := c.Query(ctx(t), &dynamodb.QueryInput{TableName: &table, KeyConditionExpression: &cond,
		ExpressionAttributeValues: vals(item{":b": n("3")}), ExclusiveStartKey: item{"pk": s("p"), "sk": n("3")}})
	mustNoError(t, err)
	if out.Count != 2 {
		t.Errorf("ge from its own bound: got Count %d, want 2", out.Count)
	}
}

// TestPaginationNeverRefusesItsKey pages through every condition and
// direction with small limits: each LastEvaluatedKey given is accepted back
// and the pages together hold exactly the matching items.
func TestPaginationNeverRefusesItsKey(t *testing.T) {
	t.Parallel()
	c := newClient(t)
	table := createTable(t, c, tableDef(keyDef{"pk", "S"}, keyDef{"sk", "N"}))
	for i := 1; i <= 5; i++ {
		mustPut(t, c, table, item{"pk": s("p"), "sk": n(fmt.Sprint(i))})
	}
	conds := []struct {
		cond  string
		vals  item
		count int
	}{
		{"pk = :p", nil, 5},
		{"pk = :p AND sk <= :b", item{":b": n("3")}, 3},
		{"pk = :p AND sk < :b", item{":b": n("3")}, 2},
		{"pk = :p AND sk >= :b", item{":b": n("3")}, 3},
		{"pk = :p AND sk > :b", item{":b": n("3")}, 2},
		{"pk = :p AND sk BETWEEN :b AND :c", item{":b": n("2"), ":c": n("4")}, 3},
		{"pk = :p AND sk = :b", item{":b": n("2")}, 1},
	}
	for _, cd := range conds {
		for _, forward := range []bool{true, false} {
			for limit := int32(1); limit <= 3; limit++ {
				var start map[string]types.AttributeValue
				total := 0
				for page := 0; ; page++ {
					if page > 10 {
						t.Fatalf("%s forward=%v limit %d: no end after 10 pages", cd.cond, forward, limit)
					}
					out, err := c.Query(ctx(t), &dynamodb.QueryInput{TableName: &table, KeyConditionExpression: aws.String(cd.cond),
						ExpressionAttributeValues: with(item{":p": s("p")}, cd.vals), ScanIndexForward: aws.Bool(forward),
						Limit: aws.Int32(limit), ExclusiveStartKey: start})
					if err != nil {
						t.Fatalf("%s forward=%v limit %d page %d: %v", cd.cond, forward, limit, page, err)
					}
					total += int(out.Count)
					if out.LastEvaluatedKey == nil {
						break
					}
					start = out.LastEvaluatedKey
				}
				if total != cd.count {
					t.Errorf("%s forward=%v limit %d: got %d items over all pages, want %d", cd.cond, forward, limit, total, cd.count)
				}
			}
		}
	}
	hash := hashTable(t, c)
	mustPut(t, c, hash, item{"pk": s("h")})
	out, err := c.Query(ctx(t), &dynamodb.QueryInput{TableName: &hash, KeyConditionExpression: aws.String("pk = :p"),
		ExpressionAttributeValues: item{":p": s("h")}, Limit: aws.Int32(1)})
	mustNoError(t, err)
	if out.Count != 1 || out.LastEvaluatedKey != nil {
		t.Errorf("table without sort key, Limit 1: got Count %d, LastEvaluatedKey %v, want 1 and none", out.Count, out.LastEvaluatedKey)
	}
}
