package conformance

// Data plane, second part: ReturnConsumedCapacity for every data operation, item
// validation edges (nesting depth, sets, empty values, key ordering), Query and Scan
// paging details, BatchGetItem and BatchWriteItem across tables.

import (
	"fmt"
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

// ccUnits returns the CapacityUnits of cc, failing unless cc is for table.
func ccUnits(t testing.TB, cc *types.ConsumedCapacity, table string) float64 {
	t.Helper()
	if cc == nil {
		t.Fatalf("no ConsumedCapacity, want one for %s", table)
	}
	if aws.ToString(cc.TableName) != table {
		t.Fatalf("ConsumedCapacity.TableName = %q, want %q", aws.ToString(cc.TableName), table)
	}
	return aws.ToFloat64(cc.CapacityUnits)
}

// sizedItem returns an item of exactly size bytes by DynamoDB's rules (attribute
// names + string values): "pk" (2) + key + "v" (1) + the value.
func sizedItem(key string, size int) item {
	return item{"pk": s(key), "v": s(strings.Repeat("x", size-3-len(key)))}
}

func TestConsumedCapacityItemSizes(t *testing.T) {
	t.Parallel()
	c := newClient(t)
	table := hashTable(t, c)
	tests := []struct {
		size                  int
		write, strong, eventl float64
	}{
		{size: 10, write: 1, strong: 1, eventl: 0.5},
		{size: 1024, write: 1, strong: 1, eventl: 0.5},
		{size: 1025, write: 2, strong: 1, eventl: 0.5},
		{size: 4096, write: 4, strong: 1, eventl: 0.5},
		{size: 4097, write: 5, strong: 2, eventl: 1},
		{size: 5120, write: 5, strong: 2, eventl: 1},
		{size: 5121, write: 6, strong: 2, eventl: 1},
		{size: 8193, write: 9, strong: 3, eventl: 1.5},
	}
	for _, tc := range tests {
		t.Run(fmt.Sprintf("%d bytes", tc.size), func(t *testing.T) {
			t.Parallel()
			key := fmt.Sprintf("k%d", tc.size)
			it := sizedItem(key, tc.size)
			put, err := c.PutItem(ctx(t), &dynamodb.PutItemInput{TableName: &table, Item: it, ReturnConsumedCapacity: types.ReturnConsumedCapacityTotal})
			mustNoError(t, err)
			if got := ccUnits(t, put.ConsumedCapacity, table); got != tc.write {
				t.Errorf("PutItem new: %v units, want %v", got, tc.write)
			}
			for _, consistent := range []bool{false, true} {
				want := tc.eventl
				if consistent {
					want = tc.strong
				}
				get, err := c.GetItem(ctx(t), &dynamodb.GetItemInput{TableName: &table, Key: item{"pk": s(key)}, ConsistentRead: aws.Bool(consistent), ReturnConsumedCapacity: types.ReturnConsumedCapacityTotal})
				mustNoError(t, err)
				if got := ccUnits(t, get.ConsumedCapacity, table); got != want {
					t.Errorf("GetItem consistent=%v: %v units, want %v", consistent, got, want)
				}
				// A projection does not make the read cheaper: the whole item is read.
				get, err = c.GetItem(ctx(t), &dynamodb.GetItemInput{TableName: &table, Key: item{"pk": s(key)}, ConsistentRead: aws.Bool(consistent), ProjectionExpression: aws.String("pk"), ReturnConsumedCapacity: types.ReturnConsumedCapacityTotal})
				mustNoError(t, err)
				if got := ccUnits(t, get.ConsumedCapacity, table); got != want {
					t.Errorf("GetItem projected consistent=%v: %v units, want %v", consistent, got, want)
				}
			}
			del, err := c.DeleteItem(ctx(t), &dynamodb.DeleteItemInput{TableName: &table, Key: item{"pk": s(key)}, ReturnConsumedCapacity: types.ReturnConsumedCapacityTotal})
			mustNoError(t, err)
			if got := ccUnits(t, del.ConsumedCapacity, table); got != tc.write {
				t.Errorf("DeleteItem: %v units, want %v", got, tc.write)
			}
		})
	}
}

func TestConsumedCapacityWrites(t *testing.T) {
	t.Parallel()
	c := newClient(t)
	table := hashTable(t, c)
	tests := []struct {
		name string
		op   func(t *testing.T) *types.ConsumedCapacity
		want float64
	}{
		{"get missing eventual", func(t *testing.T) *types.ConsumedCapacity {
			out, err := c.GetItem(ctx(t), &dynamodb.GetItemInput{TableName: &table, Key: item{"pk": s("nothing")}, ReturnConsumedCapacity: types.ReturnConsumedCapacityTotal})
			mustNoError(t, err)
			return out.ConsumedCapacity
		}, 0.5},
		{"get missing consistent", func(t *testing.T) *types.ConsumedCapacity {
			out, err := c.GetItem(ctx(t), &dynamodb.GetItemInput{TableName: &table, Key: item{"pk": s("nothing")}, ConsistentRead: aws.Bool(true), ReturnConsumedCapacity: types.ReturnConsumedCapacityTotal})
			mustNoError(t, err)
			return out.ConsumedCapacity
		}, 1},
		{"delete missing", func(t *testing.T) *types.ConsumedCapacity {
			out, err := c.DeleteItem(ctx(t), &dynamodb.DeleteItemInput{TableName: &table, Key: item{"pk": s("nothing")}, ReturnConsumedCapacity: types.ReturnConsumedCapacityTotal})
			mustNoError(t, err)
			return out.ConsumedCapacity
		}, 1},
		{"put small over 5 KB", func(t *testing.T) *types.ConsumedCapacity {
			mustPut(t, c, table, sizedItem("over5", 5000))
			out, err := c.PutItem(ctx(t), &dynamodb.PutItemInput{TableName: &table, Item: sizedItem("over5", 100), ReturnConsumedCapacity: types.ReturnConsumedCapacityTotal})
			mustNoError(t, err)
			return out.ConsumedCapacity
		}, 5},
		{"put 3 KB over small", func(t *testing.T) *types.ConsumedCapacity {
			mustPut(t, c, table, sizedItem("grow", 100))
			out, err := c.PutItem(ctx(t), &dynamodb.PutItemInput{TableName: &table, Item: sizedItem("grow", 3000), ReturnConsumedCapacity: types.ReturnConsumedCapacityTotal})
			mustNoError(t, err)
			return out.ConsumedCapacity
		}, 3},
		{"update creates item", func(t *testing.T) *types.ConsumedCapacity {
			out, err := c.UpdateItem(ctx(t), &dynamodb.UpdateItemInput{TableName: &table, Key: item{"pk": s("upnew")}, UpdateExpression: aws.String("SET v = :v"),
				ExpressionAttributeValues: item{":v": s(strings.Repeat("x", 1500))}, ReturnConsumedCapacity: types.ReturnConsumedCapacityTotal})
			mustNoError(t, err)
			return out.ConsumedCapacity
		}, 2},
		{"update shrinks 2.5 KB item", func(t *testing.T) *types.ConsumedCapacity {
			mustPut(t, c, table, sizedItem("upshrink", 2500))
			out, err := c.UpdateItem(ctx(t), &dynamodb.UpdateItemInput{TableName: &table, Key: item{"pk": s("upshrink")}, UpdateExpression: aws.String("REMOVE v"),
				ReturnConsumedCapacity: types.ReturnConsumedCapacityTotal})
			mustNoError(t, err)
			return out.ConsumedCapacity
		}, 3},
		{"update grows small item to 3.5 KB", func(t *testing.T) *types.ConsumedCapacity {
			mustPut(t, c, table, sizedItem("upgrow", 100))
			out, err := c.UpdateItem(ctx(t), &dynamodb.UpdateItemInput{TableName: &table, Key: item{"pk": s("upgrow")}, UpdateExpression: aws.String("SET w = :w"),
				ExpressionAttributeValues: item{":w": s(strings.Repeat("y", 3400))}, ReturnConsumedCapacity: types.ReturnConsumedCapacityTotal})
			mustNoError(t, err)
			return out.ConsumedCapacity
		}, 4},
		{"update small attribute of 1.5 KB item", func(t *testing.T) *types.ConsumedCapacity {
			mustPut(t, c, table, sizedItem("upsmall", 1500))
			out, err := c.UpdateItem(ctx(t), &dynamodb.UpdateItemInput{TableName: &table, Key: item{"pk": s("upsmall")}, UpdateExpression: aws.String("SET c = :c"),
				ExpressionAttributeValues: item{":c": n("1")}, ReturnConsumedCapacity: types.ReturnConsumedCapacityTotal})
			mustNoError(t, err)
			return out.ConsumedCapacity
		}, 2},
		{"delete 2 KB item", func(t *testing.T) *types.ConsumedCapacity {
			mustPut(t, c, table, sizedItem("del2", 2048))
			out, err := c.DeleteItem(ctx(t), &dynamodb.DeleteItemInput{TableName: &table, Key: item{"pk": s("del2")}, ReturnConsumedCapacity: types.ReturnConsumedCapacityTotal})
			mustNoError(t, err)
			return out.ConsumedCapacity
		}, 2},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			if got := ccUnits(t, tc.op(t), table); got != tc.want {
				t.Errorf("%v units, want %v", got, tc.want)
			}
		})
	}
}

