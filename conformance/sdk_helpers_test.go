package conformance

// SDK behaviours users rely on: the table waiters, attributevalue Marshal/Unmarshal
// round trips of Go structs through the endpoint, and the paginators walking to the end.

import (
	"fmt"
	"math"
	"reflect"
	"sort"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/attributevalue"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

func TestTableWaiters(t *testing.T) {
	t.Parallel()
	c := newClient(t)
	name := uniqueName(t)
	in := tableDef(keyDef{"pk", "S"}, keyDef{})
	in.TableName = aws.String(name)
	in.BillingMode = types.BillingModePayPerRequest
	_, err := c.CreateTable(ctx(t), in)
	mustNoError(t, err)
	t.Cleanup(func() { deleteTable(t, c, name) })

	out, err := dynamodb.NewTableExistsWaiter(c, func(o *dynamodb.TableExistsWaiterOptions) {
		o.MinDelay = 100 * time.Millisecond
		o.MaxDelay = time.Second
	}).WaitForOutput(ctx(t), &dynamodb.DescribeTableInput{TableName: &name}, 2*time.Minute)
	mustNoError(t, err)
	if out.Table == nil || out.Table.TableStatus != types.TableStatusActive || aws.ToString(out.Table.TableName) != name {
		t.Fatalf("waiter output %+v, want ACTIVE %s", out.Table, name)
	}
	mustPut(t, c, name, item{"pk": s("usable")})

	_, err = c.DeleteTable(ctx(t), &dynamodb.DeleteTableInput{TableName: &name})
	mustNoError(t, err)
	err = dynamodb.NewTableNotExistsWaiter(c, func(o *dynamodb.TableNotExistsWaiterOptions) {
		o.MinDelay = 100 * time.Millisecond
		o.MaxDelay = time.Second
	}).Wait(ctx(t), &dynamodb.DescribeTableInput{TableName: &name}, 2*time.Minute)
	mustNoError(t, err)
	_, err = c.DescribeTable(ctx(t), &dynamodb.DescribeTableInput{TableName: &name})
	requireAPIError(t, err, "ResourceNotFoundException", "")

	// A waiter for a table that never appears gives up with an error at its deadline.
	never := uniqueName(t)
	err = dynamodb.NewTableExistsWaiter(c, func(o *dynamodb.TableExistsWaiterOptions) {
		o.MinDelay = 100 * time.Millisecond
		o.MaxDelay = 200 * time.Millisecond
	}).Wait(ctx(t), &dynamodb.DescribeTableInput{TableName: &never}, 1*time.Second)
	if err == nil {
		t.Fatalf("TableExists waiter for a missing table returned no error")
	}
}

type avAddress struct {
	Street string
	Zip    int `dynamodbav:"zip"`
}

type avEmbedded struct {
	Tenant string
}

type avRecord struct {
	avEmbedded
	PK        string             `dynamodbav:"pk"`
	Name      string             `dynamodbav:"name"`
	Empty     string             `dynamodbav:"empty"`
	Skipped   string             `dynamodbav:"-"`
	Omitted   string             `dynamodbav:"omitted,omitempty"`
	Count     int                `dynamodbav:"count"`
	Big       int64              `dynamodbav:"big"`
	Unsigned  uint64             `dynamodbav:"unsigned"`
	Ratio     float64            `dynamodbav:"ratio"`
	Flag      bool               `dynamodbav:"flag"`
	Data      []byte             `dynamodbav:"data"`
	Tags      []string           `dynamodbav:"tags"`
	TagSet    []string           `dynamodbav:"tagset,stringset"`
	NumSet    []int              `dynamodbav:"numset,numberset"`
	BinSet    [][]byte           `dynamodbav:"binset"`
	Scores    map[string]int     `dynamodbav:"scores"`
	Address   avAddress          `dynamodbav:"address"`
	Previous  *avAddress         `dynamodbav:"previous"`
	Nothing   *avAddress         `dynamodbav:"nothing,omitempty"`
	When      time.Time          `dynamodbav:"when"`
	WhenEpoch time.Time          `dynamodbav:"when_epoch,unixtime"`
	Any       map[string]any     `dynamodbav:"any"`
	Nested    []map[string][]int `dynamodbav:"nested"`
	NilSlice  []string           `dynamodbav:"nil_slice"`
}

func TestAttributeValueRoundTrip(t *testing.T) {
	t.Parallel()
	c := newClient(t)
	table := hashTable(t, c)
	rec := avRecord{
		avEmbedded: avEmbedded{Tenant: "acme"},
		PK:         "rec#1",
		Name:       "Ünïcode ✓",
		Skipped:    "not stored",
		Count:      -42,
		Big:        math.MaxInt64,
		Unsigned:   math.MaxUint64,
		Ratio:      0.1,
		Flag:       true,
		Data:       []byte{0, 1, 2, 254, 255},
		Tags:       []string{"b", "a", "b"},
		TagSet:     []string{"x", "y"},
		NumSet:     []int{3, 1, 2},
		BinSet:     [][]byte{{1}, {2}},
		Scores:     map[string]int{"math": 90, "art": -1},
		Address:    avAddress{Street: "Main", Zip: 12345},
		Previous:   &avAddress{Street: "Old"},
		When:       time.Date(2024, 2, 29, 23, 59, 58, 123456789, time.UTC),
		WhenEpoch:  time.Unix(1700000000, 0),
		Any:        map[string]any{"s": "str", "n": 1.5, "b": true, "l": []any{"x", 2.0}, "m": map[string]any{"k": "v"}, "null": nil},
		Nested:     []map[string][]int{{"a": {1, 2}}, {}},
	}
	av, err := attributevalue.MarshalMap(rec)
	mustNoError(t, err)
	// The marshaled shape: what a user expects the SDK to send.
	wantTypes := map[string]string{"pk": "S", "Tenant": "S", "empty": "S", "count": "N", "big": "N", "unsigned": "N", "ratio": "N", "flag": "BOOL", "data": "B",
		"tags": "L", "tagset": "SS", "numset": "NS", "binset": "BS", "scores": "M", "address": "M", "previous": "M", "when": "S", "when_epoch": "N",
		"any": "M", "nested": "L", "nil_slice": "NULL", "name": "S"}
	for k, typ := range wantTypes {
		if got := fmt.Sprintf("%T", av[k]); got != "*types.AttributeValueMember"+typ {
			t.Errorf("attribute %s marshaled as %s, want %s", k, got, typ)
		}
	}
	for _, k := range []string{"Skipped", "omitted", "nothing"} {
		if _, ok := av[k]; ok {
			t.Errorf("attribute %s marshaled, want it left out", k)
		}
	}
	_, err = c.PutItem(ctx(t), &dynamodb.PutItemInput{TableName: &table, Item: av})
	mustNoError(t, err)
	got := mustGet(t, c, table, item{"pk": s("rec#1")})
	requireItem(t, got, av)

	var back avRecord
	mustNoError(t, attributevalue.UnmarshalMap(got, &back))
	want := rec
	want.Skipped = ""
	sort.Strings(back.TagSet) // sets come back in any order
	sort.Ints(back.NumSet)
	sort.Ints(want.NumSet)
	sort.Slice(back.BinSet, func(i, j int) bool { return string(back.BinSet[i]) < string(back.BinSet[j]) })
	if !back.When.Equal(want.When) || !back.WhenEpoch.Equal(want.WhenEpoch) {
		t.Fatalf("times: got %v %v, want %v %v", back.When, back.WhenEpoch, want.When, want.WhenEpoch)
	}
	back.When, want.When, back.WhenEpoch, want.WhenEpoch = time.Time{}, time.Time{}, time.Time{}, time.Time{}
	if !reflect.DeepEqual(back, want) {
		t.Fatalf("round trip:\n got %+v\nwant %+v", back, want)
	}

	// Lists of items from Query unmarshal the same way.
	for i := 0; i < 3; i++ {
		r := avRecord{PK: fmt.Sprint("list#", i), Count: i, TagSet: []string{"t"}}
		av, err := attributevalue.MarshalMap(r)
		mustNoError(t, err)
		mustPut(t, c, table, av)
	}
	out, err := c.Scan(ctx(t), &dynamodb.ScanInput{TableName: &table, FilterExpression: aws.String("begins_with(pk, :p)"),
		ExpressionAttributeValues: item{":p": s("list#")}, ConsistentRead: aws.Bool(true)})
	mustNoError(t, err)
	var list []avRecord
	mustNoError(t, attributevalue.UnmarshalListOfMaps(out.Items, &list))
	sort.Slice(list, func(i, j int) bool { return list[i].Count < list[j].Count })
	if len(list) != 3 || list[2].PK != "list#2" || list[2].Count != 2 || !reflect.DeepEqual(list[1].TagSet, []string{"t"}) {
		t.Fatalf("UnmarshalListOfMaps: %+v", list)
	}

	// Keys and expression values marshal with attributevalue.Marshal too.
	key, err := attributevalue.Marshal("rec#1")
	mustNoError(t, err)
	zip, err := attributevalue.Marshal(12345)
	mustNoError(t, err)
	_, err = c.UpdateItem(ctx(t), &dynamodb.UpdateItemInput{TableName: &table, Key: item{"pk": key}, UpdateExpression: aws.String("SET #c = #c + :one"),
		ConditionExpression: aws.String("address.zip = :zip"), ExpressionAttributeNames: map[string]string{"#c": "count"},
		ExpressionAttributeValues: item{":zip": zip, ":one": n("1")}})
	mustNoError(t, err)
	var after struct {
		Count int `dynamodbav:"count"`
	}
	mustNoError(t, attributevalue.UnmarshalMap(mustGet(t, c, table, item{"pk": key}), &after))
	if after.Count != -41 {
		t.Fatalf("count after update = %d, want -41", after.Count)
	}
}

func TestPaginatorsWalkToTheEnd(t *testing.T) {
	t.Parallel()
	c := newClient(t)
	table := rangeTable(t, c)
	var reqs []types.WriteRequest
	for i := 0; i < 10; i++ {
		reqs = append(reqs, types.WriteRequest{PutRequest: &types.PutRequest{Item: item{"pk": s("p"), "sk": n(fmt.Sprint(i)), "odd": bl(i%2 == 1)}}})
	}
	mustBatchWrite(t, c, table, reqs)
	mustPut(t, c, table, item{"pk": s("other"), "sk": n("0")})

	tests := []struct {
		name      string
		limit     int32
		filter    bool
		backward  bool
		wantPages []int // items per page
	}{
		{name: "limit 3", limit: 3, wantPages: []int{3, 3, 3, 1}},
		// A page that ends on the last item still has a LastEvaluatedKey: one more, empty, page.
		{name: "limit 5", limit: 5, wantPages: []int{5, 5, 0}},
		{name: "no limit", wantPages: []int{10}},
		{name: "limit 4 backward", limit: 4, backward: true, wantPages: []int{4, 4, 2}},
		{name: "limit 4 filtered", limit: 4, filter: true, wantPages: []int{2, 2, 1}},
	}
	for _, tc := range tests {
		t.Run("query "+tc.name, func(t *testing.T) {
			t.Parallel()
			in := &dynamodb.QueryInput{TableName: &table, KeyConditionExpression: aws.String("pk = :p"), ExpressionAttributeValues: item{":p": s("p")},
				ScanIndexForward: aws.Bool(!tc.backward)}
			if tc.limit > 0 {
				in.Limit = aws.Int32(tc.limit)
			}
			if tc.filter {
				in.FilterExpression = aws.String("odd = :t")
				in.ExpressionAttributeValues[":t"] = bl(true)
			}
			p := dynamodb.NewQueryPaginator(c, in)
			var pages []int
			var all []item
			for p.HasMorePages() {
				page, err := p.NextPage(ctx(t))
				mustNoError(t, err)
				pages = append(pages, len(page.Items))
				all = append(all, page.Items...)
				if len(pages) > 20 {
					t.Fatalf("paginator does not stop")
				}
			}
			if fmt.Sprint(pages) != fmt.Sprint(tc.wantPages) {
				t.Fatalf("pages %v, want %v", pages, tc.wantPages)
			}
			want := "0 1 2 3 4 5 6 7 8 9"
			if tc.filter {
				want = "1 3 5 7 9"
			}
			if tc.backward {
				want = "9 8 7 6 5 4 3 2 1 0"
			}
			if got := sortKeys(all); got != want {
				t.Fatalf("items %s, want %s", got, want)
			}
		})
	}
	t.Run("query paginator limit option", func(t *testing.T) {
		t.Parallel()
		p := dynamodb.NewQueryPaginator(c, &dynamodb.QueryInput{TableName: &table, KeyConditionExpression: aws.String("pk = :p"), ExpressionAttributeValues: item{":p": s("p")}},
			func(o *dynamodb.QueryPaginatorOptions) { o.Limit = 6 })
		var pages []int
		for p.HasMorePages() {
			page, err := p.NextPage(ctx(t))
			mustNoError(t, err)
			pages = append(pages, len(page.Items))
		}
		if fmt.Sprint(pages) != "[6 4]" {
			t.Fatalf("pages %v, want [6 4]", pages)
		}
	})
	t.Run("scan", func(t *testing.T) {
		t.Parallel()
		p := dynamodb.NewScanPaginator(c, &dynamodb.ScanInput{TableName: &table, Limit: aws.Int32(4)})
		var pages, items int
		for p.HasMorePages() {
			page, err := p.NextPage(ctx(t))
			mustNoError(t, err)
			pages++
			items += len(page.Items)
		}
		// 11 items, 4 a page: 4 + 4 + 3.
		if pages != 3 || items != 11 {
			t.Fatalf("%d items in %d pages, want 11 in 3", items, pages)
		}
	})
	t.Run("scan segments", func(t *testing.T) {
		t.Parallel()
		seen := map[string]bool{}
		for seg := int32(0); seg < 3; seg++ {
			p := dynamodb.NewScanPaginator(c, &dynamodb.ScanInput{TableName: &table, Limit: aws.Int32(2), Segment: aws.Int32(seg), TotalSegments: aws.Int32(3)})
			for p.HasMorePages() {
				page, err := p.NextPage(ctx(t))
				mustNoError(t, err)
				for _, it := range page.Items {
					k := renderItem(it)
					if seen[k] {
						t.Fatalf("%s seen twice", k)
					}
					seen[k] = true
				}
			}
		}
		if len(seen) != 11 {
			t.Fatalf("%d items over 3 segments, want 11", len(seen))
		}
	})
	t.Run("scan count", func(t *testing.T) {
		t.Parallel()
		p := dynamodb.NewScanPaginator(c, &dynamodb.ScanInput{TableName: &table, Limit: aws.Int32(3), Select: types.SelectCount,
			FilterExpression: aws.String("odd = :t"), ExpressionAttributeValues: item{":t": bl(true)}})
		var count, scanned int32
		for p.HasMorePages() {
			page, err := p.NextPage(ctx(t))
			mustNoError(t, err)
			count += page.Count
			scanned += page.ScannedCount
		}
		if count != 5 || scanned != 11 {
			t.Fatalf("Count %d ScannedCount %d, want 5, 11", count, scanned)
		}
	})
}

func TestListTablesPaginator(t *testing.T) {
	t.Parallel()
	if !isolatedNamespaces(t) {
		t.Skip("needs a namespace of its own")
	}
	c := newClient(t, withAccessKey(uniqueKey(t)))
	var want []string
	for i := 0; i < 5; i++ {
		want = append(want, hashTable(t, c))
	}
	sort.Strings(want)
	p := dynamodb.NewListTablesPaginator(c, &dynamodb.ListTablesInput{Limit: aws.Int32(2)})
	var got []string
	pages := 0
	for p.HasMorePages() {
		page, err := p.NextPage(ctx(t))
		mustNoError(t, err)
		pages++
		got = append(got, page.TableNames...)
	}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Fatalf("tables %v, want %v", got, want)
	}
	if pages != 3 {
		t.Fatalf("%d pages, want 3", pages)
	}
}
