package conformance

// Data plane edges: ReturnConsumedCapacity for every data operation, item
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

// TestConsumedCapacityQueryScan: a read's units are its items' total size
// rounded up to 4 KB once (the developer guide's "Capacity unit
// consumption for read operations"). For a Scan AWS is known to charge
// more on a small table: scylladb test/alternator/test_returnconsumedcapacity.py
// (test_scan_consumed_capacity) records 4 units (consistent) and 2
// (eventual) for one tiny item in a new table, and says nobody knows why;
// no record found gives the rule behind those figures, so the emulator
// keeps the documented one and no case here pins the one-item figures.
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
		// The messages, which differ from DynamoDB Local's: TestSetDuplicatesMessages.
		{name: "duplicate numbers in set", it: item{"pk": s("x"), "ns": ns("1", "1.0")}, msg: "-"},
		{name: "duplicate binaries in set", it: item{"pk": s("x"), "bs": bs([]byte{1}, []byte{1})}, msg: "-"},
		{name: "duplicate strings in nested set", it: item{"pk": s("x"), "m": m(item{"ss": ss("a", "a")})}, msg: "-"},
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

func TestQueryScanPagingDetails(t *testing.T) {
	t.Parallel()
	c := newClient(t)
	table := rangeTable(t, c)
	var reqs []types.WriteRequest
	for i := 1; i <= 10; i++ {
		reqs = append(reqs, types.WriteRequest{PutRequest: &types.PutRequest{Item: item{"pk": s("p"), "sk": n(fmt.Sprint(i)), "even": bl(i%2 == 0)}}})
	}
	mustBatchWrite(t, c, table, reqs)
	key := func(i int) item { return item{"pk": s("p"), "sk": n(fmt.Sprint(i))} }
	base := func() dynamodb.QueryInput {
		return dynamodb.QueryInput{TableName: &table, KeyConditionExpression: aws.String("pk = :p"), ExpressionAttributeValues: item{":p": s("p")}}
	}
	t.Run("select count pages", func(t *testing.T) {
		t.Parallel()
		in := base()
		in.Select = types.SelectCount
		in.Limit = aws.Int32(4)
		var counts []int32
		for {
			out, err := c.Query(ctx(t), &in)
			mustNoError(t, err)
			if out.Items != nil {
				t.Fatalf("COUNT returned items")
			}
			counts = append(counts, out.Count)
			if out.LastEvaluatedKey == nil {
				break
			}
			in.ExclusiveStartKey = out.LastEvaluatedKey
		}
		if fmt.Sprint(counts) != "[4 4 2]" {
			t.Fatalf("Counts per page %v, want [4 4 2]", counts)
		}
	})
	t.Run("select count with filter and limit", func(t *testing.T) {
		t.Parallel()
		in := base()
		in.Select = types.SelectCount
		in.Limit = aws.Int32(5)
		in.FilterExpression = aws.String("even = :t")
		in.ExpressionAttributeValues = item{":p": s("p"), ":t": bl(true)}
		out, err := c.Query(ctx(t), &in)
		mustNoError(t, err)
		if out.Count != 2 || out.ScannedCount != 5 {
			t.Fatalf("Count %d ScannedCount %d, want 2, 5", out.Count, out.ScannedCount)
		}
		requireItem(t, out.LastEvaluatedKey, key(5))
	})
	t.Run("filter matching nothing still pages", func(t *testing.T) {
		t.Parallel()
		in := base()
		in.Limit = aws.Int32(3)
		in.FilterExpression = aws.String("attribute_exists(nope)")
		out, err := c.Query(ctx(t), &in)
		mustNoError(t, err)
		if out.Count != 0 || out.ScannedCount != 3 || len(out.Items) != 0 {
			t.Fatalf("Count %d ScannedCount %d items %d, want 0, 3, 0", out.Count, out.ScannedCount, len(out.Items))
		}
		requireItem(t, out.LastEvaluatedKey, key(3))
	})
	t.Run("start key continues exactly", func(t *testing.T) {
		t.Parallel()
		in := base()
		in.ExclusiveStartKey = key(6)
		out, err := c.Query(ctx(t), &in)
		mustNoError(t, err)
		if got := sortKeys(out.Items); got != "7 8 9 10" {
			t.Fatalf("got %s, want 7 8 9 10", got)
		}
	})
	t.Run("start key of an absent item", func(t *testing.T) {
		t.Parallel()
		in := base()
		in.ExclusiveStartKey = item{"pk": s("p"), "sk": n("6.5")}
		out, err := c.Query(ctx(t), &in)
		mustNoError(t, err)
		if got := sortKeys(out.Items); got != "7 8 9 10" {
			t.Fatalf("got %s, want 7 8 9 10", got)
		}
	})
	t.Run("backward with limit and start key", func(t *testing.T) {
		t.Parallel()
		in := base()
		in.ScanIndexForward = aws.Bool(false)
		in.Limit = aws.Int32(3)
		in.KeyConditionExpression = aws.String("pk = :p AND sk < :hi")
		in.ExpressionAttributeValues = item{":p": s("p"), ":hi": n("9")}
		var pages []string
		for {
			out, err := c.Query(ctx(t), &in)
			mustNoError(t, err)
			pages = append(pages, sortKeys(out.Items))
			if out.LastEvaluatedKey == nil {
				break
			}
			in.ExclusiveStartKey = out.LastEvaluatedKey
		}
		if got := strings.Join(pages, "|"); got != "8 7 6|5 4 3|2 1|" && got != "8 7 6|5 4 3|2 1" {
			t.Fatalf("pages %q, want 8 7 6|5 4 3|2 1", got)
		}
	})
	t.Run("start key past the range", func(t *testing.T) {
		t.Parallel()
		in := base()
		in.KeyConditionExpression = aws.String("pk = :p AND sk BETWEEN :a AND :b")
		in.ExpressionAttributeValues = item{":p": s("p"), ":a": n("2"), ":b": n("4")}
		in.ExclusiveStartKey = key(8) // outside the key condition: rejected, not ignored
		_, err := c.Query(ctx(t), &in)
		requireValidation(t, err, "The provided starting key does not match the range key predicate")
	})
	t.Run("scan limit with filter", func(t *testing.T) {
		t.Parallel()
		out, err := c.Scan(ctx(t), &dynamodb.ScanInput{TableName: &table, Limit: aws.Int32(4), FilterExpression: aws.String("even = :t"), ExpressionAttributeValues: item{":t": bl(true)}})
		mustNoError(t, err)
		if out.Count != 2 || out.ScannedCount != 4 || out.LastEvaluatedKey == nil {
			t.Fatalf("Count %d ScannedCount %d LEK %v, want 2, 4, set", out.Count, out.ScannedCount, out.LastEvaluatedKey)
		}
	})
	t.Run("scan select count pages", func(t *testing.T) {
		t.Parallel()
		in := dynamodb.ScanInput{TableName: &table, Select: types.SelectCount, Limit: aws.Int32(3)}
		var total int32
		pages := 0
		for {
			out, err := c.Scan(ctx(t), &in)
			mustNoError(t, err)
			total += out.Count
			pages++
			if out.LastEvaluatedKey == nil {
				break
			}
			in.ExclusiveStartKey = out.LastEvaluatedKey
		}
		if total != 10 || pages != 4 {
			t.Fatalf("Count %d in %d pages, want 10 in 4", total, pages)
		}
	})
	t.Run("scan consistent read sees a write at once", func(t *testing.T) {
		t.Parallel()
		other := rangeTable(t, c)
		mustPut(t, c, other, item{"pk": s("x"), "sk": n("1")})
		out, err := c.Scan(ctx(t), &dynamodb.ScanInput{TableName: &other, ConsistentRead: aws.Bool(true)})
		mustNoError(t, err)
		requireItems(t, out.Items, []item{{"pk": s("x"), "sk": n("1")}})
	})
}

