package conformance

// PutItem, GetItem, DeleteItem: attribute types, numbers, keys, sizes, ReturnValues,
// conditions.

import (
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

func TestPutGetAllTypes(t *testing.T) {
	t.Parallel()
	c := newClient(t)
	table := hashTable(t, c)
	it := item{
		"pk":    s("all"),
		"s":     s("hello ✓"),
		"empty": s(""),
		"n":     n("-12.5"),
		"b":     b([]byte{0, 1, 2, 255}),
		"eb":    b([]byte{}),
		"t":     bl(true),
		"f":     bl(false),
		"null":  null(),
		"ss":    ss("b", "a", ""),
		"ns":    ns("3", "-1", "2.5"),
		"bs":    bs([]byte{1}, []byte{2, 3}),
		"l":     l(s("x"), n("1"), l(), m(nil), null(), l(bl(true))),
		"el":    l(),
		"em":    m(nil),
		"m":     m(item{"a": s("x"), "deep": m(item{"l": l(m(item{"k": ns("1")}))})}),
	}
	mustPut(t, c, table, it)
	requireItem(t, mustGet(t, c, table, item{"pk": s("all")}), it)
	requireItem(t, mustGet(t, c, table, item{"pk": s("missing")}), nil)
}

func TestKeyTypes(t *testing.T) {
	t.Parallel()
	c := newClient(t)
	for _, tc := range []struct {
		name   string
		pk, sk keyDef
		key    item
	}{
		{"S", keyDef{"p", "S"}, keyDef{}, item{"p": s("x")}},
		{"N", keyDef{"p", "N"}, keyDef{}, item{"p": n("12.5")}},
		{"B", keyDef{"p", "B"}, keyDef{}, item{"p": b([]byte{0, 9})}},
		{"S-N", keyDef{"p", "S"}, keyDef{"r", "N"}, item{"p": s("x"), "r": n("-1")}},
		{"N-B", keyDef{"p", "N"}, keyDef{"r", "B"}, item{"p": n("1"), "r": b([]byte{1})}},
		{"B-S", keyDef{"p", "B"}, keyDef{"r", "S"}, item{"p": b([]byte{1}), "r": s("z")}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			table := createTable(t, c, tableDef(tc.pk, tc.sk))
			it := item{"v": s("value")}
			for k, v := range tc.key {
				it[k] = v
			}
			mustPut(t, c, table, it)
			requireItem(t, mustGet(t, c, table, tc.key), it)
			_, err := c.DeleteItem(ctx(t), &dynamodb.DeleteItemInput{TableName: &table, Key: tc.key})
			mustNoError(t, err)
			requireItem(t, mustGet(t, c, table, tc.key), nil)
		})
	}
}

func TestNumbersCanonical(t *testing.T) {
	t.Parallel()
	c := newClient(t)
	table := hashTable(t, c)
	tests := []struct{ in, want string }{
		{"-0.000", "0"},
		{"0012.3400", "12.34"},
		{"1E+2", "100"},
		{"-1.5e-3", "-0.0015"},
		{"1e125", "1" + strings.Repeat("0", 125)},
		{"9.9999999999999999999999999999999999999E+125", "99999999999999999999999999999999999999" + strings.Repeat("0", 88)},
		{"1e-130", "0." + strings.Repeat("0", 129) + "1"},
		{"12345678901234567890123456789012345678", "12345678901234567890123456789012345678"},
		{"0.1000000000000000000000000000000000000000", "0.1"},
		{"+5", "5"},
	}
	for _, tc := range tests {
		mustPut(t, c, table, item{"pk": s(tc.in), "n": n(tc.in)})
	}
	for _, tc := range tests {
		got := mustGet(t, c, table, item{"pk": s(tc.in)})
		if g, ok := got["n"].(*types.AttributeValueMemberN); !ok || g.Value != tc.want {
			t.Errorf("N %q stored as %s, want %s", tc.in, render(got["n"]), tc.want)
		}
	}
	// Sets are canonical too: 1 and 01 are the same number.
	mustPut(t, c, table, item{"pk": s("set"), "ns": ns("01", "2.50")})
	requireItem(t, mustGet(t, c, table, item{"pk": s("set")}), item{"pk": s("set"), "ns": ns("1", "2.5")})
	// A number key is found by any spelling of the same number.
	nt := createTable(t, c, tableDef(keyDef{"pk", "N"}, keyDef{}))
	mustPut(t, c, nt, item{"pk": n("1.50")})
	requireItem(t, mustGet(t, c, nt, item{"pk": n("001.5")}), item{"pk": n("1.5")})
}

