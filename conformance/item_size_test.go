package conformance

// Item size: the 400 KB limit on every write surface, and
// UpdateItem's own accounting of an update.

import (
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

const (
	maxItemBytes     = 400 * 1024
	msgItemTooLarge  = "Item size has exceeded the maximum allowed size"
	msgUpdateTooBig  = "Item size to update has exceeded the maximum allowed size"
	sizeTestPKLength = 2 // "pk"
)

func padding(n int) types.AttributeValue { return s(strings.Repeat("x", n)) }

// TestItemSizeWrites: an item of exactly 400 KB (409,600 bytes by
// DynamoDB's sizing: names plus values) is written and one byte more is
// refused with ValidationException "Item size has exceeded the maximum
// allowed size", nothing written, on PutItem, BatchWriteItem, a
// transaction's Put (a ValidationException for the request, not a
// cancellation: dynoxide's capture against AWS) and PartiQL's INSERT;
// the same with the size in one list of 409,594 or more empty strings.
func TestItemSizeWrites(t *testing.T) {
	t.Parallel()
	c := newClient(t)
	table := hashTable(t, c)
	itemOf := func(key string, size int) item {
		return item{"pk": s(key), "b": padding(size - sizeTestPKLength - len(key) - 1)}
	}
	surfaces := []struct {
		name  string
		write func(it item) error
	}{
		{"PutItem", func(it item) error {
			_, err := c.PutItem(ctx(t), &dynamodb.PutItemInput{TableName: &table, Item: it})
			return err
		}},
		{"BatchWriteItem", func(it item) error {
			_, err := c.BatchWriteItem(ctx(t), &dynamodb.BatchWriteItemInput{RequestItems: map[string][]types.WriteRequest{
				table: {{PutRequest: &types.PutRequest{Item: it}}}}})
			return err
		}},
		{"TransactWriteItems Put", func(it item) error {
			_, err := c.TransactWriteItems(ctx(t), &dynamodb.TransactWriteItemsInput{TransactItems: []types.TransactWriteItem{
				{Put: &types.Put{TableName: &table, Item: it}}}})
			return err
		}},
		{"PartiQL INSERT", func(it item) error {
			if l, ok := it["l"]; ok {
				_, err := exec(t, c, `INSERT INTO "`+table+`" VALUE {'pk': ?, 'l': ?}`, it["pk"], l)
				return err
			}
			_, err := exec(t, c, `INSERT INTO "`+table+`" VALUE {'pk': ?, 'b': ?}`, it["pk"], it["b"])
			return err
		}},
	}
	for i, sf := range surfaces {
		t.Run(sf.name, func(t *testing.T) {
			at, over := "at"+string(rune('a'+i)), "ov"+string(rune('a'+i))
			mustNoError(t, sf.write(itemOf(at, maxItemBytes)))
			requireValidation(t, sf.write(itemOf(over, maxItemBytes+1)), msgItemTooLarge)
			if got := mustGet(t, c, table, item{"pk": s(over)}); got != nil {
				t.Errorf("the refused item was written")
			}
			// The same limit with the size in one list of many small
			// values (empty strings: a byte each), which the emulator
			// reads without keeping once it is over.
			listOf := func(key string, size int) item {
				elems := make([]types.AttributeValue, size-sizeTestPKLength-len(key)-1-3)
				for j := range elems {
					elems[j] = s("")
				}
				return item{"pk": s(key), "l": &types.AttributeValueMemberL{Value: elems}}
			}
			mustNoError(t, sf.write(listOf(at+"l", maxItemBytes)))
			requireValidation(t, sf.write(listOf(over+"l", maxItemBytes+1)), msgItemTooLarge)
			requireValidation(t, sf.write(listOf(over+"l", 2*maxItemBytes)), msgItemTooLarge)
			if got := mustGet(t, c, table, item{"pk": s(over + "l")}); got != nil {
				t.Errorf("the refused item was written")
			}
		})
	}
}

// TestItemSizeUpdateItem: UpdateItem refuses an update whose
// resulting item is over 400 KB, or whose statement figure is: what the
// UpdateExpression writes, names and values, plus 3 bytes for the update
// and a cost per clause (19 per SET or ADD, 1 per REMOVE or DELETE, plus
// its target; list_append 37, if_not_exists 39 and a path operand 1 + 14
// per element more), so the key attributes and the attributes the update
// leaves alone are out of it: with a one-character key an item PutItem
// takes may be too large for UpdateItem. AWS documents none of it; the
// figures are AWS's as measured in paritysuite/dynamodb-conformance
// tests/tier3/limits/itemSizeBySurface.test.ts (expr/update_accounting.go).
// Each case writes the largest padding allowed, then one byte more on
// another item. stmt is the statement figure besides the padding's
// characters, item the resulting item's bytes besides them.
func TestItemSizeUpdateItem(t *testing.T) {
	t.Parallel()
	AWSDiffers(t, "DynamoDB Local measures an update's resulting item as PutItem does (409,600 bytes with any key)")
	c := newClient(t)
	table := hashTable(t, c)
	longKey := strings.Repeat("k", 100)
	const set = 3 + 19 + 1 // SET b = :pad, besides the padding
	const key1 = sizeTestPKLength + 1
	cases := []struct {
		name   string
		expr   string
		values item
		legacy bool   // AttributeUpdates b PUT :pad instead of expr
		seed   item   // attributes of the item before the update
		key    string // "" for a one-character key
		stmt   int
		item   int
	}{
		{name: "SET", expr: "SET b = :pad", stmt: set, item: key1 + 1},
		{name: "second SET", expr: "SET b = :pad, c = :c", values: item{":c": s("y")}, stmt: set + 19 + 1 + 1, item: key1 + 1 + 2},
		{name: "ADD", expr: "SET b = :pad ADD s :z", values: item{":z": ss("z")}, stmt: set + 19 + 1 + 1, item: key1 + 1 + 2},
		{name: "REMOVE", expr: "SET b = :pad REMOVE r", seed: item{"r": s("z")}, stmt: set + 1 + 1, item: key1 + 1},
		{name: "DELETE", expr: "SET b = :pad DELETE s :z", values: item{":z": ss("z")}, seed: item{"s": ss("z")}, stmt: set + 1 + 1, item: key1 + 1},
		{name: "map path", expr: "SET d.leaf = :pad", seed: item{"d": m(item{"leaf": s("x")})}, stmt: 3 + 19 + 1 + 4 + 4, item: key1 + 1 + 3 + 1 + 4},
		{name: "list index", expr: "SET d[0] = :pad", seed: item{"d": l(s("x"))}, stmt: 3 + 19 + 1 + 4 + 1, item: key1 + 1 + 3 + 1},
		{name: "if_not_exists", expr: "SET b = if_not_exists(b, :pad)", stmt: set + 39 + (1 + 14 + 1), item: key1 + 1},
		{name: "list_append", expr: "SET b = :pad, l = list_append(l, :new)", seed: item{"l": l(s("e"))},
			values: item{":new": l(s("yyyyyyyyyy"))}, stmt: set + 19 + 1 + 37 + (1 + 14 + 1) + (3 + 1 + 10), item: key1 + 1 + 1 + (3 + 2 + 11)},
		{name: "AttributeUpdates PUT: the item alone", legacy: true, stmt: 0, item: key1 + 1},
		{name: "untouched attribute", expr: "SET b = :pad", seed: item{"u": s(strings.Repeat("y", 10))}, stmt: set, item: key1 + 1 + 11},
		{name: "long key: 400 KB", expr: "SET b = :pad", key: longKey, stmt: set, item: sizeTestPKLength + len(longKey) + 1},
	}
	for i, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			update := func(key string, padLen int) error {
				if tc.seed != nil {
					it := item{"pk": s(key)}
					for k, v := range tc.seed {
						it[k] = v
					}
					mustPut(t, c, table, it)
				}
				in := &dynamodb.UpdateItemInput{TableName: &table, Key: item{"pk": s(key)}}
				if tc.legacy {
					in.AttributeUpdates = map[string]types.AttributeValueUpdate{"b": {Action: types.AttributeActionPut, Value: padding(padLen)}}
				} else {
					vals := item{":pad": padding(padLen)}
					for k, v := range tc.values {
						vals[k] = v
					}
					in.UpdateExpression, in.ExpressionAttributeValues = aws.String(tc.expr), vals
				}
				_, err := c.UpdateItem(ctx(t), in)
				return err
			}
			at, over := string(rune('a'+i)), string(rune('A'+i))
			if tc.key != "" {
				at, over = tc.key, strings.ToUpper(tc.key)
			}
			most := maxItemBytes - max(tc.stmt, tc.item)
			mustNoError(t, update(at, most))
			requireValidation(t, update(over, most+1), msgUpdateTooBig)
		})
	}
}