func TestConsumedCapacityQueryScan(t *testing.T) {
	t.Parallel()
	c := newClient(t)
	table := rangeTable(t, c)
	// Ten items of 1000 bytes: "pk"(2) + "p"(1) + "sk"(2) + N 1 (2) + "v"(1) + 992.
	for i := 1; i <= 10; i++ {
		mustPut(t, c, table, item{"pk": s("p"), "sk": n(fmt.Sprint(i)), "v": s(strings.Repeat("x", 992))})
	}
	query := func(t *testing.T, in dynamodb.QueryInput) *dynamodb.QueryOutput {
		in.TableName = &table
		in.KeyConditionExpression = aws.String("pk = :p")
		in.ExpressionAttributeValues = with(item{":p": s("p")}, in.ExpressionAttributeValues)
		in.ReturnConsumedCapacity = types.ReturnConsumedCapacityTotal
		out, err := c.Query(ctx(t), &in)
		mustNoError(t, err)
		return out
	}
	tests := []struct {
		name string
		op   func(t *testing.T) *types.ConsumedCapacity
		want float64
	}{
		// About 10 KB read in one request: the total is rounded up to 4 KB once.
		{"query eventual", func(t *testing.T) *types.ConsumedCapacity { return query(t, dynamodb.QueryInput{}).ConsumedCapacity }, 1.5},
		{"query consistent", func(t *testing.T) *types.ConsumedCapacity {
			return query(t, dynamodb.QueryInput{ConsistentRead: aws.Bool(true)}).ConsumedCapacity
		}, 3},
		{"query limit 4", func(t *testing.T) *types.ConsumedCapacity {
			return query(t, dynamodb.QueryInput{Limit: aws.Int32(4), ConsistentRead: aws.Bool(true)}).ConsumedCapacity
		}, 1},
		{"query limit 5", func(t *testing.T) *types.ConsumedCapacity {
			return query(t, dynamodb.QueryInput{Limit: aws.Int32(5), ConsistentRead: aws.Bool(true)}).ConsumedCapacity
		}, 2},
		// Filtered-out items were read and are paid for.
		{"query filter matches nothing", func(t *testing.T) *types.ConsumedCapacity {
			out := query(t, dynamodb.QueryInput{FilterExpression: aws.String("v = :z"), ExpressionAttributeValues: item{":z": s("z")}, ConsistentRead: aws.Bool(true)})
			if out.Count != 0 || out.ScannedCount != 10 {
				t.Errorf("Count %d ScannedCount %d, want 0, 10", out.Count, out.ScannedCount)
			}
			return out.ConsumedCapacity
		}, 3},
		{"query projection", func(t *testing.T) *types.ConsumedCapacity {
			return query(t, dynamodb.QueryInput{ProjectionExpression: aws.String("sk")}).ConsumedCapacity
		}, 1.5},
		{"query select count", func(t *testing.T) *types.ConsumedCapacity {
			return query(t, dynamodb.QueryInput{Select: types.SelectCount}).ConsumedCapacity
		}, 1.5},
		{"scan eventual", func(t *testing.T) *types.ConsumedCapacity {
			o, err := c.Scan(ctx(t), &dynamodb.ScanInput{TableName: &table, ReturnConsumedCapacity: types.ReturnConsumedCapacityTotal})
			mustNoError(t, err)
			return o.ConsumedCapacity
		}, 1.5},
		{"scan consistent", func(t *testing.T) *types.ConsumedCapacity {
			o, err := c.Scan(ctx(t), &dynamodb.ScanInput{TableName: &table, ConsistentRead: aws.Bool(true), ReturnConsumedCapacity: types.ReturnConsumedCapacityTotal})
			mustNoError(t, err)
			return o.ConsumedCapacity
		}, 3},
		{"scan filter and limit", func(t *testing.T) *types.ConsumedCapacity {
			o, err := c.Scan(ctx(t), &dynamodb.ScanInput{TableName: &table, ConsistentRead: aws.Bool(true), Limit: aws.Int32(9), FilterExpression: aws.String("sk > :z"),
				ExpressionAttributeValues: item{":z": n("100")}, ReturnConsumedCapacity: types.ReturnConsumedCapacityTotal})
			mustNoError(t, err)
			if o.Count != 0 || o.ScannedCount != 9 {
				t.Errorf("Count %d ScannedCount %d, want 0, 9", o.Count, o.ScannedCount)
			}
			return o.ConsumedCapacity
		}, 3},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			if got := ccUnits(t, tc.op(t), table); got != tc.want {
				t.Errorf("%v units, want %v", got, tc.want)
			}
		})
	}
}

