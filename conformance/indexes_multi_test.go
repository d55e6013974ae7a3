package conformance

// Multi-attribute GSI keys: up to four partition key and four sort key
// attributes per global secondary index (AWS developer guide, "Multi-attribute
// keys pattern"; DynamoDB Local 3.3.0 has them). The messages are DynamoDB
// Local's: AWS documents the rules, not the wording.

import (
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

func multiKeySchema(elems ...string) []types.KeySchemaElement {
	var out []types.KeySchemaElement
	for i := 0; i+1 < len(elems); i += 2 {
		out = append(out, types.KeySchemaElement{AttributeName: aws.String(elems[i]), KeyType: types.KeyType(elems[i+1])})
	}
	return out
}

func TestIndexMultiAttributeKeys(t *testing.T) {
	t.Parallel()
	c := newClient(t)
	in := tableDef(keyDef{"pk", "S"}, keyDef{})
	in.AttributeDefinitions = append(in.AttributeDefinitions, ads("tenant", "S", "area", "S", "day", "N", "branch", "S")...)
	in.GlobalSecondaryIndexes = []types.GlobalSecondaryIndex{{
		IndexName:  aws.String("multi"),
		KeySchema:  multiKeySchema("tenant", "HASH", "area", "HASH", "day", "RANGE", "branch", "RANGE"),
		Projection: &types.Projection{ProjectionType: types.ProjectionTypeKeysOnly},
	}}
	table := createTable(t, c, in)

	d := mustDescribe(t, c, table)
	if got := len(d.GlobalSecondaryIndexes); got != 1 || len(d.GlobalSecondaryIndexes[0].KeySchema) != 4 ||
		aws.ToString(d.GlobalSecondaryIndexes[0].KeySchema[1].AttributeName) != "area" {
		t.Fatalf("DescribeTable GSIs: %+v", d.GlobalSecondaryIndexes)
	}
	type row struct{ pk, tenant, area, day, branch string }
	rows := []row{
		{"a", "t1", "eu", "1", "x"}, {"b", "t1", "eu", "1", "y"}, {"c", "t1", "eu", "2", "a"},
		{"d", "t1", "eu", "10", "a"}, {"e", "t1", "us", "1", "x"}, {"f", "t2", "eu", "1", "x"},
		{"g", "t1", "eu", "", "x"}, // no day: not in the index
	}
	for _, r := range rows {
		it := item{"pk": s(r.pk), "tenant": s(r.tenant), "area": s(r.area), "branch": s(r.branch), "other": s("o")}
		if r.day != "" {
			it["day"] = n(r.day)
		}
		mustPut(t, c, table, it)
	}
	query := func(t *testing.T, kc string, vals item, mod ...func(*dynamodb.QueryInput)) (*dynamodb.QueryOutput, error) {
		in := &dynamodb.QueryInput{TableName: &table, IndexName: aws.String("multi"), KeyConditionExpression: aws.String(kc), ExpressionAttributeValues: vals}
		for _, f := range mod {
			f(in)
		}
		return c.Query(ctx(t), in)
	}
	pks := func(items []item) string {
		var out []string
		for _, it := range items {
			out = append(out, it["pk"].(*types.AttributeValueMemberS).Value)
		}
		return strings.Join(out, " ")
	}
	t1eu := item{":t": s("t1"), ":r": s("eu")}
	with := func(base item, more item) item {
		out := item{}
		for k, v := range base {
			out[k] = v
		}
		for k, v := range more {
			out[k] = v
		}
		return out
	}
	tests := []struct {
		name, kc string
		vals     item
		want     string
	}{
		{"partition only, sort order over both sort attributes", "tenant = :t AND area = :r", t1eu, "a b c d"},
		{"partition in any order", "area = :r AND tenant = :t", t1eu, "a b c d"},
		{"first sort attribute equal", "tenant = :t AND area = :r AND #d = :d", with(t1eu, item{":d": n("1")}), "a b"},
		{"first sort attribute range", "tenant = :t AND area = :r AND #d > :d", with(t1eu, item{":d": n("1")}), "c d"},
		{"first sort attribute between", "tenant = :t AND area = :r AND #d BETWEEN :d AND :e", with(t1eu, item{":d": n("2"), ":e": n("10")}), "c d"},
		{"prefix and range on the second", "tenant = :t AND area = :r AND #d = :d AND branch >= :b", with(t1eu, item{":d": n("1"), ":b": s("y")}), "b"},
		{"prefix and begins_with on the second", "tenant = :t AND area = :r AND #d = :d AND begins_with(branch, :b)", with(t1eu, item{":d": n("1"), ":b": s("x")}), "a"},
		{"another partition", "tenant = :t AND area = :r", item{":t": s("t2"), ":r": s("eu")}, "f"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			out, err := query(t, tc.kc, tc.vals, func(in *dynamodb.QueryInput) {
				if strings.Contains(tc.kc, "#d") {
					in.ExpressionAttributeNames = map[string]string{"#d": "day"}
				}
			})
			mustNoError(t, err)
			if got := pks(out.Items); got != tc.want {
				t.Errorf("items %q, want %q", got, tc.want)
			}
		})
	}
	t.Run("backwards", func(t *testing.T) {
		t.Parallel()
		out, err := query(t, "tenant = :t AND area = :r", t1eu, func(in *dynamodb.QueryInput) { in.ScanIndexForward = aws.Bool(false) })
		mustNoError(t, err)
		if got := pks(out.Items); got != "d c b a" {
			t.Errorf("items %q, want %q", got, "d c b a")
		}
	})
	t.Run("paging with every key attribute", func(t *testing.T) {
		t.Parallel()
		var got []item
		var start item
		for range 10 {
			out, err := query(t, "tenant = :t AND area = :r", t1eu, func(in *dynamodb.QueryInput) {
				in.Limit = aws.Int32(3)
				in.ExclusiveStartKey = start
			})
			mustNoError(t, err)
			got = append(got, out.Items...)
			if out.LastEvaluatedKey == nil {
				break
			}
			if len(out.LastEvaluatedKey) != 5 {
				t.Fatalf("LastEvaluatedKey %s, want the table key and the four index key attributes", renderItem(out.LastEvaluatedKey))
			}
			start = out.LastEvaluatedKey
		}
		if p := pks(got); p != "a b c d" {
			t.Errorf("paged items %q, want %q", p, "a b c d")
		}
	})
	t.Run("keys only projection", func(t *testing.T) {
		t.Parallel()
		out, err := query(t, "tenant = :t AND area = :r AND #d = :d AND branch = :b", with(t1eu, item{":d": n("1"), ":b": s("x")}),
			func(in *dynamodb.QueryInput) { in.ExpressionAttributeNames = map[string]string{"#d": "day"} })
		mustNoError(t, err)
		if len(out.Items) != 1 || len(out.Items[0]) != 5 || out.Items[0]["other"] != nil {
			t.Errorf("items %s, want the key attributes of a alone", renderItems(out.Items))
		}
	})
	errs := []struct {
		name, kc string
		vals     item
		msg      string
	}{
		{"a partition attribute missing", "tenant = :t", item{":t": s("t1")}, "HASH key attributes area must have equality conditions specified in the query"},
		{"range on a partition attribute", "tenant = :t AND area > :r", t1eu, "HASH key attributes area must have equality conditions specified in the query"},
		{"a sort attribute skipped", "tenant = :t AND area = :r AND branch = :b", with(t1eu, item{":b": s("x")}),
			"RANGE key attributes day must have equality conditions specified in the query because a condition is present on key attribute branch"},
		{"range before the last", "tenant = :t AND area = :r AND #d > :d AND branch = :b", with(t1eu, item{":d": n("1"), ":b": s("x")}),
			"RANGE key attributes day must have equality conditions specified in the query because a condition is present on key attribute branch"},
	}
	for _, tc := range errs {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			_, err := query(t, tc.kc, tc.vals, func(in *dynamodb.QueryInput) {
				if strings.Contains(tc.kc, "#d") {
					in.ExpressionAttributeNames = map[string]string{"#d": "day"}
				}
			})
			requireValidation(t, err, tc.msg)
		})
	}
}