// TestItemSizeBeforeCondition: UpdateItem checks the item's size
// before its ConditionExpression: an over-size update whose condition
// fails answers the size error (measured against AWS).
func TestItemSizeBeforeCondition(t *testing.T) {
	t.Parallel()
	c := newClient(t)
	table := hashTable(t, c)
	mustPut(t, c, table, item{"pk": s("a")})
	_, err := c.UpdateItem(ctx(t), &dynamodb.UpdateItemInput{TableName: &table, Key: item{"pk": s("a")},
		UpdateExpression: aws.String("SET b = :pad"), ConditionExpression: aws.String("attribute_exists(nope)"),
		ExpressionAttributeValues: item{":pad": padding(maxItemBytes)}})
	requireValidation(t, err, msgUpdateTooBig)
}

// TestItemSizeTransactUpdate: a transaction's Update is measured on
// its resulting item alone, without UpdateItem's charges, and an over-size
// one cancels the transaction with a ValidationError reason "Item size to
// update has exceeded the maximum allowed size" (dynoxide's capture
// against AWS).
func TestItemSizeTransactUpdate(t *testing.T) {
	t.Parallel()
	c := newClient(t)
	table := hashTable(t, c)
	update := func(key string, size int) error {
		_, err := c.TransactWriteItems(ctx(t), &dynamodb.TransactWriteItemsInput{TransactItems: []types.TransactWriteItem{
			{Update: &types.Update{TableName: &table, Key: item{"pk": s(key)}, UpdateExpression: aws.String("SET b = :pad"),
				ExpressionAttributeValues: item{":pad": padding(size - sizeTestPKLength - len(key) - 1)}}}}})
		return err
	}
	mustNoError(t, update("a", maxItemBytes))
	reasons := requireCanceled(t, update("b", maxItemBytes+1), "ValidationError")
	if got := aws.ToString(reasons[0].Message); got != msgUpdateTooBig {
		t.Errorf("reason message %q, want %q", got, msgUpdateTooBig)
	}
	if got := mustGet(t, c, table, item{"pk": s("b")}); got != nil {
		t.Errorf("the cancelled update was written")
	}
}

