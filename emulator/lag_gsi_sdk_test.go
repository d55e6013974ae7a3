package emulator_test

import (
	"context"
	"fmt"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/dynamoemu/dynamoemu/emulator"
	"github.com/dynamoemu/dynamoemu/emulator/emulatortest"
)

// Eventual consistency on demand (faults/WIRING.md §5): GSI
// propagation lag and stale eventually consistent table reads, through
// aws-sdk-go-v2, moved by the emulator's clock or by Release.

// lagTable creates table name: pk S, sk S, a GSI "byG" on g (S, all
// attributes) and an LSI "byL" on l.
func lagTable(t *testing.T, db *dynamodb.Client, name string) {
	t.Helper()
	s := func(n string) types.AttributeDefinition {
		return types.AttributeDefinition{AttributeName: aws.String(n), AttributeType: types.ScalarAttributeTypeS}
	}
	key := func(n string, kt types.KeyType) types.KeySchemaElement {
		return types.KeySchemaElement{AttributeName: aws.String(n), KeyType: kt}
	}
	_, err := db.CreateTable(context.Background(), &dynamodb.CreateTableInput{
		TableName:            aws.String(name),
		AttributeDefinitions: []types.AttributeDefinition{s("pk"), s("sk"), s("g"), s("l")},
		KeySchema:            []types.KeySchemaElement{key("pk", types.KeyTypeHash), key("sk", types.KeyTypeRange)},
		GlobalSecondaryIndexes: []types.GlobalSecondaryIndex{{IndexName: aws.String("byG"),
			KeySchema:  []types.KeySchemaElement{key("g", types.KeyTypeHash)},
			Projection: &types.Projection{ProjectionType: types.ProjectionTypeAll}}},
		LocalSecondaryIndexes: []types.LocalSecondaryIndex{{IndexName: aws.String("byL"),
			KeySchema:  []types.KeySchemaElement{key("pk", types.KeyTypeHash), key("l", types.KeyTypeRange)},
			Projection: &types.Projection{ProjectionType: types.ProjectionTypeAll}}},
		BillingMode: types.BillingModePayPerRequest,
	})
	if err != nil {
		t.Fatal(err)
	}
}

// lagItem is item (pk, sk) with g, l and v.
func lagItem(pk, sk, g, v string) map[string]types.AttributeValue {
	it := item(pk, sk)
	it["g"] = &types.AttributeValueMemberS{Value: g}
	it["l"] = &types.AttributeValueMemberS{Value: sk}
	it["v"] = &types.AttributeValueMemberS{Value: v}
	return it
}

// lagItems lists items as sk=v, in sk order.
func lagItems(items []map[string]types.AttributeValue) string {
	var out []string
	for _, it := range items {
		out = append(out, it["sk"].(*types.AttributeValueMemberS).Value+"="+it["v"].(*types.AttributeValueMemberS).Value)
	}
	sort.Strings(out)
	return strings.Join(out, " ")
}

// queryG returns what a Query of GSI byG for partition g sees.
func queryG(t *testing.T, db *dynamodb.Client, g string) string {
	t.Helper()
	out, err := db.Query(context.Background(), &dynamodb.QueryInput{TableName: aws.String("tbl"), IndexName: aws.String("byG"),
		KeyConditionExpression:    aws.String("g = :g"),
		ExpressionAttributeValues: map[string]types.AttributeValue{":g": &types.AttributeValueMemberS{Value: g}}})
	if err != nil {
		t.Fatal(err)
	}
	return lagItems(out.Items)
}

