package conformance

// BatchGetItem, BatchWriteItem, ReturnConsumedCapacity, legacy conditions and updates.

import (
	"fmt"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

func TestBatchWriteAndGet(t *testing.T) {
	t.Parallel()
	c := newClient(t)
	t1 := hashTable(t, c)
	t2 := rangeTable(t, c)
	var w1 []types.WriteRequest
	for i := 0; i < 20; i++ {
		w1 = append(w1, types.WriteRequest{PutRequest: &types.PutRequest{Item: item{"pk": s(fmt.Sprint(i)), "v": n(fmt.Sprint(i))}}})
	}
	out, err := c.BatchWriteItem(ctx(t), &dynamodb.BatchWriteItemInput{RequestItems: map[string][]types.WriteRequest{
		t1: w1,
		t2: {
			{PutRequest: &types.PutRequest{Item: item{"pk": s("a"), "sk": n("1")}}},
			{PutRequest: &types.PutRequest{Item: item{"pk": s("a"), "sk": n("2")}}},
			{DeleteRequest: &types.DeleteRequest{Key: item{"pk": s("a"), "sk": n("3")}}},
		},
	}})
	mustNoError(t, err)
	if len(out.UnprocessedItems) != 0 {
		t.Fatalf("UnprocessedItems = %v, want empty", out.UnprocessedItems)
	}
	_, err = c.BatchWriteItem(ctx(t), &dynamodb.BatchWriteItemInput{RequestItems: map[string][]types.WriteRequest{
		t1: {{DeleteRequest: &types.DeleteRequest{Key: item{"pk": s("0")}}}},
	}})
	mustNoError(t, err)

	var keys []item
	for i := 0; i < 20; i++ {
		keys = append(keys, item{"pk": s(fmt.Sprint(i))})
	}
	keys = append(keys, item{"pk": s("absent")})
	got, err := c.BatchGetItem(ctx(t), &dynamodb.BatchGetItemInput{RequestItems: map[string]types.KeysAndAttributes{
		t1: {Keys: keys, ProjectionExpression: aws.String("v")},
		t2: {Keys: []item{{"pk": s("a"), "sk": n("1")}, {"pk": s("a"), "sk": n("2")}}, ConsistentRead: aws.Bool(true)},
	}})
	mustNoError(t, err)
	if len(got.UnprocessedKeys) != 0 {
		t.Fatalf("UnprocessedKeys = %v, want empty", got.UnprocessedKeys)
	}
	if len(got.Responses[t1]) != 19 {
		t.Fatalf("%d items from %s, want 19", len(got.Responses[t1]), t1)
	}
	sum := 0
	for _, it := range got.Responses[t1] {
		if len(it) != 1 || it["v"] == nil {
			t.Fatalf("projected item %s, want only v", renderItem(it))
		}
		var v int
		fmt.Sscan(it["v"].(*types.AttributeValueMemberN).Value, &v)
		sum += v
	}
	if sum != 190 {
		t.Fatalf("sum of v = %d, want 190", sum)
	}
	if len(got.Responses[t2]) != 2 {
		t.Fatalf("%d items from %s, want 2", len(got.Responses[t2]), t2)
	}
}

func TestBatchLimits(t *testing.T) {
	t.Parallel()
	c := newClient(t)
	table := hashTable(t, c)
	rng := rangeTable(t, c)
	keys := func(k int) []item {
		var out []item
		for i := 0; i < k; i++ {
			out = append(out, item{"pk": s(fmt.Sprint(i))})
		}
		return out
	}
	puts := func(k int) []types.WriteRequest {
		var out []types.WriteRequest
		for _, key := range keys(k) {
			out = append(out, types.WriteRequest{PutRequest: &types.PutRequest{Item: key}})
		}
		return out
	}
	_, err := c.BatchGetItem(ctx(t), &dynamodb.BatchGetItemInput{RequestItems: map[string]types.KeysAndAttributes{table: {Keys: keys(100)}}})
	mustNoError(t, err)
	_, err = c.BatchGetItem(ctx(t), &dynamodb.BatchGetItemInput{RequestItems: map[string]types.KeysAndAttributes{table: {Keys: keys(101)}}})
	requireValidation(t, err, "") // the messages, which differ from DynamoDB Local's: TestBatchLimitMessages
	_, err = c.BatchWriteItem(ctx(t), &dynamodb.BatchWriteItemInput{RequestItems: map[string][]types.WriteRequest{table: puts(25)}})
	mustNoError(t, err)
	_, err = c.BatchWriteItem(ctx(t), &dynamodb.BatchWriteItemInput{RequestItems: map[string][]types.WriteRequest{table: puts(26)}})
	requireValidation(t, err, "")

	tests := []struct {
		name string
		call func() error
		msg  string
	}{
		{"get duplicate keys", func() error {
			_, err := c.BatchGetItem(ctx(t), &dynamodb.BatchGetItemInput{RequestItems: map[string]types.KeysAndAttributes{table: {Keys: []item{{"pk": s("a")}, {"pk": s("a")}}}}})
			return err
		}, "Provided list of item keys contains duplicates"},
		{"write duplicate keys", func() error {
			_, err := c.BatchWriteItem(ctx(t), &dynamodb.BatchWriteItemInput{RequestItems: map[string][]types.WriteRequest{table: {
				{PutRequest: &types.PutRequest{Item: item{"pk": s("a")}}}, {DeleteRequest: &types.DeleteRequest{Key: item{"pk": s("a")}}}}}})
			return err
		}, "Provided list of item keys contains duplicates"},
		{"get empty", func() error {
			_, err := c.BatchGetItem(ctx(t), &dynamodb.BatchGetItemInput{RequestItems: map[string]types.KeysAndAttributes{}})
			return err
		}, ""},
		{"write empty", func() error {
			_, err := c.BatchWriteItem(ctx(t), &dynamodb.BatchWriteItemInput{RequestItems: map[string][]types.WriteRequest{}})
			return err
		}, ""},
		{"write empty list", func() error {
			_, err := c.BatchWriteItem(ctx(t), &dynamodb.BatchWriteItemInput{RequestItems: map[string][]types.WriteRequest{table: {}}})
			return err
		}, ""},
		{"get empty keys", func() error {
			_, err := c.BatchGetItem(ctx(t), &dynamodb.BatchGetItemInput{RequestItems: map[string]types.KeysAndAttributes{table: {Keys: []item{}}}})
			return err
		}, ""},
		{"get projection and AttributesToGet", func() error {
			_, err := c.BatchGetItem(ctx(t), &dynamodb.BatchGetItemInput{RequestItems: map[string]types.KeysAndAttributes{table: {Keys: keys(1), ProjectionExpression: aws.String("v"), AttributesToGet: []string{"v"}}}})
			return err
		}, "Can not use both expression and non-expression parameters in the same request: Non-expression parameters: {AttributesToGet} Expression parameters: {ProjectionExpression}"},
		{"get key missing range", func() error {
			_, err := c.BatchGetItem(ctx(t), &dynamodb.BatchGetItemInput{RequestItems: map[string]types.KeysAndAttributes{rng: {Keys: keys(1)}}})
			return err
		}, ""},
		{"write item missing range", func() error {
			_, err := c.BatchWriteItem(ctx(t), &dynamodb.BatchWriteItemInput{RequestItems: map[string][]types.WriteRequest{rng: puts(1)}})
			return err
		}, ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			requireValidation(t, tc.call(), tc.msg)
		})
	}
}