// TestItemSizePartiQLUpdate: PartiQL's UPDATE is measured on its
// resulting item, as PutItem is. AWS's accounting for it is not known (no
// record found); this pins the emulator's, which DynamoDB Local shares.
func TestItemSizePartiQLUpdate(t *testing.T) {
	t.Parallel()
	c := newClient(t)
	table := hashTable(t, c)
	update := func(key string, size int) error {
		mustPut(t, c, table, item{"pk": s(key)})
		_, err := exec(t, c, `UPDATE "`+table+`" SET b = ? WHERE pk = ?`, padding(size-sizeTestPKLength-len(key)-1), s(key))
		return err
	}
	mustNoError(t, update("a", maxItemBytes))
	requireValidation(t, update("b", maxItemBytes+1), msgUpdateTooBig)
}

// TestItemSizeUpdateDocumentValue: an UpdateItem whose
// ExpressionAttributeValues hold a list or a map over 400 KB is refused
// as a fault of that value, "ExpressionAttributeValues contains invalid
// value: Item size has exceeded the maximum allowed size for key :v",
// whatever its size (one of 2.5 MB, over the 2 MB limit of the
// placeholder maps, included) and nothing is written: AWS's answer as a
// production table gave it (quoted in a public application's code
// comment, for key :variables), and DynamoDB Local's but for a list
// under about 2 MB (the case says what it answers). A string value
// over 400 KB is not such a fault: it gets the update's own size refusal
// (TestItemSizeUpdateItem, paritysuite's itemSizeBySurface).
func TestItemSizeUpdateDocumentValue(t *testing.T) {
	t.Parallel()
	c := newClient(t)
	table := hashTable(t, c)
	listOf := func(n, width int) types.AttributeValue { // n strings of width bytes
		elems := make([]types.AttributeValue, n)
		for i := range elems {
			elems[i] = s(strings.Repeat("x", width))
		}
		return &types.AttributeValueMemberL{Value: elems}
	}
	cases := []struct {
		name   string
		value  types.AttributeValue
		differ string // why DynamoDB Local answers otherwise
	}{
		{"list", listOf(maxItemBytes, 1), "DynamoDB Local answers a list value of 800 KB with the update's own size refusal " +
			"(one of 2.5 MB as the record does); the record answers a document value over 400 KB as a fault of the value"},
		{"list of 2.5 MB", listOf(25_000, 100), ""},
		{"map", &types.AttributeValueMemberM{Value: item{"m": padding(maxItemBytes)}}, ""},
		{"list in a map", &types.AttributeValueMemberM{Value: item{"l": listOf(maxItemBytes, 0)}}, ""},
	}
	for i, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			if tc.differ != "" {
				AWSDiffers(t, tc.differ)
			}
			key := item{"pk": s(string(rune('a' + i)))}
			_, err := c.UpdateItem(ctx(t), &dynamodb.UpdateItemInput{TableName: &table, Key: key,
				UpdateExpression: aws.String("SET v = :v"), ExpressionAttributeValues: item{":v": tc.value}})
			requireValidation(t, err, "ExpressionAttributeValues contains invalid value: "+msgItemTooLarge+" for key :v")
			if got := mustGet(t, c, table, key); got != nil {
				t.Errorf("the refused update was written")
			}
		})
	}
	_, err := c.UpdateItem(ctx(t), &dynamodb.UpdateItemInput{TableName: &table, Key: item{"pk": s("s")},
		UpdateExpression: aws.String("SET v = :v"), ExpressionAttributeValues: item{":v": padding(maxItemBytes)}})
	requireValidation(t, err, msgUpdateTooBig)
}