func TestConsumedCapacityBatch(t *testing.T) {
	t.Parallel()
	c := newClient(t)
	t1 := hashTable(t, c)
	t2 := hashTable(t, c)
	for i := 0; i < 3; i++ {
		mustPut(t, c, t1, sizedItem(fmt.Sprint("a", i), 100))
	}
	for i := 0; i < 2; i++ {
		mustPut(t, c, t2, sizedItem(fmt.Sprint("b", i), 5000))
	}
	mustPut(t, c, t2, sizedItem("d0", 2048))
	per := func(t *testing.T, ccs []types.ConsumedCapacity) map[string]float64 {
		t.Helper()
		got := map[string]float64{}
		for _, cc := range ccs {
			if _, dup := got[aws.ToString(cc.TableName)]; dup {
				t.Fatalf("two ConsumedCapacity entries for %s", aws.ToString(cc.TableName))
			}
			got[aws.ToString(cc.TableName)] = aws.ToFloat64(cc.CapacityUnits)
		}
		return got
	}
	t.Run("get", func(t *testing.T) {
		t.Parallel()
		out, err := c.BatchGetItem(ctx(t), &dynamodb.BatchGetItemInput{ReturnConsumedCapacity: types.ReturnConsumedCapacityTotal, RequestItems: map[string]types.KeysAndAttributes{
			t1: {Keys: []item{{"pk": s("a0")}, {"pk": s("a1")}, {"pk": s("a2")}}},
			t2: {Keys: []item{{"pk": s("b0")}, {"pk": s("b1")}}, ConsistentRead: aws.Bool(true)},
		}})
		mustNoError(t, err)
		// Each item is rounded up to 4 KB on its own.
		got := per(t, out.ConsumedCapacity)
		if len(got) != 2 || got[t1] != 1.5 || got[t2] != 4 {
			t.Fatalf("ConsumedCapacity %v, want %s: 1.5, %s: 4", got, t1, t2)
		}
	})
	t.Run("write", func(t *testing.T) {
		t.Parallel()
		out, err := c.BatchWriteItem(ctx(t), &dynamodb.BatchWriteItemInput{ReturnConsumedCapacity: types.ReturnConsumedCapacityTotal, RequestItems: map[string][]types.WriteRequest{
			t1: {{PutRequest: &types.PutRequest{Item: sizedItem("w0", 100)}}, {PutRequest: &types.PutRequest{Item: sizedItem("w1", 1500)}}},
			t2: {{PutRequest: &types.PutRequest{Item: sizedItem("w2", 2500)}}, {DeleteRequest: &types.DeleteRequest{Key: item{"pk": s("d0")}}}},
		}})
		mustNoError(t, err)
		got := per(t, out.ConsumedCapacity)
		if len(got) != 2 || got[t1] != 3 || got[t2] != 5 {
			t.Fatalf("ConsumedCapacity %v, want %s: 3, %s: 5", got, t1, t2)
		}
	})
	t.Run("none", func(t *testing.T) {
		t.Parallel()
		out, err := c.BatchGetItem(ctx(t), &dynamodb.BatchGetItemInput{ReturnConsumedCapacity: types.ReturnConsumedCapacityNone, RequestItems: map[string]types.KeysAndAttributes{
			t1: {Keys: []item{{"pk": s("a0")}}}}})
		mustNoError(t, err)
		if out.ConsumedCapacity != nil {
			t.Fatalf("NONE: ConsumedCapacity %+v", out.ConsumedCapacity)
		}
	})
}

