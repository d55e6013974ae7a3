package conformance

// TransactWriteItems and TransactGetItems: atomic commits across tables,
// TransactionCanceledException and its CancellationReasons, validation,
// ClientRequestToken idempotency and consumed capacity.

import (
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/stretchr/testify/require"
)

func txPut(table string, it item) types.TransactWriteItem {
	return types.TransactWriteItem{Put: &types.Put{TableName: &table, Item: it}}
}

func txCheck(table string, key item, cond string) types.TransactWriteItem {
	return types.TransactWriteItem{ConditionCheck: &types.ConditionCheck{TableName: &table, Key: key, ConditionExpression: &cond}}
}

func txDelete(table string, key item) types.TransactWriteItem {
	return types.TransactWriteItem{Delete: &types.Delete{TableName: &table, Key: key}}
}

// requireCanceled fails the test unless err is a TransactionCanceledException
// whose reasons have exactly these codes, and returns the reasons.
func requireCanceled(t testing.TB, err error, codes ...string) []types.CancellationReason {
	t.Helper()
	var tce *types.TransactionCanceledException
	if !errors.As(err, &tce) {
		t.Fatalf("got %v, want TransactionCanceledException", err)
	}
	want := "Transaction cancelled, please refer cancellation reasons for specific reasons [" + strings.Join(codes, ", ") + "]"
	if got := aws.ToString(tce.Message); got != want {
		t.Errorf("message:\n got %q\nwant %q", got, want)
	}
	var got []string
	for _, r := range tce.CancellationReasons {
		got = append(got, aws.ToString(r.Code))
	}
	if strings.Join(got, ",") != strings.Join(codes, ",") {
		t.Fatalf("reason codes %v, want %v", got, codes)
	}
	return tce.CancellationReasons
}

func TestTransactWriteCommitsAcrossTables(t *testing.T) {
	t.Parallel()
	c := newClient(t)
	h := hashTable(t, c)
	r := rangeTable(t, c)
	mustPut(t, c, h, item{"pk": s("keep"), "v": n("1")})
	mustPut(t, c, h, item{"pk": s("gone"), "v": n("2")})
	mustPut(t, c, r, item{"pk": s("a"), "sk": n("1"), "v": n("10")})
	out, err := c.TransactWriteItems(ctx(t), &dynamodb.TransactWriteItemsInput{
		TransactItems: []types.TransactWriteItem{
			txPut(h, item{"pk": s("new"), "v": n("3")}),
			txCheck(h, item{"pk": s("keep")}, "attribute_exists(pk)"),
			txDelete(h, item{"pk": s("gone")}),
			{Update: &types.Update{TableName: &r, Key: item{"pk": s("a"), "sk": n("1")},
				UpdateExpression:          aws.String("SET v = v + :d"),
				ConditionExpression:       aws.String("v = :old"),
				ExpressionAttributeValues: item{":d": n("5"), ":old": n("10")}}},
		},
	})
	mustNoError(t, err)
	if len(out.ConsumedCapacity) != 0 {
		t.Errorf("ConsumedCapacity %v without ReturnConsumedCapacity", out.ConsumedCapacity)
	}
	requireItem(t, mustGet(t, c, h, item{"pk": s("new")}), item{"pk": s("new"), "v": n("3")})
	requireItem(t, mustGet(t, c, h, item{"pk": s("keep")}), item{"pk": s("keep"), "v": n("1")})
	requireItem(t, mustGet(t, c, h, item{"pk": s("gone")}), nil)
	requireItem(t, mustGet(t, c, r, item{"pk": s("a"), "sk": n("1")}), item{"pk": s("a"), "sk": n("1"), "v": n("15")})
}