func TestGSILagSDK(t *testing.T) {
	ctx := context.Background()
	e, db := emulatortest.NewWith(t, emulator.Options{Clock: stillClock})
	lagTable(t, db, "tbl")
	gate := emulatortest.IndexLag(t, e, db, "tbl", "byG")
	put := func(sk, g, v string) {
		t.Helper()
		if _, err := db.PutItem(ctx, &dynamodb.PutItemInput{TableName: aws.String("tbl"), Item: lagItem("a", sk, g, v)}); err != nil {
			t.Fatal(err)
		}
	}

	// A delay: the write shows once the clock has moved past it.
	gate.SetDelay(200 * time.Millisecond)
	put("1", "x", "old")
	if got := queryG(t, db, "x"); got != "" {
		t.Errorf("right after the write: got %q, want nothing yet", got)
	}
	if _, err := e.Clock().Advance(200 * time.Millisecond); err != nil {
		t.Fatal(err)
	}
	if got, want := queryG(t, db, "x"), "1=old"; got != want {
		t.Errorf("200 ms later: got %q, want %q", got, want)
	}

	// Held: an update, a move to another GSI partition and a delete show
	// only after Release; the table's strongly consistent reads see them
	// at once.
	gate.Hold()
	put("1", "x", "new")
	put("2", "x", "two")
	if _, err := db.DeleteItem(ctx, &dynamodb.DeleteItemInput{TableName: aws.String("tbl"), Key: item("a", "2")}); err != nil {
		t.Fatal(err)
	}
	put("3", "x", "three")
	put("3", "y", "moved")
	if _, err := e.Clock().Advance(time.Hour); err != nil {
		t.Fatal(err)
	}
	if got, want := queryG(t, db, "x"), "1=old"; got != want {
		t.Errorf("held: got %q, want %q", got, want)
	}
	if got := queryG(t, db, "y"); got != "" {
		t.Errorf("held, partition y: got %q, want nothing", got)
	}
	got, err := db.GetItem(ctx, &dynamodb.GetItemInput{TableName: aws.String("tbl"), Key: item("a", "1"), ConsistentRead: aws.Bool(true)})
	if err != nil {
		t.Fatal(err)
	}
	if v := got.Item["v"].(*types.AttributeValueMemberS).Value; v != "new" {
		t.Errorf("table while the GSI is held: got v %q, want new", v)
	}
	// A Scan of the GSI and a PartiQL SELECT on it lag the same way.
	scan, err := db.Scan(ctx, &dynamodb.ScanInput{TableName: aws.String("tbl"), IndexName: aws.String("byG")})
	if err != nil {
		t.Fatal(err)
	}
	if got, want := lagItems(scan.Items), "1=old"; got != want {
		t.Errorf("held, Scan of the GSI: got %q, want %q", got, want)
	}
	sel, err := db.ExecuteStatement(ctx, &dynamodb.ExecuteStatementInput{Statement: aws.String(`SELECT * FROM "tbl"."byG" WHERE g = 'x'`)})
	if err != nil {
		t.Fatal(err)
	}
	if got, want := lagItems(sel.Items), "1=old"; got != want {
		t.Errorf("held, PartiQL on the GSI: got %q, want %q", got, want)
	}

	gate.Release()
	if got, want := queryG(t, db, "x")+" | "+queryG(t, db, "y"), "1=new | 3=moved"; got != want {
		t.Errorf("released: got %q, want %q", got, want)
	}

	// A transaction's writes appear together.
	if _, err := db.TransactWriteItems(ctx, &dynamodb.TransactWriteItemsInput{TransactItems: []types.TransactWriteItem{
		{Put: &types.Put{TableName: aws.String("tbl"), Item: lagItem("b", "4", "z", "t")}},
		{Put: &types.Put{TableName: aws.String("tbl"), Item: lagItem("b", "5", "z", "t")}},
	}}); err != nil {
		t.Fatal(err)
	}
	if got := queryG(t, db, "z"); got != "" {
		t.Errorf("transaction held: got %q, want nothing", got)
	}
	gate.Release()
	if got, want := queryG(t, db, "z"), "4=t 5=t"; got != want {
		t.Errorf("transaction released: got %q, want %q", got, want)
	}

	// An LSI has no lag of its own; a missing index or table is an error.
	for _, idx := range []string{"byL", "nope"} {
		if _, err := e.Lags().Index(emulatortest.AccessKeyOf(t, db), emulatortest.Region, "tbl", idx); err == nil {
			t.Errorf("IndexLag(%q): got no error", idx)
		}
	}
	if _, err := e.Lags().Index(emulatortest.AccessKeyOf(t, db), emulatortest.Region, "nope", "byG"); err == nil {
		t.Error("IndexLag of a missing table: got no error")
	}
}