func TestIndexMultiAttributeKeySchemas(t *testing.T) {
	t.Parallel()
	c := newClient(t)
	tests := []struct {
		name   string
		schema []types.KeySchemaElement
		msg    string // "": accepted
	}{
		{"two hash keys", multiKeySchema("a", "HASH", "b", "HASH"), ""},
		{"four and four", multiKeySchema("a", "HASH", "b", "HASH", "c", "HASH", "d", "HASH", "e", "RANGE", "f", "RANGE", "g", "RANGE", "h", "RANGE"), ""},
		{"five hash keys", multiKeySchema("a", "HASH", "b", "HASH", "c", "HASH", "d", "HASH", "e", "HASH"), "Too many partition keys. GSI can have at most 4 partition keys"},
		{"five range keys", multiKeySchema("a", "HASH", "b", "RANGE", "c", "RANGE", "d", "RANGE", "e", "RANGE", "f", "RANGE"), "Too many sort keys. GSI can have at most 4 sort keys"},
		{"hash after range", multiKeySchema("a", "HASH", "b", "RANGE", "c", "HASH"),
			"Invalid key order. Hash Key must be specified first in key schema, Range Key must be specifed second"},
		{"same name twice", multiKeySchema("a", "HASH", "b", "HASH", "a", "RANGE"), "Two keys can not have the same name"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			in := tableDef(keyDef{"pk", "S"}, keyDef{})
			in.TableName = aws.String(uniqueName(t))
			in.BillingMode = types.BillingModePayPerRequest
			used := map[string]bool{}
			for _, e := range tc.schema {
				if !used[*e.AttributeName] {
					used[*e.AttributeName] = true
					in.AttributeDefinitions = append(in.AttributeDefinitions, ads(*e.AttributeName, "S")...)
				}
			}
			in.GlobalSecondaryIndexes = []types.GlobalSecondaryIndex{{IndexName: aws.String("multi"), KeySchema: tc.schema,
				Projection: &types.Projection{ProjectionType: types.ProjectionTypeAll}}}
			if tc.msg == "" {
				createTable(t, c, in)
				return
			}
			_, err := c.CreateTable(ctx(t), in)
			requireValidation(t, err, tc.msg)
		})
	}
}
