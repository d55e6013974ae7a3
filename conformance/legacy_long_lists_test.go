package conformance

import (
	"fmt"
	"testing"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

// TestLegacyKeyConditionsMany: a Query's KeyConditions of more than two
// conditions is refused with "Conditions can be of length 1 or 2 only",
// three or thousands, after each condition is checked: a condition's own
// fault (a BETWEEN of one value) is answered first. AWS's words for three
// are in ScyllaDB's test/alternator/test_query.py, whose tests also run
// against AWS: "If we try p, c and another key, we get an error that
// 'Conditions can be of length 1 or 2 only'". No record of AWS's answer
// for thousands was found; DynamoDB Local's is the same words.
func TestLegacyKeyConditionsMany(t *testing.T) {
	t.Parallel()
	c := newClient(t)
	table := rangeTable(t, c)
	mustPut(t, c, table, item{"pk": s("p"), "sk": n("1")})
	eq := func(v types.AttributeValue) types.Condition {
		return types.Condition{ComparisonOperator: types.ComparisonOperatorEq, AttributeValueList: avl(v)}
	}
	many := func(count int) map[string]types.Condition {
		conds := map[string]types.Condition{"pk": eq(s("p")), "sk": eq(n("1"))}
		for i := len(conds); i < count; i++ {
			conds[fmt.Sprintf("a%05d", i)] = eq(s("x"))
		}
		return conds
	}
	t.Run("two", func(t *testing.T) {
		t.Parallel()
		out, err := c.Query(ctx(t), &dynamodb.QueryInput{TableName: &table, KeyConditions: many(2)})
		mustNoError(t, err)
		requireItems(t, out.Items, []item{{"pk": s("p"), "sk": n("1")}})
	})
	for _, count := range []int{3, 5000} {
		t.Run(fmt.Sprint(count), func(t *testing.T) {
			t.Parallel()
			_, err := c.Query(ctx(t), &dynamodb.QueryInput{TableName: &table, KeyConditions: many(count)})
			requireValidation(t, err, "Conditions can be of length 1 or 2 only")
		})
	}
	t.Run("a fault among thousands", func(t *testing.T) {
		t.Parallel()
		conds := many(5000)
		conds["a04000"] = types.Condition{ComparisonOperator: types.ComparisonOperatorBetween, AttributeValueList: avl(s("x"))}
		_, err := c.Query(ctx(t), &dynamodb.QueryInput{TableName: &table, KeyConditions: conds})
		requireValidation(t, err, "One or more parameter values were invalid: Invalid number of argument(s) for the BETWEEN ComparisonOperator")
	})
}

// TestLegacyAttributesToGetMany: GetItem, Query and Scan with an
// AttributesToGet of thousands of distinct names answer with the
// attributes the item has, whichever place a name has in the list.
func TestLegacyAttributesToGetMany(t *testing.T) {
	t.Parallel()
	c := newClient(t)
	table := rangeTable(t, c)
	mustPut(t, c, table, item{"pk": s("p"), "sk": n("1"), "a02500": s("A"), "z": s("Z"), "other": s("O")})
	names := []string{"z"}
	for i := range 5000 {
		names = append(names, fmt.Sprintf("a%05d", 4999-i))
	}
	names = append(names, "sk")
	want := item{"sk": n("1"), "a02500": s("A"), "z": s("Z")}
	t.Run("GetItem", func(t *testing.T) {
		t.Parallel()
		out, err := c.GetItem(ctx(t), &dynamodb.GetItemInput{TableName: &table, Key: item{"pk": s("p"), "sk": n("1")}, AttributesToGet: names})
		mustNoError(t, err)
		requireItem(t, out.Item, want)
	})
	t.Run("Query", func(t *testing.T) {
		t.Parallel()
		out, err := c.Query(ctx(t), &dynamodb.QueryInput{TableName: &table, AttributesToGet: names,
			KeyConditions: map[string]types.Condition{"pk": {ComparisonOperator: types.ComparisonOperatorEq, AttributeValueList: avl(s("p"))}}})
		mustNoError(t, err)
		requireItems(t, out.Items, []item{want})
	})
	t.Run("Scan", func(t *testing.T) {
		t.Parallel()
		out, err := c.Scan(ctx(t), &dynamodb.ScanInput{TableName: &table, AttributesToGet: names})
		mustNoError(t, err)
		requireItems(t, out.Items, []item{want})
	})
}