func TestReadLagSDK(t *testing.T) {
	ctx := context.Background()
	e, db := emulatortest.NewWith(t, emulator.Options{Clock: stillClock})
	lagTable(t, db, "tbl")
	if _, err := db.PutItem(ctx, &dynamodb.PutItemInput{TableName: aws.String("tbl"), Item: lagItem("a", "1", "x", "old")}); err != nil {
		t.Fatal(err)
	}
	gate := emulatortest.ReadLag(t, e, db, "tbl")
	gate.Hold()
	if _, err := db.PutItem(ctx, &dynamodb.PutItemInput{TableName: aws.String("tbl"), Item: lagItem("a", "1", "x", "new")}); err != nil {
		t.Fatal(err)
	}
	if _, err := db.PutItem(ctx, &dynamodb.PutItemInput{TableName: aws.String("tbl"), Item: lagItem("a", "2", "x", "born")}); err != nil {
		t.Fatal(err)
	}

	// Each read, eventually consistent then strongly consistent.
	reads := []struct {
		name string
		read func(consistent bool) string
	}{
		{"GetItem", func(c bool) string {
			out, err := db.GetItem(ctx, &dynamodb.GetItemInput{TableName: aws.String("tbl"), Key: item("a", "1"), ConsistentRead: aws.Bool(c)})
			if err != nil {
				t.Fatal(err)
			}
			return lagItems([]map[string]types.AttributeValue{out.Item})
		}},
		{"BatchGetItem", func(c bool) string {
			out, err := db.BatchGetItem(ctx, &dynamodb.BatchGetItemInput{RequestItems: map[string]types.KeysAndAttributes{
				"tbl": {Keys: []map[string]types.AttributeValue{item("a", "1"), item("a", "2")}, ConsistentRead: aws.Bool(c)}}})
			if err != nil {
				t.Fatal(err)
			}
			return lagItems(out.Responses["tbl"])
		}},
		{"Query", func(c bool) string {
			out, err := db.Query(ctx, &dynamodb.QueryInput{TableName: aws.String("tbl"), ConsistentRead: aws.Bool(c),
				KeyConditionExpression:    aws.String("pk = :p"),
				ExpressionAttributeValues: map[string]types.AttributeValue{":p": &types.AttributeValueMemberS{Value: "a"}}})
			if err != nil {
				t.Fatal(err)
			}
			return lagItems(out.Items)
		}},
		{"Query of the LSI", func(c bool) string {
			out, err := db.Query(ctx, &dynamodb.QueryInput{TableName: aws.String("tbl"), IndexName: aws.String("byL"), ConsistentRead: aws.Bool(c),
				KeyConditionExpression:    aws.String("pk = :p"),
				ExpressionAttributeValues: map[string]types.AttributeValue{":p": &types.AttributeValueMemberS{Value: "a"}}})
			if err != nil {
				t.Fatal(err)
			}
			return lagItems(out.Items)
		}},
		{"Scan", func(c bool) string {
			out, err := db.Scan(ctx, &dynamodb.ScanInput{TableName: aws.String("tbl"), ConsistentRead: aws.Bool(c)})
			if err != nil {
				t.Fatal(err)
			}
			return lagItems(out.Items)
		}},
		{"ExecuteStatement", func(c bool) string {
			out, err := db.ExecuteStatement(ctx, &dynamodb.ExecuteStatementInput{Statement: aws.String(`SELECT * FROM "tbl" WHERE pk = 'a'`), ConsistentRead: aws.Bool(c)})
			if err != nil {
				t.Fatal(err)
			}
			return lagItems(out.Items)
		}},
	}
	wantStale := map[string]string{"GetItem": "1=old", "BatchGetItem": "1=old"}
	wantNew := map[string]string{"GetItem": "1=new", "BatchGetItem": "1=new 2=born"}
	for _, r := range reads {
		stale, fresh := cmpOr(wantStale[r.name], "1=old"), cmpOr(wantNew[r.name], "1=new 2=born")
		if got := r.read(false); got != stale {
			t.Errorf("%s, eventually consistent, held: got %q, want %q", r.name, got, stale)
		}
		if got := r.read(true); got != fresh {
			t.Errorf("%s, strongly consistent, held: got %q, want %q", r.name, got, fresh)
		}
	}
	// A transaction reads the latest too.
	tg, err := db.TransactGetItems(ctx, &dynamodb.TransactGetItemsInput{TransactItems: []types.TransactGetItem{
		{Get: &types.Get{TableName: aws.String("tbl"), Key: item("a", "1")}}}})
	if err != nil {
		t.Fatal(err)
	}
	if got, want := lagItems([]map[string]types.AttributeValue{tg.Responses[0].Item}), "1=new"; got != want {
		t.Errorf("TransactGetItems, held: got %q, want %q", got, want)
	}

	gate.Release()
	for _, r := range reads {
		if got, want := r.read(false), cmpOr(wantNew[r.name], "1=new 2=born"); got != want {
			t.Errorf("%s, eventually consistent, released: got %q, want %q", r.name, got, want)
		}
	}

	// With a delay, a delete shows once the clock has moved past it.
	gate.SetDelay(time.Second)
	if _, err := db.DeleteItem(ctx, &dynamodb.DeleteItemInput{TableName: aws.String("tbl"), Key: item("a", "2")}); err != nil {
		t.Fatal(err)
	}
	if got, want := reads[2].read(false), "1=new 2=born"; got != want {
		t.Errorf("deleted, before the delay: got %q, want %q", got, want)
	}
	if _, err := e.Clock().Advance(time.Second); err != nil {
		t.Fatal(err)
	}
	if got, want := reads[2].read(false), "1=new"; got != want {
		t.Errorf("deleted, after the delay: got %q, want %q", got, want)
	}
}

