package conformance

// Multi-attribute GSI keys: a GSI partition key and sort key made of up to
// four attributes each (AWS Developer Guide, "Multi-attribute keys
// pattern", GSI.DesignPattern.MultiAttributeKeys). DynamoDB Local 3.3.0
// supports them; the messages below are its words, the AWS pages found
// give the rules but not the texts.

import (
	"fmt"
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

// multiKeyGSI is a GSI on the hash attributes, then the range attributes.
func multiKeyGSI(name string, hash, rng []string) types.GlobalSecondaryIndex {
	var schema []types.KeySchemaElement
	for _, h := range hash {
		schema = append(schema, types.KeySchemaElement{AttributeName: aws.String(h), KeyType: types.KeyTypeHash})
	}
	for _, r := range rng {
		schema = append(schema, types.KeySchemaElement{AttributeName: aws.String(r), KeyType: types.KeyTypeRange})
	}
	return types.GlobalSecondaryIndex{IndexName: aws.String(name), KeySchema: schema, Projection: &types.Projection{ProjectionType: types.ProjectionTypeAll}}
}

func TestIndexMultiAttributeKeys(t *testing.T) {
	t.Parallel()
	c := newClient(t)
	// Tournament matches: partition (tournament, region), sort (round, bracket).
	in := tableDef(keyDef{"pk", "S"}, keyDef{})
	in.AttributeDefinitions = append(in.AttributeDefinitions, ads("t", "S", "r", "S", "rd", "N", "br", "S")...)
	in.GlobalSecondaryIndexes = []types.GlobalSecondaryIndex{multiKeyGSI("byMatch", []string{"t", "r"}, []string{"rd", "br"})}
	table := createTable(t, c, in)
	if got := keySchemaString(mustDescribe(t, c, table).GlobalSecondaryIndexes[0].KeySchema); got != "t:HASH,r:HASH,rd:RANGE,br:RANGE" {
		t.Fatalf("KeySchema: got %s", got)
	}
	for _, m := range []struct{ pk, t, r, rd, br string }{
		{"m1", "W24", "NA", "1", "UP"}, {"m2", "W24", "NA", "1", "LO"}, {"m3", "W24", "NA", "2", "UP"},
		{"m4", "W24", "EU", "1", "UP"}, {"m5", "S25", "NA", "1", "UP"}, {"m6", "W24", "NA", "10", "UP"},
	} {
		mustPut(t, c, table, item{"pk": s(m.pk), "t": s(m.t), "r": s(m.r), "rd": n(m.rd), "br": s(m.br)})
	}
	// Without every key attribute an item is in no index.
	mustPut(t, c, table, item{"pk": s("no region"), "t": s("W24"), "rd": n("1"), "br": s("UP")})
	mustPut(t, c, table, item{"pk": s("no bracket"), "t": s("W24"), "r": s("NA"), "rd": n("1")})

	v := func(kv ...string) item {
		out := item{}
		for i := 0; i+1 < len(kv); i += 2 {
			if kv[i] == ":rd" || kv[i] == ":lo" || kv[i] == ":hi" {
				out[kv[i]] = n(kv[i+1])
			} else {
				out[kv[i]] = s(kv[i+1])
			}
		}
		return out
	}
	na := []string{":t", "W24", ":r", "NA"}
	tests := []struct {
		cond   string
		values item
		want   string // pk, ascending
	}{
		{"t = :t AND r = :r", v(na...), "m2 m1 m3 m6"},
		{"r = :r AND t = :t", v(na...), "m2 m1 m3 m6"},
		{"t = :t AND r = :r AND rd = :rd", v(append(na, ":rd", "1")...), "m2 m1"},
		{"t = :t AND r = :r AND rd > :rd", v(append(na, ":rd", "1")...), "m3 m6"},
		{"t = :t AND r = :r AND rd BETWEEN :lo AND :hi", v(append(na, ":lo", "1", ":hi", "2")...), "m2 m1 m3"},
		{"t = :t AND r = :r AND rd = :rd AND br = :br", v(append(na, ":rd", "1", ":br", "UP")...), "m1"},
		{"t = :t AND r = :r AND rd = :rd AND begins_with(br, :br)", v(append(na, ":rd", "1", ":br", "L")...), "m2"},
		{"t = :t AND r = :r AND br > :br AND rd = :rd", v(append(na, ":rd", "1", ":br", "M")...), "m1"},
		{"t = :t AND r = :r", v(":t", "W24", ":r", "EU"), "m4"},
		{"t = :t AND r = :r", v(":t", "S25", ":r", "EU"), ""},
	}
	for _, tc := range tests {
		t.Run(tc.cond+" "+renderItem(tc.values), func(t *testing.T) {
			t.Parallel()
			for _, forward := range []bool{true, false} {
				out, err := c.Query(ctx(t), &dynamodb.QueryInput{TableName: &table, IndexName: aws.String("byMatch"),
					KeyConditionExpression: aws.String(tc.cond), ExpressionAttributeValues: tc.values, ScanIndexForward: aws.Bool(forward)})
				mustNoError(t, err)
				want := tc.want
				if !forward {
					want = reversed(want)
				}
				if got := fields(out.Items, "pk"); got != want {
					t.Fatalf("ScanIndexForward=%v: got %q, want %q", forward, got, want)
				}
			}
		})
	}
	t.Run("legacy KeyConditions", func(t *testing.T) {
		t.Parallel()
		eq := func(v types.AttributeValue) types.Condition {
			return types.Condition{ComparisonOperator: types.ComparisonOperatorEq, AttributeValueList: []types.AttributeValue{v}}
		}
		out, err := c.Query(ctx(t), &dynamodb.QueryInput{TableName: &table, IndexName: aws.String("byMatch"),
			KeyConditions: map[string]types.Condition{"t": eq(s("W24")), "r": eq(s("NA"))}})
		mustNoError(t, err)
		if got := fields(out.Items, "pk"); got != "m2 m1 m3 m6" {
			t.Fatalf("got %q", got)
		}
	})
	t.Run("paging", func(t *testing.T) {
		t.Parallel()
		items, pages := queryAll(t, c, &dynamodb.QueryInput{TableName: &table, IndexName: aws.String("byMatch"),
			KeyConditionExpression: aws.String("t = :t AND r = :r"), ExpressionAttributeValues: v(na...), Limit: aws.Int32(3)})
		if got := fields(items, "pk"); got != "m2 m1 m3 m6" {
			t.Fatalf("got %q", got)
		}
		if got := attrNames(pages[0].LastEvaluatedKey); got != "br,pk,r,rd,t" {
			t.Fatalf("LastEvaluatedKey attributes %s, want br,pk,r,rd,t", got)
		}
		_, err := c.Query(ctx(t), &dynamodb.QueryInput{TableName: &table, IndexName: aws.String("byMatch"),
			KeyConditionExpression: aws.String("t = :t AND r = :r"), ExpressionAttributeValues: v(na...),
			ExclusiveStartKey: without(pages[0].LastEvaluatedKey, "br")})
		requireValidation(t, err, "The provided starting key is invalid")
	})
	t.Run("scan", func(t *testing.T) {
		t.Parallel()
		items, _ := scanAll(t, c, &dynamodb.ScanInput{TableName: &table, IndexName: aws.String("byMatch")})
		if got := sortedFields(items, "pk"); got != "m1 m2 m3 m4 m5 m6" {
			t.Fatalf("got %q", got)
		}
	})

	errs := []struct {
		name, cond string
		values     item
		msg        string
	}{
		{"one partition attribute missing", "t = :t", v(":t", "W24"), "HASH key attributes r must have equality conditions specified in the query"},
		{"other partition attribute missing", "r = :r AND rd = :rd", v(":r", "NA", ":rd", "1"), "HASH key attributes t must have equality conditions specified in the query"},
		{"the table key instead", "pk = :t", v(":t", "m1"), "HASH key attributes t, r must have equality conditions specified in the query"},
		{"range condition on a partition attribute", "t = :t AND r > :r", v(na...), "HASH key attributes r must have equality conditions specified in the query"},
		{"begins_with on a partition attribute", "t = :t AND begins_with(r, :r)", v(na...), "HASH key attributes r must have equality conditions specified in the query"},
		{"first sort attribute skipped", "t = :t AND r = :r AND br = :br", v(append(na, ":br", "UP")...),
			"RANGE key attributes rd must have equality conditions specified in the query because a condition is present on key attribute br"},
		{"range on a sort attribute before the last", "t = :t AND r = :r AND rd > :rd AND br = :br", v(append(na, ":rd", "0", ":br", "UP")...),
			"RANGE key attributes rd must have equality conditions specified in the query because a condition is present on key attribute br"},
		{"two conditions on one attribute", "t = :t AND r = :r AND rd > :lo AND rd < :hi", v(append(na, ":lo", "0", ":hi", "3")...),
			"Invalid KeyConditionExpression: KeyConditionExpressions must only contain one condition per key"},
		{"filter on a sort attribute", "t = :t AND r = :r", v(na...), "Filter Expression can only contain non-primary key attributes: Primary key attribute: br"},
	}
	for _, tc := range errs {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			if tc.name == "two conditions on one attribute" {
				AWSDiffers(t, `two conditions on one key: DynamoDB Local leaves out AWS's "Invalid KeyConditionExpression: " prefix (TestQueryErrors)`)
			}
			in := &dynamodb.QueryInput{TableName: &table, IndexName: aws.String("byMatch"), KeyConditionExpression: aws.String(tc.cond), ExpressionAttributeValues: tc.values}
			if tc.name == "filter on a sort attribute" {
				in.FilterExpression = aws.String("br = :r")
			}
			_, err := c.Query(ctx(t), in)
			requireValidation(t, err, tc.msg)
		})
	}
	t.Run("three sort attributes", func(t *testing.T) {
		t.Parallel()
		in := tableDef(keyDef{"pk", "S"}, keyDef{})
		in.AttributeDefinitions = append(in.AttributeDefinitions, ads("a", "S", "b", "S", "c", "S", "d", "S")...)
		in.GlobalSecondaryIndexes = []types.GlobalSecondaryIndex{multiKeyGSI("three", []string{"a"}, []string{"b", "c", "d"})}
		tbl := createTable(t, c, in)
		for i, bcd := range [][3]string{{"1", "x", "p"}, {"1", "x", "q"}, {"1", "y", "p"}, {"2", "x", "p"}} {
			mustPut(t, c, tbl, item{"pk": s(fmt.Sprint("i", i)), "a": s("A"), "b": s(bcd[0]), "c": s(bcd[1]), "d": s(bcd[2])})
		}
		for _, tc := range []struct{ cond, want, msg string }{
			{"a = :a", "i0 i1 i2 i3", ""},
			{"a = :a AND b = :b", "i0 i1 i2", ""},
			{"a = :a AND b = :b AND begins_with(c, :c)", "i0 i1", ""},
			{"a = :a AND b = :b AND c = :c AND d > :d", "i1", ""},
			{"a = :a AND c = :c", "", "RANGE key attributes b must have equality conditions specified in the query because a condition is present on key attribute c"},
			{"a = :a AND d = :d", "", "RANGE key attributes b, c must have equality conditions specified in the query because a condition is present on key attribute d"},
			{"a = :a AND b = :b AND d = :d", "", "RANGE key attributes c must have equality conditions specified in the query because a condition is present on key attribute d"},
		} {
			values := item{":a": s("A")}
			for _, name := range []string{"b", "c", "d"} {
				if strings.Contains(tc.cond, ":"+name) {
					values[":"+name] = map[string]types.AttributeValue{":b": s("1"), ":c": s("x"), ":d": s("p")}[":"+name]
				}
			}
			out, err := c.Query(ctx(t), &dynamodb.QueryInput{TableName: &tbl, IndexName: aws.String("three"),
				KeyConditionExpression: aws.String(tc.cond), ExpressionAttributeValues: values})
			if tc.msg != "" {
				requireValidation(t, err, tc.msg)
				continue
			}
			mustNoError(t, err)
			if got := fields(out.Items, "pk"); got != tc.want {
				t.Fatalf("%s: got %q, want %q", tc.cond, got, tc.want)
			}
		}
	})
}