func TestTransactWriteCancelled(t *testing.T) {
	t.Parallel()
	c := newClient(t)
	h := hashTable(t, c)
	r := rangeTable(t, c)
	mustPut(t, c, h, item{"pk": s("x"), "v": n("1")})
	_, err := c.TransactWriteItems(ctx(t), &dynamodb.TransactWriteItemsInput{
		TransactItems: []types.TransactWriteItem{
			txPut(r, item{"pk": s("p"), "sk": n("1")}),
			{ConditionCheck: &types.ConditionCheck{TableName: &h, Key: item{"pk": s("x")},
				ConditionExpression:                 aws.String("attribute_not_exists(pk)"),
				ReturnValuesOnConditionCheckFailure: types.ReturnValuesOnConditionCheckFailureAllOld}},
			txDelete(h, item{"pk": s("y")}),
			{Put: &types.Put{TableName: &h, Item: item{"pk": s("z")}, ConditionExpression: aws.String("attribute_not_exists(pk)")}},
		},
	})
	reasons := requireCanceled(t, err, "None", "ConditionalCheckFailed", "None", "None")
	requireItem(t, reasons[1].Item, item{"pk": s("x"), "v": n("1")})
	if reasons[3].Item != nil {
		t.Errorf("reason 4 Item %s, want none", renderItem(reasons[3].Item))
	}
	if reasons[0].Message != nil {
		t.Errorf("reason None has message %q", *reasons[0].Message)
	}
	// Nothing was written.
	requireItem(t, mustGet(t, c, r, item{"pk": s("p"), "sk": n("1")}), nil)
	requireItem(t, mustGet(t, c, h, item{"pk": s("z")}), nil)

	t.Run("reason message", func(t *testing.T) {
		AWSDiffers(t, "DynamoDB Local ends the reason message with a period: \"The conditional request failed.\"")
		if got := aws.ToString(reasons[1].Message); got != "The conditional request failed" {
			t.Errorf("reason message %q, want %q", got, "The conditional request failed")
		}
	})
}

func TestTransactWriteValidation(t *testing.T) {
	t.Parallel()
	c := newClient(t)
	h := hashTable(t, c)
	missing := uniqueName(t)
	puts := func(k int) []types.TransactWriteItem {
		var out []types.TransactWriteItem
		for i := range k {
			out = append(out, txPut(h, item{"pk": s(fmt.Sprint(i))}))
		}
		return out
	}
	big := strings.Repeat("x", 390*1024)
	var large []types.TransactWriteItem
	for i := range 11 {
		large = append(large, txPut(h, item{"pk": s(fmt.Sprint("big", i)), "d": s(big)}))
	}
	tests := []struct {
		name   string
		items  []types.TransactWriteItem
		code   string
		msg    string
		differ string // non-empty: DynamoDB Local answers differently (why)
	}{
		{"same item twice", []types.TransactWriteItem{txPut(h, item{"pk": s("a")}), txDelete(h, item{"pk": s("a")})},
			"ValidationException", "Transaction request cannot include multiple operations on one item", ""},
		{"check and update same item", []types.TransactWriteItem{txCheck(h, item{"pk": s("a")}, "attribute_exists(pk)"),
			{Update: &types.Update{TableName: &h, Key: item{"pk": s("a")}, UpdateExpression: aws.String("SET v = :v"), ExpressionAttributeValues: item{":v": n("1")}}}},
			"ValidationException", "Transaction request cannot include multiple operations on one item",
			"DynamoDB Local runs both and cancels; AWS refuses a ConditionCheck and a write of one item (knowledge center: Why is my TransactWriteItems API call failing)"},
		{"100 actions fit", puts(100), "", "", ""},
		{"no action", []types.TransactWriteItem{{}}, "ValidationException",
			"Invalid Request: TransactWriteRequest should contain Delete or Put or Update request", ""},
		{"two actions in one", []types.TransactWriteItem{{Put: &types.Put{TableName: &h, Item: item{"pk": s("a")}}, Delete: &types.Delete{TableName: &h, Key: item{"pk": s("a")}}}},
			"ValidationException", "TransactItems can only contain one of Check, Put, Update or Delete", ""},
		{"undefined value", []types.TransactWriteItem{{Put: &types.Put{TableName: &h, Item: item{"pk": s("a")}, ConditionExpression: aws.String("a = :x")}}},
			"ValidationException", "Invalid ConditionExpression: An expression attribute value used in expression is not defined; attribute value: :x", ""},
		{"update operand type", []types.TransactWriteItem{{Update: &types.Update{TableName: &h, Key: item{"pk": s("a")}, UpdateExpression: aws.String("ADD v :s"), ExpressionAttributeValues: item{":s": s("q")}}}},
			"ValidationException", "Invalid UpdateExpression: Incorrect operand type for operator or function; operator: ADD, operand type: STRING, typeSet: ALLOWED_FOR_ADD_OPERAND", ""},
		{"update of a key attribute", []types.TransactWriteItem{{Update: &types.Update{TableName: &h, Key: item{"pk": s("a")}, UpdateExpression: aws.String("SET pk = :s"), ExpressionAttributeValues: item{":s": s("q")}}}},
			"ValidationException", "One or more parameter values were invalid: Cannot update attribute pk. This attribute is part of the key",
			"DynamoDB Local cancels with a ValidationError reason; input errors are top-level ValidationExceptions on AWS, as for UpdateItem"},
		{"aggregate size over 4 MB", large, "ValidationException", "Transaction payload size cannot exceed 4MB. Payload Size: 4393038", ""},
		{"missing table", []types.TransactWriteItem{txPut(missing, item{"pk": s("a")})},
			"ResourceNotFoundException", "Requested resource not found", "DynamoDB Local says \"Cannot do operations on a non-existent table\""},
		{"empty list", []types.TransactWriteItem{}, "ValidationException",
			"1 validation error detected: Value '[]' at 'transactItems' failed to satisfy constraint: Member must have length greater than or equal to 1",
			"DynamoDB Local writes \"Value [] at 'transactItems' ...\" without the count"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if tc.differ != "" {
				AWSDiffers(t, tc.differ)
			}
			_, err := c.TransactWriteItems(ctx(t), &dynamodb.TransactWriteItemsInput{TransactItems: tc.items})
			if tc.code == "" {
				mustNoError(t, err)
				return
			}
			requireAPIError(t, err, tc.code, tc.msg)
		})
	}
	t.Run("nothing written", func(t *testing.T) {
		requireItem(t, mustGet(t, c, h, item{"pk": s("big0")}), nil)
		requireItem(t, mustGet(t, c, h, item{"pk": s("a")}), nil)
	})
}