func cmpOr(a, b string) string {
	if a != "" {
		return a
	}
	return b
}

// TestLagSDKConcurrent (run with -race): transactions writing pairs of
// items through the SDK while another goroutine releases both gates and
// readers query the GSI and read eventually consistently: a pair is
// always seen whole, and once released every view matches the table.
func TestLagSDKConcurrent(t *testing.T) {
	ctx := context.Background()
	e, db := emulatortest.NewWith(t, emulator.Options{})
	lagTable(t, db, "tbl")
	ig := emulatortest.IndexLag(t, e, db, "tbl", "byG")
	rg := emulatortest.ReadLag(t, e, db, "tbl")
	ig.Hold()
	rg.Hold()
	var writers, bg sync.WaitGroup
	stop := make(chan struct{})
	for w := range 3 {
		writers.Add(1)
		go func() {
			defer writers.Done()
			p := fmt.Sprint("w", w)
			for i := range 40 {
				v := fmt.Sprint(i)
				if _, err := db.TransactWriteItems(ctx, &dynamodb.TransactWriteItemsInput{TransactItems: []types.TransactWriteItem{
					{Put: &types.Put{TableName: aws.String("tbl"), Item: lagItem(p, "1", p, v)}},
					{Put: &types.Put{TableName: aws.String("tbl"), Item: lagItem(p, "2", p, v)}},
				}}); err != nil {
					t.Error(err)
					return
				}
			}
		}()
	}
	bg.Add(2)
	go func() {
		defer bg.Done()
		for {
			select {
			case <-stop:
				return
			case <-time.After(time.Millisecond):
				ig.Release()
				rg.Release()
			}
		}
	}()
	whole := func(what, got string) {
		if f := strings.Fields(got); len(f) == 2 && f[0][2:] != f[1][2:] || len(f) == 1 {
			t.Errorf("%s: got %q, half of a transaction", what, got)
		}
	}
	go func() {
		defer bg.Done()
		for {
			select {
			case <-stop:
				return
			default:
			}
			for w := range 3 {
				p := fmt.Sprint("w", w)
				whole("GSI "+p, queryG(t, db, p))
				out, err := db.Query(ctx, &dynamodb.QueryInput{TableName: aws.String("tbl"), KeyConditionExpression: aws.String("pk = :p"),
					ExpressionAttributeValues: map[string]types.AttributeValue{":p": &types.AttributeValueMemberS{Value: p}}})
				if err != nil {
					t.Error(err)
					return
				}
				whole("table "+p, lagItems(out.Items))
			}
		}
	}()
	writers.Wait()
	close(stop)
	bg.Wait()
	ig.Release()
	rg.Release()
	for w := range 3 {
		p := fmt.Sprint("w", w)
		if got, want := queryG(t, db, p), "1=39 2=39"; got != want {
			t.Errorf("GSI %s released: got %q, want %q", p, got, want)
		}
	}
}