func TestPutItemValidation(t *testing.T) {
	t.Parallel()
	c := newClient(t)
	hash := hashTable(t, c)
	rng := rangeTable(t, c)
	tests := []struct {
		name   string
		table  string
		it     item
		msg    string // "" checks the code only
		differ string
	}{
		{name: "missing hash key", table: hash, it: item{"x": s("a")},
			msg: "One or more parameter values were invalid: Missing the key pk in the item", differ: "DynamoDB Local says \"One of the required keys was not given a value\""},
		{name: "missing range key", table: rng, it: item{"pk": s("a")},
			msg: "One or more parameter values were invalid: Missing the key sk in the item", differ: "DynamoDB Local says \"One of the required keys was not given a value\""},
		{name: "missing key code", table: rng, it: item{"pk": s("a")}},
		{name: "hash key wrong type", table: hash, it: item{"pk": n("1")}},
		{name: "hash key wrong type message", table: hash, it: item{"pk": n("1")},
			msg: "One or more parameter values were invalid: Type mismatch for key pk expected: S actual: N", differ: "DynamoDB Local says \"One or more parameter values were invalid: Type mismatch for key\""},
		{name: "range key wrong type", table: rng, it: item{"pk": s("a"), "sk": s("x")}},
		{name: "empty string hash key", table: hash, it: item{"pk": s("")},
			msg: "One or more parameter values are not valid. The AttributeValue for a key attribute cannot contain an empty string value. Key: pk"},
		{name: "empty set", table: hash, it: item{"pk": s("a"), "s": ss()},
			msg: "One or more parameter values were invalid: An string set  may not be empty"},
		{name: "empty number set", table: hash, it: item{"pk": s("a"), "s": ns()},
			msg: "One or more parameter values were invalid: An number set  may not be empty"},
		{name: "empty binary set", table: hash, it: item{"pk": s("a"), "s": bs()},
			msg: "One or more parameter values were invalid: Binary sets should not be empty"},
		{name: "duplicate in string set", table: hash, it: item{"pk": s("a"), "s": ss("a", "a")},
			msg: "1 validation error detected: One or more parameter values were invalid: Input collection [\"a\", \"a\"] contains duplicates.", differ: "DynamoDB Local omits the envelope and the final period and quotes no members (AWS: paritysuite/dynamodb-conformance valueLayers.test.ts)"},
		{name: "duplicate in string set code", table: hash, it: item{"pk": s("a"), "s": ss("a", "a")}},
		{name: "duplicate in number set", table: hash, it: item{"pk": s("a"), "s": ns("1", "1.0")}},
		{name: "not a number", table: hash, it: item{"pk": s("a"), "n": n("abc")},
			msg: "1 validation error detected: The parameter cannot be converted to a numeric value: abc", differ: "DynamoDB Local says \"A value provided cannot be converted into a number\""},
		{name: "not a number code", table: hash, it: item{"pk": s("a"), "n": n("abc")}},
		{name: "number overflow", table: hash, it: item{"pk": s("a"), "n": n("1e126")},
			msg: "1 validation error detected: Number overflow. Attempting to store a number with magnitude larger than supported range", differ: "DynamoDB Local leaves out \"1 validation error detected: \" (AWS: the envelope on PutItem, valueLayers.test.ts)"},
		{name: "number underflow", table: hash, it: item{"pk": s("a"), "n": n("1e-131")},
			msg: "1 validation error detected: Number underflow. Attempting to store a number with magnitude smaller than supported range", differ: "DynamoDB Local leaves out \"1 validation error detected: \" (AWS: the envelope on PutItem, valueLayers.test.ts)"},
		{name: "number precision", table: hash, it: item{"pk": s("a"), "n": n("12345678901234567890123456789012345678901")},
			msg: "1 validation error detected: Attempting to store more than 38 significant digits in a Number", differ: "DynamoDB Local says \"DynamoDB only supports precision up to 38 digits\""},
		{name: "number precision code", table: hash, it: item{"pk": s("a"), "n": n("12345678901234567890123456789012345678901")}},
		{name: "null false", table: hash, it: item{"pk": s("a"), "x": &types.AttributeValueMemberNULL{Value: false}},
			msg: "One or more parameter values were invalid: Null attribute value types must have the value of true"},
		{name: "nested empty set", table: hash, it: item{"pk": s("a"), "m": m(item{"s": ss()})}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			if tc.differ != "" {
				AWSDiffers(t, tc.differ)
			}
			_, err := c.PutItem(ctx(t), &dynamodb.PutItemInput{TableName: aws.String(tc.table), Item: tc.it})
			requireValidation(t, err, tc.msg)
		})
	}
}