func TestReturnConsumedCapacity(t *testing.T) {
	t.Parallel()
	c := newClient(t)
	table := rangeTable(t, c)
	key := item{"pk": s("k"), "sk": n("1")}
	small := with(key, item{"v": s("x")})
	big := with(key, item{"v": s(string(make([]byte, 2500)))}) // about 2.5 KB: 3 write units

	total := func(cc *types.ConsumedCapacity) float64 {
		t.Helper()
		if cc == nil || aws.ToString(cc.TableName) != table {
			t.Fatalf("ConsumedCapacity = %+v, want one for %s", cc, table)
		}
		return aws.ToFloat64(cc.CapacityUnits)
	}
	put, err := c.PutItem(ctx(t), &dynamodb.PutItemInput{TableName: &table, Item: big, ReturnConsumedCapacity: types.ReturnConsumedCapacityTotal})
	mustNoError(t, err)
	if got := total(put.ConsumedCapacity); got != 3 {
		t.Errorf("PutItem 2.5 KB: %v units, want 3", got)
	}
	put, err = c.PutItem(ctx(t), &dynamodb.PutItemInput{TableName: &table, Item: small, ReturnConsumedCapacity: types.ReturnConsumedCapacityIndexes})
	mustNoError(t, err)
	// Replacing an item costs by the larger of the old and new item.
	if got := total(put.ConsumedCapacity); got != 3 || put.ConsumedCapacity.Table == nil || aws.ToFloat64(put.ConsumedCapacity.Table.CapacityUnits) != 3 {
		t.Errorf("PutItem INDEXES over 2.5 KB: %v units, want 3 with Table 3", got)
	}
	put, err = c.PutItem(ctx(t), &dynamodb.PutItemInput{TableName: &table, Item: small, ReturnConsumedCapacity: types.ReturnConsumedCapacityNone})
	mustNoError(t, err)
	if put.ConsumedCapacity != nil {
		t.Errorf("NONE: ConsumedCapacity %+v", put.ConsumedCapacity)
	}
	for _, consistent := range []bool{false, true} {
		get, err := c.GetItem(ctx(t), &dynamodb.GetItemInput{TableName: &table, Key: key, ConsistentRead: aws.Bool(consistent), ReturnConsumedCapacity: types.ReturnConsumedCapacityTotal})
		mustNoError(t, err)
		want := 0.5
		if consistent {
			want = 1
		}
		if got := total(get.ConsumedCapacity); got != want {
			t.Errorf("GetItem consistent=%v: %v units, want %v", consistent, got, want)
		}
	}
	q, err := c.Query(ctx(t), &dynamodb.QueryInput{TableName: &table, KeyConditionExpression: aws.String("pk = :p"), ExpressionAttributeValues: item{":p": s("k")}, ReturnConsumedCapacity: types.ReturnConsumedCapacityIndexes})
	mustNoError(t, err)
	if got := total(q.ConsumedCapacity); got != 0.5 || q.ConsumedCapacity.Table == nil || aws.ToFloat64(q.ConsumedCapacity.Table.CapacityUnits) != 0.5 {
		t.Errorf("Query INDEXES: %+v, want 0.5 with Table 0.5", q.ConsumedCapacity)
	}
	bw, err := c.BatchWriteItem(ctx(t), &dynamodb.BatchWriteItemInput{RequestItems: map[string][]types.WriteRequest{table: {{PutRequest: &types.PutRequest{Item: small}}}}, ReturnConsumedCapacity: types.ReturnConsumedCapacityTotal})
	mustNoError(t, err)
	if len(bw.ConsumedCapacity) != 1 || total(&bw.ConsumedCapacity[0]) != 1 {
		t.Errorf("BatchWriteItem: %+v, want one entry of 1", bw.ConsumedCapacity)
	}
	bg, err := c.BatchGetItem(ctx(t), &dynamodb.BatchGetItemInput{RequestItems: map[string]types.KeysAndAttributes{table: {Keys: []item{key}}}, ReturnConsumedCapacity: types.ReturnConsumedCapacityTotal})
	mustNoError(t, err)
	if len(bg.ConsumedCapacity) != 1 || total(&bg.ConsumedCapacity[0]) != 0.5 {
		t.Errorf("BatchGetItem: %+v, want one entry of 0.5", bg.ConsumedCapacity)
	}
}