// TestTransactWriteEvaluationError: an error that depends on the current
// item (an operand of the wrong type) cancels the transaction.
func TestTransactWriteEvaluationError(t *testing.T) {
	t.Parallel()
	AWSDiffers(t, "DynamoDB Local answers a top-level ValidationException; AWS cancels with a ValidationError reason")
	c := newClient(t)
	h := hashTable(t, c)
	mustPut(t, c, h, item{"pk": s("s"), "v": s("text")})
	_, err := c.TransactWriteItems(ctx(t), &dynamodb.TransactWriteItemsInput{TransactItems: []types.TransactWriteItem{
		txPut(h, item{"pk": s("other")}),
		{Update: &types.Update{TableName: &h, Key: item{"pk": s("s")}, UpdateExpression: aws.String("ADD v :n"), ExpressionAttributeValues: item{":n": n("1")}}},
	}})
	reasons := requireCanceled(t, err, "None", "ValidationError")
	if got, want := aws.ToString(reasons[1].Message), "An operand in the update expression has an incorrect data type"; got != want {
		t.Errorf("reason message %q, want %q", got, want)
	}
	requireItem(t, mustGet(t, c, h, item{"pk": s("other")}), nil)
}

func TestTransactWriteIdempotency(t *testing.T) {
	t.Parallel()
	c := newClient(t)
	h := hashTable(t, c)
	// One attribute per map: the SDK writes map members in random order, and
	// DynamoDB Local compares request bodies (aws/aws-sdk-go-v2#1900).
	add := func(token, by string) error {
		_, err := c.TransactWriteItems(ctx(t), &dynamodb.TransactWriteItemsInput{
			ClientRequestToken: aws.String(token),
			TransactItems: []types.TransactWriteItem{{Update: &types.Update{TableName: &h, Key: item{"pk": s("n")},
				UpdateExpression: aws.String("ADD c :d"), ExpressionAttributeValues: item{":d": n(by)}}}},
		})
		return err
	}
	token := uniqueKey(t)
	mustNoError(t, add(token, "1"))
	mustNoError(t, add(token, "1")) // replayed, not applied again
	requireItem(t, mustGet(t, c, h, item{"pk": s("n")}), item{"pk": s("n"), "c": n("1")})
	err := add(token, "2")
	var ipm *types.IdempotentParameterMismatchException
	if !errors.As(err, &ipm) {
		t.Fatalf("same token, other request: got %v, want IdempotentParameterMismatchException", err)
	}
	mustNoError(t, add(uniqueKey(t), "1"))
	requireItem(t, mustGet(t, c, h, item{"pk": s("n")}), item{"pk": s("n"), "c": n("2")})

	t.Run("cancelled transaction leaves the token free", func(t *testing.T) {
		tok := uniqueKey(t)
		_, err := c.TransactWriteItems(ctx(t), &dynamodb.TransactWriteItemsInput{
			ClientRequestToken: aws.String(tok),
			TransactItems:      []types.TransactWriteItem{txCheck(h, item{"pk": s("absent")}, "attribute_exists(pk)")},
		})
		requireCanceled(t, err, "ConditionalCheckFailed")
		mustNoError(t, add(tok, "5"))
		requireItem(t, mustGet(t, c, h, item{"pk": s("n")}), item{"pk": s("n"), "c": n("7")})
	})
}