func TestParallelScanSegments(t *testing.T) {
	t.Parallel()
	c := newClient(t)
	table := hashTable(t, c)
	var reqs []types.WriteRequest
	want := map[string]bool{}
	for i := 0; i < 50; i++ {
		k := fmt.Sprintf("k%02d", i)
		want[k] = true
		reqs = append(reqs, types.WriteRequest{PutRequest: &types.PutRequest{Item: item{"pk": s(k)}}})
		if len(reqs) == 25 {
			mustBatchWrite(t, c, table, reqs)
			reqs = nil
		}
	}
	seen := map[string]int{}
	for seg := int32(0); seg < 3; seg++ {
		var inSeg int32
		in := dynamodb.ScanInput{TableName: &table, Segment: aws.Int32(seg), TotalSegments: aws.Int32(3), Limit: aws.Int32(4), ConsistentRead: aws.Bool(true)}
		for {
			out, err := c.Scan(ctx(t), &in)
			mustNoError(t, err)
			if out.Count > 4 {
				t.Fatalf("segment %d: page of %d with Limit 4", seg, out.Count)
			}
			for _, it := range out.Items {
				seen[it["pk"].(*types.AttributeValueMemberS).Value]++
				inSeg++
			}
			if out.LastEvaluatedKey == nil {
				break
			}
			in.ExclusiveStartKey = out.LastEvaluatedKey
		}
		// The same segment scanned again with COUNT gives the same number.
		var count int32
		cin := dynamodb.ScanInput{TableName: &table, Segment: aws.Int32(seg), TotalSegments: aws.Int32(3), Select: types.SelectCount}
		for {
			out, err := c.Scan(ctx(t), &cin)
			mustNoError(t, err)
			count += out.Count
			if out.LastEvaluatedKey == nil {
				break
			}
			cin.ExclusiveStartKey = out.LastEvaluatedKey
		}
		if count != inSeg {
			t.Fatalf("segment %d: COUNT %d, but %d items paged", seg, count, inSeg)
		}
	}
	if len(seen) != len(want) {
		t.Fatalf("%d distinct items over 3 segments, want %d", len(seen), len(want))
	}
	for k, v := range seen {
		if v != 1 || !want[k] {
			t.Fatalf("item %s seen %d times", k, v)
		}
	}
}