func TestLegacyExpected(t *testing.T) {
	t.Parallel()
	c := newClient(t)
	table := hashTable(t, c)
	mustPut(t, c, table, item{"pk": s("k"), "v": n("1"), "s": s("abc")})
	it := item{"pk": s("k"), "v": n("1"), "s": s("abc")}
	tests := []struct {
		name     string
		expected map[string]types.ExpectedAttributeValue
		op       types.ConditionalOperator
		ok       bool
		msg      string // validation error
	}{
		{name: "value equal", expected: map[string]types.ExpectedAttributeValue{"v": {Value: n("1")}}, ok: true},
		{name: "value differs", expected: map[string]types.ExpectedAttributeValue{"v": {Value: n("2")}}},
		{name: "exists false on present", expected: map[string]types.ExpectedAttributeValue{"v": {Exists: aws.Bool(false)}}},
		{name: "exists false on absent", expected: map[string]types.ExpectedAttributeValue{"zz": {Exists: aws.Bool(false)}}, ok: true},
		{name: "exists true without value", expected: map[string]types.ExpectedAttributeValue{"v": {Exists: aws.Bool(true)}},
			msg: enveloped("One or more parameter values were invalid: Value must be provided when Exists is true for Attribute: v", "")},
		{name: "comparison", expected: map[string]types.ExpectedAttributeValue{"s": {ComparisonOperator: types.ComparisonOperatorBeginsWith, AttributeValueList: []types.AttributeValue{s("ab")}}}, ok: true},
		{name: "comparison without values", expected: map[string]types.ExpectedAttributeValue{"s": {ComparisonOperator: types.ComparisonOperatorEq}},
			msg: enveloped("One or more parameter values were invalid: Value or AttributeValueList must be used with ComparisonOperator: EQ for Attribute: s", "")},
		{name: "and fails", expected: map[string]types.ExpectedAttributeValue{
			"v": {ComparisonOperator: types.ComparisonOperatorEq, AttributeValueList: []types.AttributeValue{n("1")}},
			"s": {ComparisonOperator: types.ComparisonOperatorNull}}},
		{name: "or passes", op: types.ConditionalOperatorOr, ok: true, expected: map[string]types.ExpectedAttributeValue{
			"v": {ComparisonOperator: types.ComparisonOperatorEq, AttributeValueList: []types.AttributeValue{n("1")}},
			"s": {ComparisonOperator: types.ComparisonOperatorNull}}},
		{name: "between", ok: true, expected: map[string]types.ExpectedAttributeValue{"v": {ComparisonOperator: types.ComparisonOperatorBetween, AttributeValueList: []types.AttributeValue{n("0"), n("1")}}}},
		{name: "in", ok: true, expected: map[string]types.ExpectedAttributeValue{"s": {ComparisonOperator: types.ComparisonOperatorIn, AttributeValueList: []types.AttributeValue{s("x"), s("abc")}}}},
		{name: "not null", ok: true, expected: map[string]types.ExpectedAttributeValue{"s": {ComparisonOperator: types.ComparisonOperatorNotNull}}},
		{name: "contains", ok: true, expected: map[string]types.ExpectedAttributeValue{"s": {ComparisonOperator: types.ComparisonOperatorContains, AttributeValueList: []types.AttributeValue{s("bc")}}}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			_, err := c.PutItem(ctx(t), &dynamodb.PutItemInput{TableName: &table, Item: it, Expected: tc.expected, ConditionalOperator: tc.op})
			switch {
			case tc.msg != "":
				requireValidation(t, err, expectMsg(t, tc.msg))
			case tc.ok:
				mustNoError(t, err)
			default:
				requireAPIError(t, err, "ConditionalCheckFailedException", "The conditional request failed")
			}
		})
	}
	t.Run("mixed with expression", func(t *testing.T) {
		_, err := c.PutItem(ctx(t), &dynamodb.PutItemInput{TableName: &table, Item: it, ConditionExpression: aws.String("attribute_exists(pk)"),
			Expected: map[string]types.ExpectedAttributeValue{"v": {Exists: aws.Bool(false)}}})
		requireValidation(t, err, "Can not use both expression and non-expression parameters in the same request: Non-expression parameters: {Expected} Expression parameters: {ConditionExpression}")
		_, err = c.PutItem(ctx(t), &dynamodb.PutItemInput{TableName: &table, Item: it, ConditionExpression: aws.String("attribute_exists(pk)"), ConditionalOperator: types.ConditionalOperatorOr})
		requireValidation(t, err, "Can not use both expression and non-expression parameters in the same request: Non-expression parameters: {ConditionalOperator} Expression parameters: {ConditionExpression}")
	})
}