// TestLagSettingsSDK: Options.Faults.Lags (cmd/dynamoemu's -lag) lag the
// tables of that name from their creation: a GSI held, the eventually
// consistent reads delayed, and a GSI added later by UpdateTable lagged
// too ("*"); the gates are the ones Lags.Index and Lags.Reads return.
func TestLagSettingsSDK(t *testing.T) {
	ctx := context.Background()
	e, db := emulatortest.NewWith(t, emulator.Options{Clock: stillClock, Faults: emulator.FaultOptions{Lags: []emulator.LagSetting{
		{Table: "tbl", Index: "*", Hold: true},
		{Table: "tbl", Reads: true, Delay: time.Second},
		{Table: "tbl", Stream: true, Hold: true},
	}}})
	lagTable(t, db, "tbl")
	lagTable(t, db, "other")
	for _, table := range []string{"tbl", "other"} {
		if _, err := db.PutItem(ctx, &dynamodb.PutItemInput{TableName: aws.String(table), Item: lagItem("a", "1", "x", "v")}); err != nil {
			t.Fatal(err)
		}
	}
	if got := queryG(t, db, "x"); got != "" {
		t.Errorf("GSI of tbl, held from creation: got %q, want nothing", got)
	}
	out, err := db.Query(ctx, &dynamodb.QueryInput{TableName: aws.String("other"), IndexName: aws.String("byG"),
		KeyConditionExpression:    aws.String("g = :g"),
		ExpressionAttributeValues: map[string]types.AttributeValue{":g": &types.AttributeValueMemberS{Value: "x"}}})
	if err != nil || out.Count != 1 {
		t.Errorf("GSI of another table: got %v items (%v), want 1", out.Count, err)
	}
	get := func() int {
		out, err := db.GetItem(ctx, &dynamodb.GetItemInput{TableName: aws.String("tbl"), Key: item("a", "1")})
		if err != nil {
			t.Fatal(err)
		}
		return len(out.Item)
	}
	if n := get(); n != 0 {
		t.Errorf("eventually consistent GetItem, 1 s lag: got %d attributes, want no item", n)
	}
	if _, err := e.Clock().Advance(time.Second); err != nil {
		t.Fatal(err)
	}
	if n := get(); n == 0 {
		t.Error("eventually consistent GetItem 1 s later: got no item")
	}
	ak := emulatortest.AccessKeyOf(t, db)
	g, err := e.Lags().Index(ak, emulatortest.Region, "tbl", "byG")
	if err != nil {
		t.Fatal(err)
	}
	g.Release()
	if got, want := queryG(t, db, "x"), "1=v"; got != want {
		t.Errorf("GSI released: got %q, want %q", got, want)
	}

	// A GSI added later is held too.
	_, err = db.UpdateTable(ctx, &dynamodb.UpdateTableInput{TableName: aws.String("tbl"),
		AttributeDefinitions: []types.AttributeDefinition{{AttributeName: aws.String("h"), AttributeType: types.ScalarAttributeTypeS}},
		GlobalSecondaryIndexUpdates: []types.GlobalSecondaryIndexUpdate{{Create: &types.CreateGlobalSecondaryIndexAction{
			IndexName:  aws.String("byH"),
			KeySchema:  []types.KeySchemaElement{{AttributeName: aws.String("h"), KeyType: types.KeyTypeHash}},
			Projection: &types.Projection{ProjectionType: types.ProjectionTypeAll}}}}})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := e.Clock().Advance(time.Hour); err != nil { // the GSI's creation
		t.Fatal(err)
	}
	it := lagItem("a", "2", "x", "v")
	it["h"] = &types.AttributeValueMemberS{Value: "y"}
	if _, err := db.PutItem(ctx, &dynamodb.PutItemInput{TableName: aws.String("tbl"), Item: it}); err != nil {
		t.Fatal(err)
	}
	queryH := func() int32 {
		out, err := db.Query(ctx, &dynamodb.QueryInput{TableName: aws.String("tbl"), IndexName: aws.String("byH"),
			KeyConditionExpression:    aws.String("h = :h"),
			ExpressionAttributeValues: map[string]types.AttributeValue{":h": &types.AttributeValueMemberS{Value: "y"}}})
		if err != nil {
			t.Fatal(err)
		}
		return out.Count
	}
	if n := queryH(); n != 0 {
		t.Errorf("GSI added later, held: got %d items, want 0", n)
	}
	gh, err := e.Lags().Index(ak, emulatortest.Region, "tbl", "byH")
	if err != nil {
		t.Fatal(err)
	}
	gh.Release()
	if n := queryH(); n != 1 {
		t.Errorf("GSI added later, released: got %d items, want 1", n)
	}
	// A stream enabled later is held: its write waits for a Release.
	if _, err := db.UpdateTable(ctx, &dynamodb.UpdateTableInput{TableName: aws.String("tbl"),
		StreamSpecification: &types.StreamSpecification{StreamEnabled: aws.Bool(true), StreamViewType: types.StreamViewTypeKeysOnly}}); err != nil {
		t.Fatal(err)
	}
	if _, err := db.PutItem(ctx, &dynamodb.PutItemInput{TableName: aws.String("tbl"), Item: lagItem("a", "3", "x", "v")}); err != nil {
		t.Fatal(err)
	}
	gs, err := e.Lags().Stream(ak, emulatortest.Region, "tbl")
	if err != nil {
		t.Fatal(err)
	}
	if n := gs.Pending(); n != 1 {
		t.Errorf("stream enabled later: got %d records held, want 1", n)
	}
}

