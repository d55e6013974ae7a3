package conformance

// ExpressionAttributeValues of more entries than a request's expressions
// can name (each expression is at most 4 KB): the emulator keeps such a
// map compact, not as a map (docs/server.md, "What one request can
// cost"), and must answer as it does for any map. AWS has no limit on the
// number of entries; the unused values' message is DynamoDB Local's, its
// keys compared as a set (their order is a Java HashSet's). No public
// record shows AWS's message for thousands of unused keys: the emulator
// echoes the first 64 KB of them, whole keys, and marks the cut, as it
// does for the lists of BatchWriteItem and the transactions; against
// DynamoDB Local every key is checked.

import (
	"slices"
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/aws/smithy-go"
)

// manyValues is the number of values each request below sends: more than
// the compact form's least (16,384), about 400 KB of JSON.
const manyValues = 20000

// requireUnusedValues requires the unused values' message listing exactly
// the keys of values but used.
func requireUnusedValues(t *testing.T, err error, values map[string]types.AttributeValue, used ...string) {
	t.Helper()
	const head = "Value provided in ExpressionAttributeValues unused in expressions: keys: {"
	var ae smithy.APIError
	if !asErr(err, &ae) || ae.ErrorCode() != "ValidationException" || !strings.HasPrefix(ae.ErrorMessage(), head) || !strings.HasSuffix(ae.ErrorMessage(), "}") {
		t.Fatalf("got %.300v, want the unused values", err)
	}
	echo := strings.TrimSuffix(strings.TrimPrefix(ae.ErrorMessage(), head), "}")
	const cut = "...(echo cut at 65536 bytes by dynamoemu)"
	if target(t).Oracle == "" && strings.HasSuffix(echo, cut) {
		// The emulator's cut: at most 64 KB of keys, each an unused one.
		echo = strings.TrimSuffix(echo, cut)
		if len(echo) > 64<<10 {
			t.Fatalf("the unused keys' echo is %d bytes, over the 64 KB cut", len(echo))
		}
		for _, k := range strings.Split(echo, ", ") {
			if _, ok := values[k]; !ok || slices.Contains(used, k) {
				t.Fatalf("the echo names %q, not an unused key", k)
			}
		}
		return
	}
	if target(t).Oracle == "" && len(echo) > 64<<10 {
		t.Fatalf("the unused keys' echo is %d bytes and not cut", len(echo))
	}
	got := strings.Split(echo, ", ")
	var want []string
	for k := range values {
		if !slices.Contains(used, k) {
			want = append(want, k)
		}
	}
	slices.Sort(got)
	slices.Sort(want)
	if !slices.Equal(got, want) {
		t.Fatalf("unused keys: got %d (%.100v...), want %d (%.100v...)", len(got), got, len(want), want)
	}
}

func TestManyPlaceholderValues(t *testing.T) {
	t.Parallel()
	c := newClient(t)
	table := hashTable(t, c)
	key := item{"pk": s("k")}
	_, err := c.PutItem(ctx(t), &dynamodb.PutItemInput{TableName: &table, Item: item{"pk": s("k"), "a": s("old")}})
	if err != nil {
		t.Fatal(err)
	}
	query := func(cond string, values map[string]types.AttributeValue) error {
		_, err := c.Query(ctx(t), &dynamodb.QueryInput{TableName: &table, KeyConditionExpression: aws.String(cond), ExpressionAttributeValues: values})
		return err
	}

	t.Run("query", func(t *testing.T) {
		values := tinyValues("v", manyValues, map[string]types.AttributeValue{":a": s("k")})
		requireUnusedValues(t, query("pk = :a", values), values, ":a")
	})
	t.Run("value missing", func(t *testing.T) {
		requireValidation(t, query("pk = :zz", tinyValues("v", manyValues, nil)),
			"Invalid KeyConditionExpression: An expression attribute value used in expression is not defined; attribute value: :zz")
	})
	t.Run("value of another type", func(t *testing.T) {
		// The value named is looked up and checked as in a small map:
		// the answer of one unused value is the answer of many.
		few := query("pk = :a", map[string]types.AttributeValue{":a": n("1"), ":v100000": s("x")})
		many := query("pk = :a", tinyValues("v", manyValues, map[string]types.AttributeValue{":a": n("1")}))
		var fewErr, manyErr smithy.APIError
		if !asErr(few, &fewErr) || !asErr(many, &manyErr) {
			t.Fatalf("got %.300v and %.300v, want errors", few, many)
		}
		if strings.Contains(fewErr.ErrorMessage(), "unused") {
			requireUnusedValues(t, many, tinyValues("v", manyValues, nil))
			return
		}
		requireValidation(t, many, fewErr.ErrorMessage())
	})
	t.Run("update writes nothing", func(t *testing.T) {
		values := tinyValues("v", manyValues, map[string]types.AttributeValue{":a": s("new"), ":b": s("b")})
		_, err := c.UpdateItem(ctx(t), &dynamodb.UpdateItemInput{TableName: &table, Key: key,
			UpdateExpression: aws.String("SET a = :a"), ConditionExpression: aws.String("a <> :b"), ExpressionAttributeValues: values})
		requireUnusedValues(t, err, values, ":a", ":b")
		out, err := c.GetItem(ctx(t), &dynamodb.GetItemInput{TableName: &table, Key: key, ConsistentRead: aws.Bool(true)})
		if err != nil {
			t.Fatal(err)
		}
		if got := out.Item["a"].(*types.AttributeValueMemberS).Value; got != "old" {
			t.Fatalf("a = %q after a refused update, want old", got)
		}
	})
	t.Run("scan filter", func(t *testing.T) {
		values := tinyValues("v", manyValues, map[string]types.AttributeValue{":a": s("old")})
		_, err := c.Scan(ctx(t), &dynamodb.ScanInput{TableName: &table, FilterExpression: aws.String("a = :a"), ExpressionAttributeValues: values})
		requireUnusedValues(t, err, values, ":a")
	})
	t.Run("transaction action", func(t *testing.T) {
		values := tinyValues("v", manyValues, map[string]types.AttributeValue{":a": s("new")})
		_, err := c.TransactWriteItems(ctx(t), &dynamodb.TransactWriteItemsInput{TransactItems: []types.TransactWriteItem{{Update: &types.Update{
			TableName: &table, Key: key, UpdateExpression: aws.String("SET a = :a"), ExpressionAttributeValues: values,
		}}}})
		requireUnusedValues(t, err, values, ":a")
	})
}