func TestConsumedCapacityIndexes(t *testing.T) {
	t.Parallel()
	c := newClient(t)
	in := tableDef(keyDef{"pk", "S"}, keyDef{})
	in.AttributeDefinitions = append(in.AttributeDefinitions, types.AttributeDefinition{AttributeName: aws.String("g"), AttributeType: types.ScalarAttributeTypeS})
	in.GlobalSecondaryIndexes = []types.GlobalSecondaryIndex{{
		IndexName:  aws.String("byG"),
		KeySchema:  []types.KeySchemaElement{{AttributeName: aws.String("g"), KeyType: types.KeyTypeHash}},
		Projection: &types.Projection{ProjectionType: types.ProjectionTypeAll},
	}}
	table := createTable(t, c, in)
	type want struct {
		total, table float64
		gsi          float64 // -1: no entry for the index
	}
	check := func(t *testing.T, cc *types.ConsumedCapacity, w want) {
		t.Helper()
		got := ccUnits(t, cc, table)
		tbl := -1.0
		if cc.Table != nil {
			tbl = aws.ToFloat64(cc.Table.CapacityUnits)
		}
		gsi := -1.0
		if g, ok := cc.GlobalSecondaryIndexes["byG"]; ok {
			gsi = aws.ToFloat64(g.CapacityUnits)
		}
		if got != w.total || tbl != w.table || gsi != w.gsi {
			t.Fatalf("CapacityUnits %v, Table %v, byG %v (-1: absent); want %v, %v, %v", got, tbl, gsi, w.total, w.table, w.gsi)
		}
	}
	put := func(t *testing.T, it item) *types.ConsumedCapacity {
		out, err := c.PutItem(ctx(t), &dynamodb.PutItemInput{TableName: &table, Item: it, ReturnConsumedCapacity: types.ReturnConsumedCapacityIndexes})
		mustNoError(t, err)
		return out.ConsumedCapacity
	}
	t.Run("put without index key", func(t *testing.T) {
		t.Parallel()
		check(t, put(t, item{"pk": s("nog")}), want{1, 1, -1})
	})
	t.Run("put with index key", func(t *testing.T) {
		t.Parallel()
		check(t, put(t, item{"pk": s("withg"), "g": s("x")}), want{2, 1, 1})
	})
	t.Run("update index key", func(t *testing.T) {
		t.Parallel()
		mustPut(t, c, table, item{"pk": s("upg"), "g": s("x")})
		out, err := c.UpdateItem(ctx(t), &dynamodb.UpdateItemInput{TableName: &table, Key: item{"pk": s("upg")}, UpdateExpression: aws.String("SET g = :g"),
			ExpressionAttributeValues: item{":g": s("y")}, ReturnConsumedCapacity: types.ReturnConsumedCapacityIndexes})
		mustNoError(t, err)
		// The index item moves: a delete and a put in the index.
		check(t, out.ConsumedCapacity, want{3, 1, 2})
	})
	t.Run("delete with index key", func(t *testing.T) {
		t.Parallel()
		mustPut(t, c, table, item{"pk": s("delg"), "g": s("x")})
		out, err := c.DeleteItem(ctx(t), &dynamodb.DeleteItemInput{TableName: &table, Key: item{"pk": s("delg")}, ReturnConsumedCapacity: types.ReturnConsumedCapacityIndexes})
		mustNoError(t, err)
		check(t, out.ConsumedCapacity, want{2, 1, 1})
	})
	t.Run("get", func(t *testing.T) {
		t.Parallel()
		out, err := c.GetItem(ctx(t), &dynamodb.GetItemInput{TableName: &table, Key: item{"pk": s("none")}, ReturnConsumedCapacity: types.ReturnConsumedCapacityIndexes})
		mustNoError(t, err)
		check(t, out.ConsumedCapacity, want{0.5, 0.5, -1})
	})
	t.Run("query index", func(t *testing.T) {
		t.Parallel()
		mustPut(t, c, table, item{"pk": s("qg"), "g": s("q")})
		out, err := c.Query(ctx(t), &dynamodb.QueryInput{TableName: &table, IndexName: aws.String("byG"), KeyConditionExpression: aws.String("g = :g"),
			ExpressionAttributeValues: item{":g": s("q")}, ReturnConsumedCapacity: types.ReturnConsumedCapacityIndexes})
		mustNoError(t, err)
		// The table itself reads nothing: Table is there with 0.
		check(t, out.ConsumedCapacity, want{0.5, 0, 0.5})
	})
}