func TestKeyValidation(t *testing.T) {
	t.Parallel()
	c := newClient(t)
	hash := hashTable(t, c)
	rng := rangeTable(t, c)
	tests := []struct {
		name  string
		table string
		key   item
		msg   string
	}{
		{"extra attribute", hash, item{"pk": s("a"), "x": s("b")}, ""},
		{"missing hash", hash, item{"x": s("b")}, ""},
		{"missing range", rng, item{"pk": s("a")}, ""},
		{"wrong type", hash, item{"pk": n("1")}, ""},
		{"empty key", hash, item{}, ""},
		{"empty string", hash, item{"pk": s("")}, "One or more parameter values are not valid. The AttributeValue for a key attribute cannot contain an empty string value. Key: pk"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			_, err := c.GetItem(ctx(t), &dynamodb.GetItemInput{TableName: aws.String(tc.table), Key: tc.key})
			requireValidation(t, err, tc.msg)
			_, err = c.DeleteItem(ctx(t), &dynamodb.DeleteItemInput{TableName: aws.String(tc.table), Key: tc.key})
			requireValidation(t, err, tc.msg)
			_, err = c.UpdateItem(ctx(t), &dynamodb.UpdateItemInput{TableName: aws.String(tc.table), Key: tc.key})
			requireValidation(t, err, tc.msg)
		})
	}
	t.Run("schema message", func(t *testing.T) {
		AWSDiffers(t, "DynamoDB Local says \"The number of conditions on the keys is invalid\"")
		_, err := c.GetItem(ctx(t), &dynamodb.GetItemInput{TableName: aws.String(rng), Key: item{"pk": s("a")}})
		requireValidation(t, err, "The provided key element does not match the schema")
	})
}