func TestBatchAcrossTables(t *testing.T) {
	t.Parallel()
	c := newClient(t)
	h := hashTable(t, c)
	r := rangeTable(t, c)
	for i := 0; i < 60; i += 25 {
		var reqs []types.WriteRequest
		for j := i; j < min(i+25, 60); j++ {
			reqs = append(reqs, types.WriteRequest{PutRequest: &types.PutRequest{Item: item{"pk": s(fmt.Sprint(j)), "a": n(fmt.Sprint(j)), "b": s("B"), "m": m(item{"x": n("1"), "y": n("2")})}}})
		}
		mustBatchWrite(t, c, h, reqs)
	}
	for i := 0; i < 40; i += 20 {
		var reqs []types.WriteRequest
		for j := i; j < i+20; j++ {
			reqs = append(reqs, types.WriteRequest{PutRequest: &types.PutRequest{Item: item{"pk": s("p"), "sk": n(fmt.Sprint(j)), "a": n(fmt.Sprint(j)), "b": s("B")}}})
		}
		mustBatchWrite(t, c, r, reqs)
	}
	hkeys := func(k int) []item {
		var out []item
		for i := 0; i < k; i++ {
			out = append(out, item{"pk": s(fmt.Sprint(i))})
		}
		return out
	}
	rkeys := func(k int) []item {
		var out []item
		for i := 0; i < k; i++ {
			out = append(out, item{"pk": s("p"), "sk": n(fmt.Sprint(i))})
		}
		return out
	}
	getAll := func(t *testing.T, in *dynamodb.BatchGetItemInput) map[string][]item {
		t.Helper()
		got := map[string][]item{}
		for {
			out, err := c.BatchGetItem(ctx(t), in)
			mustNoError(t, err)
			for tbl, its := range out.Responses {
				got[tbl] = append(got[tbl], its...)
			}
			if len(out.UnprocessedKeys) == 0 {
				return got
			}
			in.RequestItems = out.UnprocessedKeys
		}
	}
	t.Run("100 keys over two tables", func(t *testing.T) {
		t.Parallel()
		got := getAll(t, &dynamodb.BatchGetItemInput{RequestItems: map[string]types.KeysAndAttributes{
			h: {Keys: hkeys(60), ProjectionExpression: aws.String("#a, m.y"), ExpressionAttributeNames: map[string]string{"#a": "a"}},
			r: {Keys: rkeys(40), ProjectionExpression: aws.String("sk, b"), ConsistentRead: aws.Bool(true)},
		}})
		if len(got[h]) != 60 || len(got[r]) != 40 {
			t.Fatalf("%d and %d items, want 60 and 40", len(got[h]), len(got[r]))
		}
		for _, it := range got[h] {
			if len(it) != 2 || it["a"] == nil || render(it["m"]) != `M{y: N:2}` {
				t.Fatalf("projected item %s, want a and m.y", renderItem(it))
			}
		}
		for _, it := range got[r] {
			if len(it) != 2 || it["sk"] == nil || it["b"] == nil {
				t.Fatalf("item %s, want sk and b", renderItem(it))
			}
		}
	})
	t.Run("101 keys over two tables", func(t *testing.T) {
		t.Parallel()
		_, err := c.BatchGetItem(ctx(t), &dynamodb.BatchGetItemInput{RequestItems: map[string]types.KeysAndAttributes{h: {Keys: hkeys(60)}, r: {Keys: rkeys(41)}}})
		requireValidation(t, err, "Too many items requested for the BatchGetItem call")
	})
	t.Run("one missing table fails the batch", func(t *testing.T) {
		t.Parallel()
		missing := uniqueName(t)
		_, err := c.BatchGetItem(ctx(t), &dynamodb.BatchGetItemInput{RequestItems: map[string]types.KeysAndAttributes{h: {Keys: hkeys(1)}, missing: {Keys: hkeys(1)}}})
		requireAPIError(t, err, "ResourceNotFoundException", "")
		_, err = c.BatchWriteItem(ctx(t), &dynamodb.BatchWriteItemInput{RequestItems: map[string][]types.WriteRequest{
			h:       {{PutRequest: &types.PutRequest{Item: item{"pk": s("written?")}}}},
			missing: {{PutRequest: &types.PutRequest{Item: item{"pk": s("x")}}}},
		}})
		requireAPIError(t, err, "ResourceNotFoundException", "")
		requireItem(t, mustGet(t, c, h, item{"pk": s("written?")}), nil)
	})
	t.Run("25 writes over three tables", func(t *testing.T) {
		t.Parallel()
		h2 := hashTable(t, c)
		var hw, rw, h2w []types.WriteRequest
		for i := 0; i < 10; i++ {
			hw = append(hw, types.WriteRequest{PutRequest: &types.PutRequest{Item: item{"pk": s(fmt.Sprint("new", i))}}})
			h2w = append(h2w, types.WriteRequest{PutRequest: &types.PutRequest{Item: item{"pk": s(fmt.Sprint(i))}}})
		}
		for i := 0; i < 5; i++ {
			rw = append(rw, types.WriteRequest{DeleteRequest: &types.DeleteRequest{Key: item{"pk": s("q"), "sk": n(fmt.Sprint(i))}}})
		}
		out, err := c.BatchWriteItem(ctx(t), &dynamodb.BatchWriteItemInput{RequestItems: map[string][]types.WriteRequest{h: hw, r: rw, h2: h2w}})
		mustNoError(t, err)
		if len(out.UnprocessedItems) != 0 {
			t.Fatalf("UnprocessedItems %v", out.UnprocessedItems)
		}
		requireItem(t, mustGet(t, c, h2, item{"pk": s("9")}), item{"pk": s("9")})
		h2w = append(h2w, types.WriteRequest{PutRequest: &types.PutRequest{Item: item{"pk": s("10")}}})
		_, err = c.BatchWriteItem(ctx(t), &dynamodb.BatchWriteItemInput{RequestItems: map[string][]types.WriteRequest{h: hw, r: rw, h2: h2w}})
		requireValidation(t, err, "Too many items requested for the BatchWriteItem call")
	})
	t.Run("same key in two tables", func(t *testing.T) {
		t.Parallel()
		h2 := hashTable(t, c)
		_, err := c.BatchWriteItem(ctx(t), &dynamodb.BatchWriteItemInput{RequestItems: map[string][]types.WriteRequest{
			h:  {{PutRequest: &types.PutRequest{Item: item{"pk": s("same"), "t": s("h")}}}},
			h2: {{PutRequest: &types.PutRequest{Item: item{"pk": s("same"), "t": s("h2")}}}},
		}})
		mustNoError(t, err)
		requireItem(t, mustGet(t, c, h2, item{"pk": s("same")}), item{"pk": s("same"), "t": s("h2")})
	})
	tests := []struct {
		name string
		call func(t *testing.T) error
		msg  string
	}{
		{"write request with put and delete", func(t *testing.T) error {
			_, err := c.BatchWriteItem(ctx(t), &dynamodb.BatchWriteItemInput{RequestItems: map[string][]types.WriteRequest{h: {{
				PutRequest: &types.PutRequest{Item: item{"pk": s("a")}}, DeleteRequest: &types.DeleteRequest{Key: item{"pk": s("b")}}}}}})
			return err
		}, "Supplied AttributeValue has more than one datatypes set, must contain exactly one of the supported datatypes"},
		{"empty write request", func(t *testing.T) error {
			_, err := c.BatchWriteItem(ctx(t), &dynamodb.BatchWriteItemInput{RequestItems: map[string][]types.WriteRequest{h: {{}}}})
			return err
		}, "Supplied AttributeValue has more than one datatypes set, must contain exactly one of the supported datatypes"},
		// Legacy and expression parameters may not mix even across tables.
		{"batch get projection and AttributesToGet in other tables", func(t *testing.T) error {
			_, err := c.BatchGetItem(ctx(t), &dynamodb.BatchGetItemInput{RequestItems: map[string]types.KeysAndAttributes{
				h: {Keys: hkeys(1), ProjectionExpression: aws.String("a")}, r: {Keys: rkeys(1), AttributesToGet: []string{"a"}}}})
			return err
		}, "Can not use both expression and non-expression parameters in the same request: Non-expression parameters: {AttributesToGet} Expression parameters: {ProjectionExpression}"},
		{"batch get names without projection", func(t *testing.T) error {
			_, err := c.BatchGetItem(ctx(t), &dynamodb.BatchGetItemInput{RequestItems: map[string]types.KeysAndAttributes{
				h: {Keys: hkeys(1), ExpressionAttributeNames: map[string]string{"#a": "a"}}}})
			return err
		}, "ExpressionAttributeNames can only be specified when using expressions"},
		{"batch write item too large", func(t *testing.T) error {
			_, err := c.BatchWriteItem(ctx(t), &dynamodb.BatchWriteItemInput{RequestItems: map[string][]types.WriteRequest{h: {{
				PutRequest: &types.PutRequest{Item: item{"pk": s("big"), "v": s(strings.Repeat("x", 400*1024))}}}}}})
			return err
		}, "Item size has exceeded the maximum allowed size"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			requireValidation(t, tc.call(t), tc.msg)
		})
	}
}