func TestTransactWriteCapacity(t *testing.T) {
	t.Parallel()
	c := newClient(t)
	h := hashTable(t, c)
	r := rangeTable(t, c)
	mustPut(t, c, h, item{"pk": s("x")})
	out, err := c.TransactWriteItems(ctx(t), &dynamodb.TransactWriteItemsInput{
		ReturnConsumedCapacity: types.ReturnConsumedCapacityTotal,
		TransactItems: []types.TransactWriteItem{
			txCheck(h, item{"pk": s("x")}, "attribute_exists(pk)"),
			txPut(r, item{"pk": s("p"), "sk": n("1"), "d": s(strings.Repeat("x", 1500))}),
		},
	})
	mustNoError(t, err)
	got := map[string]float64{}
	var order []string
	for _, cc := range out.ConsumedCapacity {
		got[aws.ToString(cc.TableName)] = aws.ToFloat64(cc.CapacityUnits)
		order = append(order, aws.ToString(cc.TableName))
	}
	// A check reads one item (2 x a strongly consistent read); a put of
	// 1.5 KB costs 2 x 2 write units. The order of the list is not
	// asserted: DynamoDB Local's follows the table names, AWS's is not
	// documented.
	if len(order) != 2 || got[h] != 2 || got[r] != 4 {
		t.Errorf("ConsumedCapacity %v (order %v), want %s: 2, %s: 4", got, order, h, r)
	}
	t.Run("write units", func(t *testing.T) {
		AWSDiffers(t, "DynamoDB Local reports CapacityUnits alone; AWS adds WriteCapacityUnits for transactions (paritysuite/dynamodb-conformance#69)")
		for _, cc := range out.ConsumedCapacity {
			if cc.WriteCapacityUnits == nil || *cc.WriteCapacityUnits != aws.ToFloat64(cc.CapacityUnits) {
				t.Errorf("%s: WriteCapacityUnits %v, want %v", aws.ToString(cc.TableName), cc.WriteCapacityUnits, aws.ToFloat64(cc.CapacityUnits))
			}
		}
	})
	t.Run("replay reports reads", func(t *testing.T) {
		AWSDiffers(t, "DynamoDB Local repeats the write capacity; AWS bills a replay as reads (paritysuite/dynamodb-conformance#74)")
		in := &dynamodb.TransactWriteItemsInput{
			ClientRequestToken:     aws.String(uniqueKey(t)),
			ReturnConsumedCapacity: types.ReturnConsumedCapacityTotal,
			TransactItems:          []types.TransactWriteItem{txPut(h, item{"pk": s("replayed")})},
		}
		for i, want := range []string{"write", "read"} {
			out, err := c.TransactWriteItems(ctx(t), in)
			mustNoError(t, err)
			if len(out.ConsumedCapacity) != 1 {
				t.Fatalf("call %d: ConsumedCapacity %v", i+1, out.ConsumedCapacity)
			}
			cc := out.ConsumedCapacity[0]
			if got := map[bool]string{true: "write", false: "read"}[cc.WriteCapacityUnits != nil]; got != want || aws.ToFloat64(cc.CapacityUnits) != 2 {
				t.Errorf("call %d: %s capacity %v, want %s capacity 2", i+1, got, aws.ToFloat64(cc.CapacityUnits), want)
			}
		}
	})
}