func TestLegacyAttributeUpdates(t *testing.T) {
	t.Parallel()
	c := newClient(t)
	table := hashTable(t, c)
	key := item{"pk": s("u")}
	mustPut(t, c, table, item{"pk": s("u"), "a": s("gone"), "c": n("1"), "set": ss("x", "y")})
	out, err := c.UpdateItem(ctx(t), &dynamodb.UpdateItemInput{TableName: &table, Key: key, ReturnValues: types.ReturnValueAllNew,
		AttributeUpdates: map[string]types.AttributeValueUpdate{
			"b":   {Action: types.AttributeActionPut, Value: n("3")},
			"c":   {Action: types.AttributeActionAdd, Value: n("3")},
			"a":   {Action: types.AttributeActionDelete},
			"set": {Action: types.AttributeActionDelete, Value: ss("x")},
		}})
	mustNoError(t, err)
	requireItem(t, out.Attributes, item{"pk": s("u"), "b": n("3"), "c": n("4"), "set": ss("y")})

	_, err = c.UpdateItem(ctx(t), &dynamodb.UpdateItemInput{TableName: &table, Key: key, UpdateExpression: aws.String("SET a = :one"),
		ExpressionAttributeValues: item{":one": n("1")}, AttributeUpdates: map[string]types.AttributeValueUpdate{"b": {Action: types.AttributeActionDelete}}})
	requireValidation(t, err, "Can not use both expression and non-expression parameters in the same request: Non-expression parameters: {AttributeUpdates} Expression parameters: {UpdateExpression}")
}