// nestedMaps returns a value of depth levels of maps: depth 1 is {"x": "leaf"}.
func nestedMaps(depth int) types.AttributeValue {
	v := s("leaf")
	for i := 0; i < depth; i++ {
		v = m(item{"x": v})
	}
	return v
}

// nestedLists is nestedMaps with lists.
func nestedLists(depth int) types.AttributeValue {
	v := s("leaf")
	for i := 0; i < depth; i++ {
		v = l(v)
	}
	return v
}

func TestItemValidationEdges(t *testing.T) {
	t.Parallel()
	c := newClient(t)
	table := hashTable(t, c)
	// 31 containers around a scalar are accepted, 32 are not: the scalar is the 32nd level.
	const tooDeep = "Nesting Levels have exceeded supported limits: Attributes in the item have nested levels beyond supported limit"
	tests := []struct {
		name string
		it   item
		msg  string // "": accepted and read back unchanged
	}{
		{name: "31 maps", it: item{"pk": s("d31"), "d": nestedMaps(31)}},
		{name: "32 maps", it: item{"pk": s("d32"), "d": nestedMaps(32)}, msg: tooDeep},
		{name: "31 lists", it: item{"pk": s("l31"), "d": nestedLists(31)}},
		{name: "32 lists", it: item{"pk": s("l32"), "d": nestedLists(32)}, msg: tooDeep},
		{name: "16 maps in 15 lists", it: item{"pk": s("ml"), "d": func() types.AttributeValue {
			v := nestedMaps(16)
			for i := 0; i < 15; i++ {
				v = l(v)
			}
			return v
		}()}},
		{name: "empty string nested", it: item{"pk": s("es"), "m": m(item{"e": s(""), "l": l(s(""), b([]byte{}))})}},
		{name: "empty binary", it: item{"pk": s("eb"), "b": b([]byte{}), "bs": bs([]byte{}, []byte{1})}},
		{name: "duplicate numbers in set", it: item{"pk": s("x"), "ns": ns("1", "1.0")},
			msg: "Input collection contains duplicates"},
		{name: "duplicate binaries in set", it: item{"pk": s("x"), "bs": bs([]byte{1}, []byte{1})},
			msg: "One or more parameter values were invalid: Input collection of type BS contains duplicates."},
		{name: "duplicate strings in nested set", it: item{"pk": s("x"), "m": m(item{"ss": ss("a", "a")})},
			msg: "One or more parameter values were invalid: Input collection [a, a] contains duplicates"},
		{name: "empty set in list", it: item{"pk": s("x"), "l": l(ss())},
			msg: "One or more parameter values were invalid: An string set  may not be empty"},
		{name: "invalid number in set", it: item{"pk": s("x"), "ns": ns("1", "x")}, msg: "-"},
		{name: "empty attribute name", it: item{"pk": s("x"), "": s("v")}, msg: "-"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			_, err := c.PutItem(ctx(t), &dynamodb.PutItemInput{TableName: &table, Item: tc.it})
			switch tc.msg {
			case "":
				mustNoError(t, err)
				requireItem(t, mustGet(t, c, table, item{"pk": tc.it["pk"]}), tc.it)
			case "-":
				requireValidation(t, err, "")
			default:
				requireValidation(t, err, tc.msg)
			}
		})
	}
	t.Run("update to 32 levels", func(t *testing.T) {
		t.Parallel()
		mustPut(t, c, table, item{"pk": s("u"), "d": nestedMaps(30)})
		// The leaf of 30 maps is replaced by 1 map (31 in all: fine), then by 2 (32: too deep).
		path := "d" + strings.Repeat(".x", 30)
		_, err := c.UpdateItem(ctx(t), &dynamodb.UpdateItemInput{TableName: &table, Key: item{"pk": s("u")}, UpdateExpression: aws.String("SET " + path + " = :v"),
			ExpressionAttributeValues: item{":v": nestedMaps(1)}})
		mustNoError(t, err)
		_, err = c.UpdateItem(ctx(t), &dynamodb.UpdateItemInput{TableName: &table, Key: item{"pk": s("u")}, UpdateExpression: aws.String("SET " + path + " = :v"),
			ExpressionAttributeValues: item{":v": nestedMaps(2)}})
		requireValidation(t, err, "Nesting Levels have exceeded supported limits")
	})
	t.Run("update sets empty string", func(t *testing.T) {
		t.Parallel()
		out, err := c.UpdateItem(ctx(t), &dynamodb.UpdateItemInput{TableName: &table, Key: item{"pk": s("ue")}, UpdateExpression: aws.String("SET a = :e, b = :b"),
			ExpressionAttributeValues: item{":e": s(""), ":b": b([]byte{})}, ReturnValues: types.ReturnValueAllNew})
		mustNoError(t, err)
		requireItem(t, out.Attributes, item{"pk": s("ue"), "a": s(""), "b": b([]byte{})})
	})
	t.Run("update adds empty set", func(t *testing.T) {
		t.Parallel()
		_, err := c.UpdateItem(ctx(t), &dynamodb.UpdateItemInput{TableName: &table, Key: item{"pk": s("us")}, UpdateExpression: aws.String("ADD a :e"),
			ExpressionAttributeValues: item{":e": ns()}})
		requireValidation(t, err, "ExpressionAttributeValues contains invalid value: One or more parameter values were invalid: An number set  may not be empty for key :e")
	})
}