func TestTransactGetItems(t *testing.T) {
	t.Parallel()
	c := newClient(t)
	h := hashTable(t, c)
	r := rangeTable(t, c)
	mustPut(t, c, h, item{"pk": s("x"), "v": n("1"), "w": s("two")})
	mustPut(t, c, r, item{"pk": s("p"), "sk": n("1"), "v": n("3")})
	get := func(table string, key item, proj string) types.TransactGetItem {
		g := &types.Get{TableName: aws.String(table), Key: key}
		if proj != "" {
			g.ProjectionExpression = aws.String(proj)
		}
		return types.TransactGetItem{Get: g}
	}
	out, err := c.TransactGetItems(ctx(t), &dynamodb.TransactGetItemsInput{
		ReturnConsumedCapacity: types.ReturnConsumedCapacityTotal,
		TransactItems: []types.TransactGetItem{
			get(h, item{"pk": s("x")}, ""),
			get(h, item{"pk": s("missing")}, ""),
			get(r, item{"pk": s("p"), "sk": n("1")}, "v"),
		},
	})
	mustNoError(t, err)
	if len(out.Responses) != 3 {
		t.Fatalf("%d responses, want 3", len(out.Responses))
	}
	requireItem(t, out.Responses[0].Item, item{"pk": s("x"), "v": n("1"), "w": s("two")})
	requireItem(t, out.Responses[1].Item, nil)
	requireItem(t, out.Responses[2].Item, item{"v": n("3")})
	capacity := map[string]float64{}
	for _, cc := range out.ConsumedCapacity {
		capacity[aws.ToString(cc.TableName)] = aws.ToFloat64(cc.CapacityUnits)
	}
	if capacity[h] != 4 || capacity[r] != 2 {
		t.Errorf("ConsumedCapacity %v, want %s: 4, %s: 2", capacity, h, r)
	}

	tests := []struct {
		name  string
		items []types.TransactGetItem
		code  string
		msg   string
	}{
		{"same item twice", []types.TransactGetItem{get(h, item{"pk": s("x")}, ""), get(h, item{"pk": s("x")}, "v")},
			"ValidationException", "Transaction request cannot include multiple operations on one item"},
		{"unused name", []types.TransactGetItem{{Get: &types.Get{TableName: &h, Key: item{"pk": s("x")}, ProjectionExpression: aws.String("#a"),
			ExpressionAttributeNames: map[string]string{"#a": "v", "#b": "w"}}}},
			"ValidationException", "Value provided in ExpressionAttributeNames unused in expressions: keys: {#b}"},
		{"names without expression", []types.TransactGetItem{{Get: &types.Get{TableName: &h, Key: item{"pk": s("x")},
			ExpressionAttributeNames: map[string]string{"#a": "v"}}}},
			"ValidationException", "ExpressionAttributeNames can only be specified when using expressions"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := c.TransactGetItems(ctx(t), &dynamodb.TransactGetItemsInput{TransactItems: tc.items})
			requireAPIError(t, err, tc.code, tc.msg)
		})
	}
	// A key of the wrong type: TestTransactGetItemFaults.
}

// TestTransactWriteRequiredMembers sends requests the SDK refuses to build.
func TestTransactWriteRequiredMembers(t *testing.T) {
	t.Parallel()
	AWSDiffers(t, "DynamoDB Local leaves out \"1 validation error detected: \"")
	c := newClient(t)
	h := hashTable(t, c)
	tests := []struct{ name, body, msg string }{
		{"condition check without condition", `{"TransactItems":[{"ConditionCheck":{"TableName":"` + h + `","Key":{"pk":{"S":"a"}}}}]}`,
			"1 validation error detected: Value null at 'transactItems.1.member.conditionCheck.conditionExpression' failed to satisfy constraint: Member must not be null"},
		{"put without item", `{"TransactItems":[{"Put":{"TableName":"` + h + `"}}]}`,
			"1 validation error detected: Value null at 'transactItems.1.member.put.item' failed to satisfy constraint: Member must not be null"},
		{"delete without table", `{"TransactItems":[{"Delete":{"Key":{"pk":{"S":"a"}}}}]}`,
			"1 validation error detected: Value null at 'transactItems.1.member.delete.tableName' failed to satisfy constraint: Member must not be null"},
		{"no list", `{}`,
			"1 validation error detected: Value null at 'transactItems' failed to satisfy constraint: Member must not be null"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := rawCall(t, "TransactWriteItems", tc.body)
			if got.Type != "ValidationException" || got.Message != tc.msg {
				t.Errorf("got %s: %q\nwant ValidationException: %q", got.Type, got.Message, tc.msg)
			}
		})
	}
}