// TestGSILagMultiAttributeSDK: a GSI keyed by two HASH attributes (the
// multi-attribute query path) lags as a one-attribute GSI does.
func TestGSILagMultiAttributeSDK(t *testing.T) {
	ctx := context.Background()
	e, db := emulatortest.NewWith(t, emulator.Options{Clock: stillClock})
	s := func(n string) types.AttributeDefinition {
		return types.AttributeDefinition{AttributeName: aws.String(n), AttributeType: types.ScalarAttributeTypeS}
	}
	hash := func(n string) types.KeySchemaElement {
		return types.KeySchemaElement{AttributeName: aws.String(n), KeyType: types.KeyTypeHash}
	}
	if _, err := db.CreateTable(ctx, &dynamodb.CreateTableInput{
		TableName:            aws.String("multi"),
		AttributeDefinitions: []types.AttributeDefinition{s("pk"), s("a"), s("b")},
		KeySchema:            []types.KeySchemaElement{hash("pk")},
		GlobalSecondaryIndexes: []types.GlobalSecondaryIndex{{IndexName: aws.String("byAB"),
			KeySchema:  []types.KeySchemaElement{hash("a"), hash("b")},
			Projection: &types.Projection{ProjectionType: types.ProjectionTypeAll}}},
		BillingMode: types.BillingModePayPerRequest,
	}); err != nil {
		t.Fatal(err)
	}
	emulatortest.IndexLag(t, e, db, "multi", "byAB").SetDelay(time.Second)
	if _, err := db.PutItem(ctx, &dynamodb.PutItemInput{TableName: aws.String("multi"), Item: map[string]types.AttributeValue{
		"pk": &types.AttributeValueMemberS{Value: "1"}, "a": &types.AttributeValueMemberS{Value: "x"}, "b": &types.AttributeValueMemberS{Value: "y"}}}); err != nil {
		t.Fatal(err)
	}
	query := func() int32 {
		out, err := db.Query(ctx, &dynamodb.QueryInput{TableName: aws.String("multi"), IndexName: aws.String("byAB"),
			KeyConditionExpression: aws.String("a = :a AND b = :b"),
			ExpressionAttributeValues: map[string]types.AttributeValue{":a": &types.AttributeValueMemberS{Value: "x"},
				":b": &types.AttributeValueMemberS{Value: "y"}}})
		if err != nil {
			t.Fatal(err)
		}
		return out.Count
	}
	if n := query(); n != 0 {
		t.Errorf("right after the write: got %d items, want 0", n)
	}
	if _, err := e.Clock().Advance(time.Second); err != nil {
		t.Fatal(err)
	}
	if n := query(); n != 1 {
		t.Errorf("1 s later: got %d items, want 1", n)
	}
}