func TestEmptyKeyValues(t *testing.T) {
	t.Parallel()
	c := newClient(t)
	bin := createTable(t, c, tableDef(keyDef{"pk", "B"}, keyDef{}))
	rng := rangeTableS(t, c)
	gin := tableDef(keyDef{"pk", "S"}, keyDef{})
	gin.AttributeDefinitions = append(gin.AttributeDefinitions, types.AttributeDefinition{AttributeName: aws.String("g"), AttributeType: types.ScalarAttributeTypeS})
	gin.GlobalSecondaryIndexes = []types.GlobalSecondaryIndex{{IndexName: aws.String("byG"), KeySchema: []types.KeySchemaElement{{AttributeName: aws.String("g"), KeyType: types.KeyTypeHash}},
		Projection: &types.Projection{ProjectionType: types.ProjectionTypeKeysOnly}}}
	gsi := createTable(t, c, gin)
	const emptyS = "One or more parameter values are not valid. The AttributeValue for a key attribute cannot contain an empty string value. Key: "
	const emptyB = "One or more parameter values are not valid. The AttributeValue for a key attribute cannot contain an empty binary value. Key: "
	tests := []struct {
		name string
		call func(t *testing.T) error
		msg  string
	}{
		{"put empty binary hash key", func(t *testing.T) error {
			_, err := c.PutItem(ctx(t), &dynamodb.PutItemInput{TableName: &bin, Item: item{"pk": b([]byte{})}})
			return err
		}, emptyB + "pk"},
		{"get empty binary hash key", func(t *testing.T) error {
			_, err := c.GetItem(ctx(t), &dynamodb.GetItemInput{TableName: &bin, Key: item{"pk": b([]byte{})}})
			return err
		}, emptyB + "pk"},
		{"put empty sort key", func(t *testing.T) error {
			_, err := c.PutItem(ctx(t), &dynamodb.PutItemInput{TableName: &rng, Item: item{"pk": s("a"), "sk": s("")}})
			return err
		}, emptyS + "sk"},
		{"delete empty sort key", func(t *testing.T) error {
			_, err := c.DeleteItem(ctx(t), &dynamodb.DeleteItemInput{TableName: &rng, Key: item{"pk": s("a"), "sk": s("")}})
			return err
		}, emptyS + "sk"},
		{"update empty sort key", func(t *testing.T) error {
			_, err := c.UpdateItem(ctx(t), &dynamodb.UpdateItemInput{TableName: &rng, Key: item{"pk": s("a"), "sk": s("")}})
			return err
		}, emptyS + "sk"},
		{"batch write empty hash key", func(t *testing.T) error {
			_, err := c.BatchWriteItem(ctx(t), &dynamodb.BatchWriteItemInput{RequestItems: map[string][]types.WriteRequest{rng: {{PutRequest: &types.PutRequest{Item: item{"pk": s(""), "sk": s("x")}}}}}})
			return err
		}, emptyS + "pk"},
		{"batch get empty sort key", func(t *testing.T) error {
			_, err := c.BatchGetItem(ctx(t), &dynamodb.BatchGetItemInput{RequestItems: map[string]types.KeysAndAttributes{rng: {Keys: []item{{"pk": s("a"), "sk": s("")}}}}})
			return err
		}, emptyS + "sk"},
		{"query empty hash value", func(t *testing.T) error {
			_, err := c.Query(ctx(t), &dynamodb.QueryInput{TableName: &rng, KeyConditionExpression: aws.String("pk = :p"), ExpressionAttributeValues: item{":p": s("")}})
			return err
		}, "One or more parameter values are not valid. The AttributeValue for a key attribute cannot contain an empty string value. Key: pk"},
		{"put empty index key", func(t *testing.T) error {
			_, err := c.PutItem(ctx(t), &dynamodb.PutItemInput{TableName: &gsi, Item: item{"pk": s("a"), "g": s("")}})
			return err
		}, "One or more parameter values are not valid. A value specified for a secondary index key is not supported. The AttributeValue for a key attribute cannot contain an empty string value. IndexName: byG, IndexKey: g"},
		{"update to empty index key", func(t *testing.T) error {
			_, err := c.UpdateItem(ctx(t), &dynamodb.UpdateItemInput{TableName: &gsi, Key: item{"pk": s("a")}, UpdateExpression: aws.String("SET g = :e"), ExpressionAttributeValues: item{":e": s("")}})
			return err
		}, "One or more parameter values are not valid. The update expression attempted to update a secondary index key to a value that is not supported. The AttributeValue for a key attribute cannot contain an empty string value."},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			requireValidation(t, tc.call(t), tc.msg)
		})
	}
}