// TestTransactLatestVersion is the versioned-document pattern: every new document
// version is written together with a "latest" item that points at it, in
// one TransactWriteItems, the latest item guarded by a condition so an
// older version never replaces a newer one (optimistic locking). Writers
// run concurrently; afterwards "latest" points at the newest version
// written, and a version exists exactly when its transaction committed.
func TestTransactLatestVersion(t *testing.T) {
	t.Parallel()
	c := newClient(t)
	table := createTable(t, c, tableDef(keyDef{"documentVersion", "S"}, keyDef{}))
	const writers, each = 4, 5
	type result struct {
		version   string
		committed bool
	}
	results := make(chan result, writers*each)
	errs := make(chan error, writers)
	var wg sync.WaitGroup
	for w := range writers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range each {
				v := fmt.Sprintf("v%04d", i*writers+w)
				content := "content of " + v
				for {
					_, err := c.TransactWriteItems(ctx(t), &dynamodb.TransactWriteItemsInput{TransactItems: []types.TransactWriteItem{
						txPut(table, item{"documentVersion": s(v), "content": s(content)}),
						{Put: &types.Put{TableName: &table,
							Item:                      item{"documentVersion": s("latest"), "content": s(content), "actualVersion": s(v)},
							ConditionExpression:       aws.String("attribute_not_exists(documentVersion) OR actualVersion < :v"),
							ExpressionAttributeValues: item{":v": s(v)}}},
					}})
					var tce *types.TransactionCanceledException
					switch {
					case err == nil:
						results <- result{v, true}
					case errors.As(err, &tce) && aws.ToString(tce.CancellationReasons[1].Code) == "ConditionalCheckFailed":
						results <- result{v, false} // a newer version is latest already
					case errors.As(err, &tce) && aws.ToString(tce.CancellationReasons[1].Code) == "TransactionConflict":
						continue // DynamoDB cancels concurrent transactions on one item; retry
					default:
						errs <- err
						return
					}
					break
				}
			}
		}()
	}
	wg.Wait()
	close(results)
	close(errs)
	for err := range errs {
		t.Fatal(err)
	}
	newest := ""
	for r := range results {
		got := mustGet(t, c, table, item{"documentVersion": s(r.version)})
		if r.committed {
			requireItem(t, got, item{"documentVersion": s(r.version), "content": s("content of " + r.version)})
			newest = max(newest, r.version)
		} else {
			requireItem(t, got, nil)
		}
	}
	requireItem(t, mustGet(t, c, table, item{"documentVersion": s("latest")}),
		item{"documentVersion": s("latest"), "content": s("content of " + newest), "actualVersion": s(newest)})
}

// TestTransactReturnValuesOnConditionCheckFailure: ALL_OLD returns the
// current item in the failed action's reason, for each action kind; an
// absent item returns none.
func TestTransactReturnValuesOnConditionCheckFailure(t *testing.T) {
	t.Parallel()
	c := newClient(t)
	h := hashTable(t, c)
	mustPut(t, c, h, item{"pk": s("d"), "v": n("1")})
	mustPut(t, c, h, item{"pk": s("u"), "v": n("2")})
	allOld := types.ReturnValuesOnConditionCheckFailureAllOld
	// One failing action per transaction, then one that succeeds (None).
	failing := []struct {
		act  types.TransactWriteItem
		want item
	}{
		{types.TransactWriteItem{Delete: &types.Delete{TableName: &h, Key: item{"pk": s("d")}, ConditionExpression: aws.String("v = :z"),
			ExpressionAttributeValues: item{":z": n("0")}, ReturnValuesOnConditionCheckFailure: allOld}}, item{"pk": s("d"), "v": n("1")}},
		{types.TransactWriteItem{Update: &types.Update{TableName: &h, Key: item{"pk": s("u")}, UpdateExpression: aws.String("SET w = :z"), ConditionExpression: aws.String("v = :z"),
			ExpressionAttributeValues: item{":z": n("0")}, ReturnValuesOnConditionCheckFailure: allOld}}, item{"pk": s("u"), "v": n("2")}},
		{types.TransactWriteItem{Put: &types.Put{TableName: &h, Item: item{"pk": s("absent")}, ConditionExpression: aws.String("attribute_exists(pk)"),
			ReturnValuesOnConditionCheckFailure: allOld}}, nil},
	}
	for _, f := range failing {
		_, err := c.TransactWriteItems(ctx(t), &dynamodb.TransactWriteItemsInput{TransactItems: []types.TransactWriteItem{
			f.act,
			{Update: &types.Update{TableName: &h, Key: item{"pk": s("x")}, UpdateExpression: aws.String("SET w = :z"),
				ExpressionAttributeValues: item{":z": n("0")}, ReturnValuesOnConditionCheckFailure: allOld}},
		}})
		reasons := requireCanceled(t, err, "ConditionalCheckFailed", "None")
		requireItem(t, reasons[0].Item, f.want)
	}
	requireItem(t, mustGet(t, c, h, item{"pk": s("x")}), nil)
	requireItem(t, mustGet(t, c, h, item{"pk": s("d")}), item{"pk": s("d"), "v": n("1")})
}

