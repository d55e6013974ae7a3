package conformance

import (
	"encoding/json"
	"io"
	"net/http"
	"sort"
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

// Eventual consistency on demand: a GSI that sees writes late
// and a table whose eventually consistent reads answer the previous
// version, held and released through the emulator's admin endpoint
// (POST /dynamoemu/lag). On AWS both lags happen on their own, briefly
// and not on demand; DynamoDB Local has neither. So these run against
// the emulator only.

// lagControl sends one POST /dynamoemu/lag for c's namespace; it skips
// the test on any endpoint but the in-process emulator.
func lagControl(t *testing.T, c *dynamodb.Client, req map[string]any) {
	t.Helper()
	lagSkipUnlessEmulator(t)
	tg := target(t)
	creds, err := c.Options().Credentials.Retrieve(ctx(t))
	if err != nil {
		t.Fatal(err)
	}
	req["accessKey"], req["region"] = creds.AccessKeyID, c.Options().Region
	body, _ := json.Marshal(req)
	res, err := http.Post(tg.URL+"/dynamoemu/lag", "application/json", strings.NewReader(string(body)))
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	if b, _ := io.ReadAll(res.Body); res.StatusCode != http.StatusOK {
		t.Fatalf("POST /dynamoemu/lag %s: got %d %s", body, res.StatusCode, b)
	}
}

// lagSkipUnlessEmulator skips before any table is made.
func lagSkipUnlessEmulator(t *testing.T) {
	t.Helper()
	if tg := target(t); !tg.InProcess {
		t.Skip("an emulator feature: lag on demand is set through the emulator's admin endpoint; " + tg.Name() + " has none")
	}
}

// lagConfTable creates a table (pk S, sk S) with a GSI "byG" on g.
func lagConfTable(t *testing.T, c *dynamodb.Client) string {
	def := func(n string) types.AttributeDefinition {
		return types.AttributeDefinition{AttributeName: aws.String(n), AttributeType: types.ScalarAttributeTypeS}
	}
	return createTable(t, c, &dynamodb.CreateTableInput{
		AttributeDefinitions: []types.AttributeDefinition{def("pk"), def("sk"), def("g")},
		KeySchema: []types.KeySchemaElement{{AttributeName: aws.String("pk"), KeyType: types.KeyTypeHash},
			{AttributeName: aws.String("sk"), KeyType: types.KeyTypeRange}},
		GlobalSecondaryIndexes: []types.GlobalSecondaryIndex{{IndexName: aws.String("byG"),
			KeySchema:  []types.KeySchemaElement{{AttributeName: aws.String("g"), KeyType: types.KeyTypeHash}},
			Projection: &types.Projection{ProjectionType: types.ProjectionTypeAll}}},
	})
}

// lagSeen lists items as sk=v, sorted.
func lagSeen(items []map[string]types.AttributeValue) string {
	var out []string
	for _, it := range items {
		v := ""
		if m, ok := it["v"].(*types.AttributeValueMemberS); ok {
			v = m.Value
		}
		out = append(out, it["sk"].(*types.AttributeValueMemberS).Value+"="+v)
	}
	sort.Strings(out)
	return strings.Join(out, " ")
}

func TestLagGSIHoldRelease(t *testing.T) {
	lagSkipUnlessEmulator(t)
	c := newClient(t, withAccessKey(uniqueKey(t)))
	name := lagConfTable(t, c)
	put := func(sk, v string) {
		t.Helper()
		_, err := c.PutItem(ctx(t), &dynamodb.PutItemInput{TableName: &name,
			Item: map[string]types.AttributeValue{"pk": s("a"), "sk": s(sk), "g": s("x"), "v": s(v)}})
		if err != nil {
			t.Fatal(err)
		}
	}
	query := func() string {
		t.Helper()
		out, err := c.Query(ctx(t), &dynamodb.QueryInput{TableName: &name, IndexName: aws.String("byG"),
			KeyConditionExpression: aws.String("g = :g"), ExpressionAttributeValues: map[string]types.AttributeValue{":g": s("x")}})
		if err != nil {
			t.Fatal(err)
		}
		return lagSeen(out.Items)
	}
	put("1", "old")
	put("2", "doomed")
	lagControl(t, c, map[string]any{"table": name, "index": "byG", "hold": true})
	t.Cleanup(func() { lagControl(t, c, map[string]any{"table": name, "index": "byG", "delay": "0s"}) })
	put("1", "new")
	if _, err := c.DeleteItem(ctx(t), &dynamodb.DeleteItemInput{TableName: &name,
		Key: map[string]types.AttributeValue{"pk": s("a"), "sk": s("2")}}); err != nil {
		t.Fatal(err)
	}
	if _, err := c.TransactWriteItems(ctx(t), &dynamodb.TransactWriteItemsInput{TransactItems: []types.TransactWriteItem{
		{Put: &types.Put{TableName: &name, Item: map[string]types.AttributeValue{"pk": s("b"), "sk": s("3"), "g": s("x"), "v": s("t")}}},
		{Put: &types.Put{TableName: &name, Item: map[string]types.AttributeValue{"pk": s("b"), "sk": s("4"), "g": s("x"), "v": s("t")}}},
	}}); err != nil {
		t.Fatal(err)
	}
	if got, want := query(), "1=old 2=doomed"; got != want {
		t.Errorf("held: got %q, want %q (the old result: the update, the delete and the transaction not seen)", got, want)
	}
	lagControl(t, c, map[string]any{"table": name, "index": "byG", "release": true})
	if got, want := query(), "1=new 3=t 4=t"; got != want {
		t.Errorf("released: got %q, want %q", got, want)
	}
}

func TestLagEventuallyConsistentReads(t *testing.T) {
	lagSkipUnlessEmulator(t)
	c := newClient(t, withAccessKey(uniqueKey(t)))
	name := lagConfTable(t, c)
	key := map[string]types.AttributeValue{"pk": s("a"), "sk": s("1")}
	put := func(v string) {
		t.Helper()
		if _, err := c.PutItem(ctx(t), &dynamodb.PutItemInput{TableName: &name,
			Item: map[string]types.AttributeValue{"pk": s("a"), "sk": s("1"), "v": s(v)}}); err != nil {
			t.Fatal(err)
		}
	}
	get := func(consistent bool) string {
		t.Helper()
		out, err := c.GetItem(ctx(t), &dynamodb.GetItemInput{TableName: &name, Key: key, ConsistentRead: aws.Bool(consistent)})
		if err != nil {
			t.Fatal(err)
		}
		if out.Item == nil {
			return ""
		}
		return lagSeen([]map[string]types.AttributeValue{out.Item})
	}
	put("old")
	lagControl(t, c, map[string]any{"table": name, "reads": true, "hold": true})
	t.Cleanup(func() { lagControl(t, c, map[string]any{"table": name, "reads": true, "delay": "0s"}) })
	put("new")
	if got, want := get(false)+" | "+get(true), "1=old | 1=new"; got != want {
		t.Errorf("held (eventually | strongly consistent): got %q, want %q", got, want)
	}
	if _, err := c.DeleteItem(ctx(t), &dynamodb.DeleteItemInput{TableName: &name, Key: key}); err != nil {
		t.Fatal(err)
	}
	if got, want := get(false)+" | "+get(true), "1=old | "; got != want {
		t.Errorf("deleted, held: got %q, want %q", got, want)
	}
	lagControl(t, c, map[string]any{"table": name, "reads": true, "release": true})
	if got, want := get(false), ""; got != want {
		t.Errorf("released: got %q, want %q", got, want)
	}
}