func TestIndexMultiAttributeKeySchemaErrors(t *testing.T) {
	t.Parallel()
	c := newClient(t)
	// What AWS's answers contain, as ScyllaDB's test_gsi_composite_keys.py
	// (run against AWS, 2026) pins them: AWS's whole text was not found
	// in any record, so only that part is checked; DynamoDB Local's words
	// for the first two lack it.
	tests := []struct {
		name      string
		hash, rng []string
		pattern   string // "" = accepted
		differ    bool   // DynamoDB Local's words do not match pattern
	}{
		{"four and four", []string{"a", "b", "c", "d"}, []string{"e", "f", "g", "h"}, "", false},
		{"table key among them", []string{"pk", "a"}, []string{"b"}, "", false},
		{"five partition attributes", []string{"a", "b", "c", "d", "e"}, nil, "HASH", true},
		{"five sort attributes", []string{"a"}, []string{"b", "c", "d", "e", "f"}, "RANGE", true},
		{"same attribute twice", []string{"a", "a"}, nil, "same name", false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			if tc.differ {
				AWSDiffers(t, "DynamoDB Local's message lacks "+tc.pattern+", which AWS's has (scylladb test/alternator/test_gsi_composite_keys.py)")
			}
			in := tableDef(keyDef{"pk", "S"}, keyDef{})
			seen := map[string]bool{"pk": true}
			for _, a := range append(append([]string{}, tc.hash...), tc.rng...) {
				if !seen[a] {
					seen[a] = true
					in.AttributeDefinitions = append(in.AttributeDefinitions, ads(a, "S")...)
				}
			}
			in.GlobalSecondaryIndexes = []types.GlobalSecondaryIndex{multiKeyGSI("multi", tc.hash, tc.rng)}
			if tc.pattern == "" {
				name := createTable(t, c, in)
				x := mustDescribe(t, c, name).GlobalSecondaryIndexes[0]
				if got := len(x.KeySchema); got != len(tc.hash)+len(tc.rng) {
					t.Fatalf("KeySchema: got %d elements", got)
				}
				return
			}
			in.TableName = aws.String(uniqueName(t))
			in.BillingMode = types.BillingModePayPerRequest
			_, err := c.CreateTable(ctx(t), in)
			if err == nil {
				deleteTable(t, c, *in.TableName)
			}
			requireValidationMatch(t, err, tc.pattern)
		})
	}
	t.Run("hash after range", func(t *testing.T) {
		t.Parallel()
		AWSDiffers(t, `DynamoDB Local answers "Invalid key order. Hash Key must be specified first in key schema, Range Key must be specifed second"; AWS's answer has "HASH.*precede.*RANGE" (scylladb test/alternator/test_gsi_composite_keys.py)`)
		in := tableDef(keyDef{"pk", "S"}, keyDef{})
		in.TableName = aws.String(uniqueName(t))
		in.BillingMode = types.BillingModePayPerRequest
		in.AttributeDefinitions = append(in.AttributeDefinitions, ads("a", "S", "b", "S", "c", "S")...)
		x := multiKeyGSI("multi", []string{"a"}, []string{"b"})
		x.KeySchema = append(x.KeySchema, types.KeySchemaElement{AttributeName: aws.String("c"), KeyType: types.KeyTypeHash})
		in.GlobalSecondaryIndexes = []types.GlobalSecondaryIndex{x}
		_, err := c.CreateTable(ctx(t), in)
		if err == nil {
			deleteTable(t, c, *in.TableName)
		}
		requireValidationMatch(t, err, "HASH.*precede.*RANGE")
	})
	t.Run("two sort attributes on an LSI", func(t *testing.T) {
		t.Parallel()
		// AWS's API reference keeps an LSI's KeySchema at "Maximum number of
		// 2 items", a member constraint; DynamoDB Local lets the list through
		// and answers "Key Schema too big.  Key Schema must at most consist of
		// the hash and range key of a table".
		AWSDiffers(t, "an LSI KeySchema of 3 elements breaks AWS's member constraint (max 2); DynamoDB Local answers 'Key Schema too big'")
		in := tableDef(keyDef{"pk", "S"}, keyDef{"sk", "S"})
		in.TableName = aws.String(uniqueName(t))
		in.BillingMode = types.BillingModePayPerRequest
		in.AttributeDefinitions = append(in.AttributeDefinitions, ads("a", "S", "b", "S")...)
		in.LocalSecondaryIndexes = []types.LocalSecondaryIndex{{IndexName: aws.String("local"),
			KeySchema:  ks("pk", "HASH", "a", "RANGE", "b", "RANGE"),
			Projection: &types.Projection{ProjectionType: types.ProjectionTypeAll}}}
		_, err := c.CreateTable(ctx(t), in)
		if err == nil {
			deleteTable(t, c, *in.TableName)
		}
		requireValidation(t, err, "")
		msg := err.Error()
		if !strings.Contains(msg, "1 validation error detected: Value '[KeySchemaElement(") ||
			!strings.Contains(msg, "at 'localSecondaryIndexes.1.member.keySchema' failed to satisfy constraint: Member must have length less than or equal to 2") {
			t.Errorf("got %q, want the member constraint on localSecondaryIndexes.1.member.keySchema", msg)
		}
	})
	t.Run("writes need every key attribute typed and non-empty", func(t *testing.T) {
		t.Parallel()
		in := tableDef(keyDef{"pk", "S"}, keyDef{})
		in.AttributeDefinitions = append(in.AttributeDefinitions, ads("t", "S", "r", "S")...)
		in.AttributeDefinitions = append(in.AttributeDefinitions, ads("rd", "N")...)
		in.GlobalSecondaryIndexes = []types.GlobalSecondaryIndex{multiKeyGSI("multi", []string{"t", "r"}, []string{"rd"})}
		tbl := createTable(t, c, in)
		_, err := c.PutItem(ctx(t), &dynamodb.PutItemInput{TableName: &tbl, Item: item{"pk": s("x"), "t": s("W"), "r": s("NA"), "rd": s("one")}})
		requireValidation(t, err, "")
		_, err = c.PutItem(ctx(t), &dynamodb.PutItemInput{TableName: &tbl, Item: item{"pk": s("x"), "t": s("W"), "r": s("")}})
		requireValidation(t, err, "One or more parameter values are not valid. A value specified for a secondary index key is not supported. "+
			"The AttributeValue for a key attribute cannot contain an empty string value. IndexName: multi, IndexKey: r")
	})
}