func TestMissingTable(t *testing.T) {
	t.Parallel()
	c := newClient(t)
	name := aws.String(uniqueName(t))
	key := item{"pk": s("a")}
	calls := map[string]func() error{
		"PutItem": func() error {
			_, err := c.PutItem(ctx(t), &dynamodb.PutItemInput{TableName: name, Item: key})
			return err
		},
		"GetItem": func() error {
			_, err := c.GetItem(ctx(t), &dynamodb.GetItemInput{TableName: name, Key: key})
			return err
		},
		"DeleteItem": func() error {
			_, err := c.DeleteItem(ctx(t), &dynamodb.DeleteItemInput{TableName: name, Key: key})
			return err
		},
		"UpdateItem": func() error {
			_, err := c.UpdateItem(ctx(t), &dynamodb.UpdateItemInput{TableName: name, Key: key})
			return err
		},
		"Query": func() error {
			_, err := c.Query(ctx(t), &dynamodb.QueryInput{TableName: name, KeyConditionExpression: aws.String("pk = :v"), ExpressionAttributeValues: item{":v": s("a")}})
			return err
		},
		"Scan": func() error {
			_, err := c.Scan(ctx(t), &dynamodb.ScanInput{TableName: name})
			return err
		},
		"BatchGetItem": func() error {
			_, err := c.BatchGetItem(ctx(t), &dynamodb.BatchGetItemInput{RequestItems: map[string]types.KeysAndAttributes{*name: {Keys: []item{key}}}})
			return err
		},
		"BatchWriteItem": func() error {
			_, err := c.BatchWriteItem(ctx(t), &dynamodb.BatchWriteItemInput{RequestItems: map[string][]types.WriteRequest{*name: {{PutRequest: &types.PutRequest{Item: key}}}}})
			return err
		},
	}
	for op, call := range calls {
		t.Run(op, func(t *testing.T) {
			t.Parallel()
			err := call()
			requireAPIError(t, err, "ResourceNotFoundException", "")
			t.Run("message", func(t *testing.T) {
				AWSDiffers(t, "DynamoDB Local says \"Cannot do operations on a non-existent table\"")
				requireAPIError(t, err, "ResourceNotFoundException", "Requested resource not found")
			})
		})
	}
}

func TestItemSizeLimit(t *testing.T) {
	t.Parallel()
	c := newClient(t)
	table := hashTable(t, c)
	// Item size = names + values: "pk"(2) + "k"(1) + "v"(1) + len(data).
	const limit = 400 * 1024
	mustPut(t, c, table, item{"pk": s("k"), "v": s(strings.Repeat("x", limit-4))})
	if got := mustGet(t, c, table, item{"pk": s("k")}); len(got["v"].(*types.AttributeValueMemberS).Value) != limit-4 {
		t.Fatalf("400 KB item not stored whole")
	}
	_, err := c.PutItem(ctx(t), &dynamodb.PutItemInput{TableName: &table, Item: item{"pk": s("k"), "v": s(strings.Repeat("x", limit-3))}})
	requireValidation(t, err, "Item size has exceeded the maximum allowed size")
	// An update that would grow the item past the limit fails too, and changes nothing.
	_, err = c.UpdateItem(ctx(t), &dynamodb.UpdateItemInput{TableName: &table, Key: item{"pk": s("k")},
		UpdateExpression: aws.String("SET w = :w"), ExpressionAttributeValues: item{":w": s("y")}})
	requireValidation(t, err, "Item size to update has exceeded the maximum allowed size")
	if got := mustGet(t, c, table, item{"pk": s("k")}); got["w"] != nil {
		t.Fatalf("failed update wrote w")
	}
}

func TestKeySizeLimits(t *testing.T) {
	t.Parallel()
	c := newClient(t)
	table := rangeTableS(t, c)
	mustPut(t, c, table, item{"pk": s(strings.Repeat("p", 2048)), "sk": s(strings.Repeat("s", 1024))})
	_, errHash := c.PutItem(ctx(t), &dynamodb.PutItemInput{TableName: &table, Item: item{"pk": s(strings.Repeat("p", 2049)), "sk": s("s")}})
	requireValidation(t, errHash, "")
	_, errRange := c.PutItem(ctx(t), &dynamodb.PutItemInput{TableName: &table, Item: item{"pk": s("p"), "sk": s(strings.Repeat("s", 1025))}})
	requireValidation(t, errRange, "")
	t.Run("messages", func(t *testing.T) {
		AWSDiffers(t, "DynamoDB Local says \"Hash primary key values must be under 2048 bytes, and range primary key values must be under 1024 bytes\"")
		requireValidation(t, errHash, "One or more parameter values were invalid: Size of hashkey has exceeded the maximum size limit of2048 bytes")
		requireValidation(t, errRange, "One or more parameter values were invalid: Aggregated size of all range keys has exceeded the size limit of 1024 bytes")
	})
}