// TestTransactReasonsEveryFailure: every action of a cancelled
// transaction is evaluated and each failed condition is reported; AWS
// does not stop at the first (scylladb test/alternator/test_transact.py,
// test_transact_write_cancellation_reasons_conditionalcheckfailed, run
// against AWS: "[None, None, ConditionalCheckFailed,
// ConditionalCheckFailed]").
func TestTransactReasonsEveryFailure(t *testing.T) {
	t.Parallel()
	c := newClient(t)
	h := hashTable(t, c)
	mustPut(t, c, h, item{"pk": s("a")})
	mustPut(t, c, h, item{"pk": s("b")})
	notExists := aws.String("attribute_not_exists(pk)")
	_, err := c.TransactWriteItems(ctx(t), &dynamodb.TransactWriteItemsInput{TransactItems: []types.TransactWriteItem{
		txPut(h, item{"pk": s("new")}),
		{ConditionCheck: &types.ConditionCheck{TableName: &h, Key: item{"pk": s("a")}, ConditionExpression: notExists}},
		{ConditionCheck: &types.ConditionCheck{TableName: &h, Key: item{"pk": s("b")}, ConditionExpression: notExists}},
		{Put: &types.Put{TableName: &h, Item: item{"pk": s("absent")}, ConditionExpression: aws.String("attribute_exists(pk)")}},
	}})
	reasons := requireCanceled(t, err, "None", "ConditionalCheckFailed", "ConditionalCheckFailed", "ConditionalCheckFailed")
	for i, r := range reasons {
		require.Equal(t, i > 0, r.Message != nil, "reason %d: a message only on a failure", i)
	}
	requireItem(t, mustGet(t, c, h, item{"pk": s("new")}), nil)
	requireItem(t, mustGet(t, c, h, item{"pk": s("absent")}), nil)
}

// TestTransactReasonsValidationStops: validation stops at the first
// action it refuses; the others get None, a second wrong key and a false
// condition alike (scylladb test/alternator/test_transact.py,
// test_transact_write_cancellation_reasons_validationerror, run against
// AWS: "[ValidationError, None, None]").
func TestTransactReasonsValidationStops(t *testing.T) {
	t.Parallel()
	AWSDiffers(t, "DynamoDB Local reports every action: [ValidationError, ValidationError, ConditionalCheckFailed]")
	c := newClient(t)
	h := hashTable(t, c)
	_, err := c.TransactWriteItems(ctx(t), &dynamodb.TransactWriteItemsInput{TransactItems: []types.TransactWriteItem{
		txPut(h, item{"pk": n("7")}),
		txPut(h, item{"pk": n("8")}),
		{Put: &types.Put{TableName: &h, Item: item{"pk": s("tx-stops")}, ConditionExpression: aws.String("attribute_exists(pk)")}},
	}})
	reasons := requireCanceled(t, err, "ValidationError", "None", "None")
	require.NotNil(t, reasons[0].Message)
	require.Nil(t, reasons[1].Message)
	require.Nil(t, reasons[2].Message)
	requireItem(t, mustGet(t, c, h, item{"pk": s("tx-stops")}), nil)
}

func TestTransactMissingTable(t *testing.T) {
	t.Parallel()
	AWSDiffers(t, "DynamoDB Local says \"Cannot do operations on a non-existent table\"")
	c := newClient(t)
	missing := uniqueName(t)
	_, err := c.TransactGetItems(ctx(t), &dynamodb.TransactGetItemsInput{TransactItems: []types.TransactGetItem{
		{Get: &types.Get{TableName: &missing, Key: item{"pk": s("a")}}}}})
	requireAPIError(t, err, "ResourceNotFoundException", "Requested resource not found")
}