func TestKeyOrdering(t *testing.T) {
	t.Parallel()
	c := newClient(t)
	bin := createTable(t, c, tableDef(keyDef{"pk", "S"}, keyDef{"sk", "B"}))
	num := rangeTable(t, c)
	binKeys := [][]byte{{0xff}, {0x00}, {0x01, 0x00}, {0x80}, {0x00, 0x00}, {0x7f}, {0x01}, {0x01, 0xff, 0x00}, []byte("a"), []byte("A")}
	for _, k := range binKeys {
		mustPut(t, c, bin, item{"pk": s("p"), "sk": b(k)})
	}
	numKeys := []string{"1e10", "-1e10", "-100", "-2.5", "-0.001", "0", "0.00001", "0.5", "1", "1.5", "10", "99.99", "100.000001", "-99.99"}
	for _, k := range numKeys {
		mustPut(t, c, num, item{"pk": s("p"), "sk": n(k)})
	}
	hexes := func(its []item) string {
		var out []string
		for _, it := range its {
			out = append(out, fmt.Sprintf("%x", it["sk"].(*types.AttributeValueMemberB).Value))
		}
		return strings.Join(out, " ")
	}
	nums := func(its []item) string {
		var out []string
		for _, it := range its {
			out = append(out, it["sk"].(*types.AttributeValueMemberN).Value)
		}
		return strings.Join(out, " ")
	}
	tests := []struct {
		name    string
		table   string
		cond    string
		values  item
		forward bool
		limit   int32
		want    string
	}{
		{"binary unsigned order", bin, "pk = :p", nil, true, 0, "00 0000 01 0100 01ff00 41 61 7f 80 ff"},
		{"binary reverse", bin, "pk = :p", nil, false, 0, "ff 80 7f 61 41 01ff00 0100 01 0000 00"},
		{"binary begins_with", bin, "pk = :p AND begins_with(sk, :v)", item{":v": b([]byte{0x01})}, true, 0, "01 0100 01ff00"},
		{"binary begins_with ff", bin, "pk = :p AND begins_with(sk, :v)", item{":v": b([]byte{0xff})}, true, 0, "ff"},
		{"binary begins_with reverse limit", bin, "pk = :p AND begins_with(sk, :v)", item{":v": b([]byte{0x00})}, false, 1, "0000"},
		{"binary between", bin, "pk = :p AND sk BETWEEN :a AND :b", item{":a": b([]byte{0x01}), ":b": b([]byte{0x7f})}, true, 0, "01 0100 01ff00 41 61 7f"},
		{"binary greater than high bit", bin, "pk = :p AND sk > :a", item{":a": b([]byte{0x7f, 0xff})}, true, 0, "80 ff"},
		{"number order", num, "pk = :p", nil, true, 0, "-10000000000 -100 -99.99 -2.5 -0.001 0 0.00001 0.5 1 1.5 10 99.99 100.000001 10000000000"},
		{"number reverse limit", num, "pk = :p", nil, false, 3, "10000000000 100.000001 99.99"},
		{"number greater than negative", num, "pk = :p AND sk > :a", item{":a": n("-1")}, true, 0, "-0.001 0 0.00001 0.5 1 1.5 10 99.99 100.000001 10000000000"},
		{"number between fractions", num, "pk = :p AND sk BETWEEN :a AND :b", item{":a": n("-2.5"), ":b": n("0.5")}, true, 0, "-2.5 -0.001 0 0.00001 0.5"},
		{"number less than tiny", num, "pk = :p AND sk < :a", item{":a": n("1e-5")}, false, 0, "0 -0.001 -2.5 -99.99 -100 -10000000000"},
		{"number equal other spelling", num, "pk = :p AND sk = :a", item{":a": n("-2.50")}, true, 0, "-2.5"},
		{"number between negatives", num, "pk = :p AND sk BETWEEN :a AND :b", item{":a": n("-100"), ":b": n("-99.99")}, true, 0, "-100 -99.99"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			in := &dynamodb.QueryInput{TableName: &tc.table, KeyConditionExpression: aws.String(tc.cond), ExpressionAttributeValues: with(item{":p": s("p")}, tc.values),
				ScanIndexForward: aws.Bool(tc.forward)}
			if tc.limit > 0 {
				in.Limit = aws.Int32(tc.limit)
			}
			out, err := c.Query(ctx(t), in)
			mustNoError(t, err)
			got := nums
			if tc.table == bin {
				got = hexes
			}
			if g := got(out.Items); g != tc.want {
				t.Fatalf("got  %s\nwant %s", g, tc.want)
			}
		})
	}
}