// rangeTableS creates a table keyed by pk (S) and sk (S).
func rangeTableS(t testing.TB, c *dynamodb.Client) string {
	t.Helper()
	return createTable(t, c, tableDef(keyDef{"pk", "S"}, keyDef{"sk", "S"}))
}

func TestPutItemReturnValues(t *testing.T) {
	t.Parallel()
	c := newClient(t)
	table := hashTable(t, c)
	old := item{"pk": s("a"), "v": n("1")}
	newer := item{"pk": s("a"), "w": n("2")}

	out, err := c.PutItem(ctx(t), &dynamodb.PutItemInput{TableName: &table, Item: old, ReturnValues: types.ReturnValueAllOld})
	mustNoError(t, err)
	requireItem(t, out.Attributes, nil)
	out, err = c.PutItem(ctx(t), &dynamodb.PutItemInput{TableName: &table, Item: newer, ReturnValues: types.ReturnValueAllOld})
	mustNoError(t, err)
	requireItem(t, out.Attributes, old)
	out, err = c.PutItem(ctx(t), &dynamodb.PutItemInput{TableName: &table, Item: newer, ReturnValues: types.ReturnValueNone})
	mustNoError(t, err)
	requireItem(t, out.Attributes, nil)
	for _, rv := range []types.ReturnValue{types.ReturnValueAllNew, types.ReturnValueUpdatedOld, types.ReturnValueUpdatedNew, "FOO"} {
		_, err := c.PutItem(ctx(t), &dynamodb.PutItemInput{TableName: &table, Item: newer, ReturnValues: rv})
		requireValidation(t, err, "")
	}
	t.Run("aws message", func(t *testing.T) {
		AWSDiffers(t, returnValuesDiffer)
		for _, rv := range []types.ReturnValue{types.ReturnValueAllNew, types.ReturnValueUpdatedOld, types.ReturnValueUpdatedNew} {
			_, err := c.PutItem(ctx(t), &dynamodb.PutItemInput{TableName: &table, Item: newer, ReturnValues: rv})
			requireValidation(t, err, "1 validation error detected: ReturnValues can only be ALL_OLD or NONE")
		}
	})
}

// returnValuesDiffer: PutItem and DeleteItem with a ReturnValues that only
// UpdateItem takes. Real AWS (reported as verified in us-east-1 by other
// emulators' conformance runs, and in dynalite's AWS-derived suite) answers
// "ReturnValues can only be ALL_OLD or NONE".
const returnValuesDiffer = `DynamoDB Local says "Return values set to invalid value"`

func TestDeleteItemReturnValues(t *testing.T) {
	t.Parallel()
	c := newClient(t)
	table := hashTable(t, c)
	it := item{"pk": s("a"), "v": ss("x")}
	mustPut(t, c, table, it)
	for _, rv := range []types.ReturnValue{types.ReturnValueAllNew, types.ReturnValueUpdatedOld, types.ReturnValueUpdatedNew} {
		_, err := c.DeleteItem(ctx(t), &dynamodb.DeleteItemInput{TableName: &table, Key: item{"pk": s("a")}, ReturnValues: rv})
		requireValidation(t, err, "")
	}
	t.Run("aws message", func(t *testing.T) {
		AWSDiffers(t, returnValuesDiffer)
		_, err := c.DeleteItem(ctx(t), &dynamodb.DeleteItemInput{TableName: &table, Key: item{"pk": s("a")}, ReturnValues: types.ReturnValueAllNew})
		requireValidation(t, err, "1 validation error detected: ReturnValues can only be ALL_OLD or NONE")
	})
	out, err := c.DeleteItem(ctx(t), &dynamodb.DeleteItemInput{TableName: &table, Key: item{"pk": s("a")}, ReturnValues: types.ReturnValueAllOld})
	mustNoError(t, err)
	requireItem(t, out.Attributes, it)
	out, err = c.DeleteItem(ctx(t), &dynamodb.DeleteItemInput{TableName: &table, Key: item{"pk": s("a")}, ReturnValues: types.ReturnValueAllOld})
	mustNoError(t, err)
	requireItem(t, out.Attributes, nil)
}

func TestGetItemProjection(t *testing.T) {
	t.Parallel()
	c := newClient(t)
	table := hashTable(t, c)
	mustPut(t, c, table, item{"pk": s("a"), "x": n("1"), "y": n("2"), "m": m(item{"a": s("A"), "b": s("B")}), "l": l(n("0"), n("1"), n("2")), "name": s("N")})
	tests := []struct {
		name  string
		in    dynamodb.GetItemInput
		want  item
		error string
	}{
		{name: "top level", in: dynamodb.GetItemInput{ProjectionExpression: aws.String("x, pk")}, want: item{"x": n("1"), "pk": s("a")}},
		{name: "nested", in: dynamodb.GetItemInput{ProjectionExpression: aws.String("m.b, l[1], l[2]")}, want: item{"m": m(item{"b": s("B")}), "l": l(n("1"), n("2"))}},
		{name: "missing path", in: dynamodb.GetItemInput{ProjectionExpression: aws.String("zz, m.zz")}, want: item{}},
		{name: "names", in: dynamodb.GetItemInput{ProjectionExpression: aws.String("#n"), ExpressionAttributeNames: map[string]string{"#n": "name"}}, want: item{"name": s("N")}},
		{name: "reserved word", in: dynamodb.GetItemInput{ProjectionExpression: aws.String("name")},
			error: "Invalid ProjectionExpression: Attribute name is a reserved keyword; reserved keyword: name"},
		{name: "legacy AttributesToGet", in: dynamodb.GetItemInput{AttributesToGet: []string{"y", "name"}}, want: item{"y": n("2"), "name": s("N")}},
		{name: "both", in: dynamodb.GetItemInput{AttributesToGet: []string{"y"}, ProjectionExpression: aws.String("x")},
			error: "Can not use both expression and non-expression parameters in the same request: Non-expression parameters: {AttributesToGet} Expression parameters: {ProjectionExpression}"},
		{name: "unused name", in: dynamodb.GetItemInput{ProjectionExpression: aws.String("x"), ExpressionAttributeNames: map[string]string{"#n": "name"}},
			error: "Value provided in ExpressionAttributeNames unused in expressions: keys: {#n}"},
		{name: "undefined name", in: dynamodb.GetItemInput{ProjectionExpression: aws.String("#zz")},
			error: "Invalid ProjectionExpression: An expression attribute name used in the document path is not defined; attribute name: #zz"},
		{name: "overlapping paths", in: dynamodb.GetItemInput{ProjectionExpression: aws.String("m, m.a")},
			error: "Invalid ProjectionExpression: Two document paths overlap with each other; must remove or rewrite one of these paths; path one: [m], path two: [m, a]"},
		{name: "names without expression", in: dynamodb.GetItemInput{ExpressionAttributeNames: map[string]string{"#n": "name"}},
			error: "ExpressionAttributeNames can only be specified when using expressions"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			in := tc.in
			in.TableName = &table
			in.Key = item{"pk": s("a")}
			out, err := c.GetItem(ctx(t), &in)
			if tc.error != "" {
				requireValidation(t, err, tc.error)
				return
			}
			mustNoError(t, err)
			requireItem(t, out.Item, tc.want)
		})
	}
}
