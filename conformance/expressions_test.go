package conformance

// Expressions and their legacy counterparts: every legacy
// ComparisonOperator in Expected, QueryFilter, ScanFilter and KeyConditions,
// AttributeUpdates actions, AttributesToGet, every legacy/expression mixing error;
// condition semantics on nested paths, functions on every type, precedence,
// placeholders in every expression kind, the expression size limit.

import (
	"fmt"
	"regexp"
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

// richItem has one attribute of every type, and nested documents.
func richItem(pk string) item {
	return item{
		"pk":  s(pk),
		"n":   n("5"),
		"neg": n("-2.5"),
		"s":   s("hello"),
		"e":   s(""),
		"b":   b([]byte("xyz")),
		"ss":  ss("a", "b"),
		"ns":  ns("1", "2"),
		"bs":  bs([]byte{1}, []byte{2, 3}),
		"l":   l(n("1"), s("two"), m(item{"x": s("deep")}), l(n("7"))),
		"m":   m(item{"x": n("1"), "y": m(item{"z": s("zz")}), "l": l(s("a"), s("b")), "status": s("on")}),
		"t":   bl(true),
		"f":   bl(false),
		"z":   null(),
	}
}

type cond = types.ExpectedAttributeValue

func avl(vs ...types.AttributeValue) []types.AttributeValue { return vs }

func TestLegacyExpectedOperators(t *testing.T) {
	t.Parallel()
	c := newClient(t)
	table := hashTable(t, c)
	it := richItem("k")
	mustPut(t, c, table, it)
	op := func(o types.ComparisonOperator, vs ...types.AttributeValue) cond {
		return cond{ComparisonOperator: o, AttributeValueList: vs}
	}
	tests := []struct {
		name     string
		expected map[string]cond
		cop      types.ConditionalOperator
		ok       bool
		msg      string // a ValidationException with this message
	}{
		{name: "exists true with value", expected: map[string]cond{"n": {Exists: aws.Bool(true), Value: n("5")}}, ok: true},
		{name: "exists true with other value", expected: map[string]cond{"n": {Exists: aws.Bool(true), Value: n("6")}}},
		{name: "value alone on missing", expected: map[string]cond{"nope": {Value: n("6")}}},
		{name: "exists false on missing", expected: map[string]cond{"nope": {Exists: aws.Bool(false)}}, ok: true},
		{name: "exists false on null", expected: map[string]cond{"z": {Exists: aws.Bool(false)}}},
		{name: "exists false with value", expected: map[string]cond{"n": {Exists: aws.Bool(false), Value: n("5")}},
			msg: enveloped("One or more parameter values were invalid: Value cannot be used when Exists is false for Attribute: n", "")},
		{name: "exists with operator", expected: map[string]cond{"n": {Exists: aws.Bool(true), ComparisonOperator: types.ComparisonOperatorEq, AttributeValueList: avl(n("5"))}},
			msg: enveloped("One or more parameter values were invalid: Exists and ComparisonOperator cannot be used together for Attribute: n", "")},
		{name: "value and list", expected: map[string]cond{"n": {Value: n("5"), ComparisonOperator: types.ComparisonOperatorEq, AttributeValueList: avl(n("5"))}},
			msg: enveloped("One or more parameter values were invalid: Value and AttributeValueList cannot be used together for Attribute: n", "")},
		{name: "list without operator", expected: map[string]cond{"n": {AttributeValueList: avl(n("5"))}},
			msg: "One or more parameter values were invalid: AttributeValueList can only be used with a ComparisonOperator for Attribute: n"},

		{name: "EQ number", expected: map[string]cond{"n": op("EQ", n("5.00"))}, ok: true},
		{name: "EQ other type", expected: map[string]cond{"n": op("EQ", s("5"))}},
		{name: "EQ string set any order", expected: map[string]cond{"ss": op("EQ", ss("b", "a"))}, ok: true},
		{name: "EQ binary", expected: map[string]cond{"b": op("EQ", b([]byte("xyz")))}, ok: true},
		{name: "EQ missing", expected: map[string]cond{"nope": op("EQ", n("5"))}},
		{name: "EQ two values", expected: map[string]cond{"n": op("EQ", n("5"), n("6"))},
			msg: enveloped("One or more parameter values were invalid: Invalid number of argument(s) for the EQ ComparisonOperator", "")},
		{name: "NE number", expected: map[string]cond{"n": op("NE", n("6"))}, ok: true},
		{name: "NE same", expected: map[string]cond{"n": op("NE", n("5"))}},
		{name: "NE missing", expected: map[string]cond{"nope": op("NE", n("5"))}, ok: true},
		{name: "NE other type", expected: map[string]cond{"n": op("NE", s("5"))}, ok: true},
		{name: "LE equal", expected: map[string]cond{"n": op("LE", n("5"))}, ok: true},
		{name: "LE smaller", expected: map[string]cond{"n": op("LE", n("4.99"))}},
		{name: "LT negative", expected: map[string]cond{"neg": op("LT", n("-2.4"))}, ok: true},
		{name: "LT equal", expected: map[string]cond{"n": op("LT", n("5"))}},
		{name: "LT other type", expected: map[string]cond{"s": op("LT", n("5"))}},
		{name: "GE string", expected: map[string]cond{"s": op("GE", s("hello"))}, ok: true},
		{name: "GE string bigger", expected: map[string]cond{"s": op("GE", s("help"))}},
		{name: "GT binary", expected: map[string]cond{"b": op("GT", b([]byte("xy")))}, ok: true},
		{name: "GT missing", expected: map[string]cond{"nope": op("GT", n("1"))}},
		{name: "GT set argument", expected: map[string]cond{"n": op("GT", ns("1"))},
			msg: "One or more parameter values were invalid: ComparisonOperator GT is not valid for NS AttributeValue type"},
		{name: "LT boolean argument", expected: map[string]cond{"t": op("LT", bl(true))},
			msg: "One or more parameter values were invalid: ComparisonOperator LT is not valid for BOOL AttributeValue type"},
		{name: "NOT_NULL present", expected: map[string]cond{"n": op("NOT_NULL")}, ok: true},
		{name: "NOT_NULL on NULL value", expected: map[string]cond{"z": op("NOT_NULL")}, ok: true},
		{name: "NOT_NULL missing", expected: map[string]cond{"nope": op("NOT_NULL")}},
		{name: "NULL missing", expected: map[string]cond{"nope": op("NULL")}, ok: true},
		{name: "NULL present", expected: map[string]cond{"n": op("NULL")}},
		{name: "NULL with argument", expected: map[string]cond{"n": op("NULL", n("1"))},
			msg: enveloped("One or more parameter values were invalid: Invalid number of argument(s) for the NULL ComparisonOperator", "")},
		{name: "CONTAINS substring", expected: map[string]cond{"s": op("CONTAINS", s("ell"))}, ok: true},
		{name: "CONTAINS string set member", expected: map[string]cond{"ss": op("CONTAINS", s("a"))}, ok: true},
		{name: "CONTAINS number set member", expected: map[string]cond{"ns": op("CONTAINS", n("2.0"))}, ok: true},
		{name: "CONTAINS binary set member", expected: map[string]cond{"bs": op("CONTAINS", b([]byte{2, 3}))}, ok: true},
		{name: "CONTAINS list element", expected: map[string]cond{"l": op("CONTAINS", s("two"))}, ok: true},
		{name: "CONTAINS binary substring", expected: map[string]cond{"b": op("CONTAINS", b([]byte("yz")))}, ok: true},
		{name: "CONTAINS absent member", expected: map[string]cond{"ss": op("CONTAINS", s("c"))}},
		{name: "CONTAINS missing", expected: map[string]cond{"nope": op("CONTAINS", s("c"))}},
		{name: "CONTAINS set argument", expected: map[string]cond{"ss": op("CONTAINS", ss("a"))},
			msg: "One or more parameter values were invalid: ComparisonOperator CONTAINS is not valid for SS AttributeValue type"},
		{name: "NOT_CONTAINS substring", expected: map[string]cond{"s": op("NOT_CONTAINS", s("xyz"))}, ok: true},
		{name: "NOT_CONTAINS member", expected: map[string]cond{"ss": op("NOT_CONTAINS", s("a"))}},
		{name: "NOT_CONTAINS missing", expected: map[string]cond{"nope": op("NOT_CONTAINS", s("a"))}},
		{name: "BEGINS_WITH string", expected: map[string]cond{"s": op("BEGINS_WITH", s("he"))}, ok: true},
		{name: "BEGINS_WITH binary", expected: map[string]cond{"b": op("BEGINS_WITH", b([]byte("x")))}, ok: true},
		{name: "BEGINS_WITH no", expected: map[string]cond{"s": op("BEGINS_WITH", s("el"))}},
		{name: "BEGINS_WITH number argument", expected: map[string]cond{"n": op("BEGINS_WITH", n("5"))},
			msg: "One or more parameter values were invalid: ComparisonOperator BEGINS_WITH is not valid for N AttributeValue type"},
		{name: "IN numbers", expected: map[string]cond{"n": op("IN", n("1"), n("5"), n("9"))}, ok: true},
		{name: "IN none", expected: map[string]cond{"n": op("IN", n("1"), n("9"))}},
		{name: "IN strings", expected: map[string]cond{"s": op("IN", s("hello"))}, ok: true},
		{name: "IN empty", expected: map[string]cond{"n": op("IN")},
			msg: enveloped("One or more parameter values were invalid: Value or AttributeValueList must be used with ComparisonOperator: IN for Attribute: n", "")},
		{name: "BETWEEN numbers", expected: map[string]cond{"n": op("BETWEEN", n("5"), n("6"))}, ok: true},
		{name: "BETWEEN strings", expected: map[string]cond{"s": op("BETWEEN", s("h"), s("i"))}, ok: true},
		{name: "BETWEEN binary", expected: map[string]cond{"b": op("BETWEEN", b([]byte("x")), b([]byte("y")))}, ok: true},
		{name: "BETWEEN outside", expected: map[string]cond{"n": op("BETWEEN", n("6"), n("7"))}},
		{name: "BETWEEN one value", expected: map[string]cond{"n": op("BETWEEN", n("5"))},
			msg: enveloped("One or more parameter values were invalid: Invalid number of argument(s) for the BETWEEN ComparisonOperator", "")},
		{name: "BETWEEN mixed types", expected: map[string]cond{"n": op("BETWEEN", n("5"), s("6"))},
			msg: "One or more parameter values were invalid: AttributeValues inside AttributeValueList must be of same type"},
		{name: "unknown operator", expected: map[string]cond{"n": op("FOO", n("5"))}, msg: ""},

		{name: "AND all pass", expected: map[string]cond{"n": op("EQ", n("5")), "s": op("BEGINS_WITH", s("h"))}, ok: true},
		{name: "AND one fails", expected: map[string]cond{"n": op("EQ", n("5")), "s": op("BEGINS_WITH", s("x"))}},
		{name: "explicit AND one fails", cop: types.ConditionalOperatorAnd, expected: map[string]cond{"n": op("EQ", n("5")), "s": op("BEGINS_WITH", s("x"))}},
		{name: "OR one passes", cop: types.ConditionalOperatorOr, expected: map[string]cond{"n": op("EQ", n("6")), "s": op("BEGINS_WITH", s("h"))}, ok: true},
		{name: "OR none pass", cop: types.ConditionalOperatorOr, expected: map[string]cond{"n": op("EQ", n("6")), "nope": op("NOT_NULL")}},
		{name: "OR with exists", cop: types.ConditionalOperatorOr, expected: map[string]cond{"n": {Exists: aws.Bool(false)}, "s": {Value: s("hello")}}, ok: true},
		{name: "OR alone", cop: types.ConditionalOperatorOr,
			msg: "ConditionalOperator cannot be used without Filter or Expected"},
		{name: "OR with one condition", cop: types.ConditionalOperatorOr, expected: map[string]cond{"n": op("EQ", n("5"))},
			msg: "ConditionalOperator can only be used when Filter or Expected has two or more elements"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			_, err := c.PutItem(ctx(t), &dynamodb.PutItemInput{TableName: &table, Item: it, Expected: tc.expected, ConditionalOperator: tc.cop})
			switch {
			case tc.msg != "" || tc.name == "unknown operator":
				requireValidation(t, err, expectMsg(t, tc.msg))
			case tc.ok:
				mustNoError(t, err)
			default:
				requireAPIError(t, err, "ConditionalCheckFailedException", "The conditional request failed")
			}
		})
	}
	t.Run("delete and update take Expected too", func(t *testing.T) {
		t.Parallel()
		key := item{"pk": s("k")}
		_, err := c.DeleteItem(ctx(t), &dynamodb.DeleteItemInput{TableName: &table, Key: key, Expected: map[string]cond{"n": op("EQ", n("6"))}})
		requireAPIError(t, err, "ConditionalCheckFailedException", "The conditional request failed")
		_, err = c.UpdateItem(ctx(t), &dynamodb.UpdateItemInput{TableName: &table, Key: key, Expected: map[string]cond{"n": op("EQ", n("6"))},
			AttributeUpdates: map[string]types.AttributeValueUpdate{"n": {Action: types.AttributeActionPut, Value: n("7")}}})
		requireAPIError(t, err, "ConditionalCheckFailedException", "The conditional request failed")
		requireItem(t, mustGet(t, c, table, key), it)
	})
}

func TestLegacyAttributeUpdatesActions(t *testing.T) {
	t.Parallel()
	c := newClient(t)
	table := hashTable(t, c)
	base := item{"pk": s("k"), "n": n("5"), "s": s("x"), "ss": ss("a", "b"), "ns": ns("1"), "l": l(n("1"))}
	type upd = types.AttributeValueUpdate
	tests := []struct {
		name    string
		start   item
		updates map[string]upd
		rv      types.ReturnValue
		attrs   item
		after   item
		msg     string
	}{
		{name: "put replaces", start: base, updates: map[string]upd{"s": {Action: "PUT", Value: s("y")}}, rv: types.ReturnValueUpdatedOld,
			attrs: item{"s": s("x")}, after: with(base, item{"s": s("y")})},
		{name: "put creates item", updates: map[string]upd{"a": {Action: "PUT", Value: s("A")}}, rv: types.ReturnValueAllNew,
			attrs: item{"pk": s("k"), "a": s("A")}, after: item{"pk": s("k"), "a": s("A")}},
		{name: "add number to missing", start: base, updates: map[string]upd{"c": {Action: "ADD", Value: n("2")}}, rv: types.ReturnValueUpdatedNew,
			attrs: item{"c": n("2")}, after: with(base, item{"c": n("2")})},
		{name: "add negative", start: base, updates: map[string]upd{"n": {Action: "ADD", Value: n("-7.5")}}, rv: types.ReturnValueUpdatedNew,
			attrs: item{"n": n("-2.5")}, after: with(base, item{"n": n("-2.5")})},
		{name: "add set to missing", start: base, updates: map[string]upd{"ns2": {Action: "ADD", Value: ns("3", "4")}}, rv: types.ReturnValueUpdatedNew,
			attrs: item{"ns2": ns("3", "4")}, after: with(base, item{"ns2": ns("3", "4")})},
		{name: "add set union", start: base, updates: map[string]upd{"ss": {Action: "ADD", Value: ss("b", "c")}}, rv: types.ReturnValueUpdatedNew,
			attrs: item{"ss": ss("a", "b", "c")}, after: with(base, item{"ss": ss("a", "b", "c")})},
		{name: "add list appends", start: base, updates: map[string]upd{"l": {Action: "ADD", Value: l(s("x"))}}, rv: types.ReturnValueUpdatedNew,
			attrs: item{"l": l(n("1"), s("x"))}, after: with(base, item{"l": l(n("1"), s("x"))})},
		{name: "add creates item", updates: map[string]upd{"c": {Action: "ADD", Value: n("1")}}, rv: types.ReturnValueAllNew,
			attrs: item{"pk": s("k"), "c": n("1")}, after: item{"pk": s("k"), "c": n("1")}},
		{name: "delete attribute", start: base, updates: map[string]upd{"s": {Action: "DELETE"}, "nope": {Action: "DELETE"}}, rv: types.ReturnValueUpdatedOld,
			attrs: item{"s": s("x")}, after: without(base, "s")},
		{name: "delete last set members removes attribute", start: base, updates: map[string]upd{"ss": {Action: "DELETE", Value: ss("a", "b", "z")}}, rv: types.ReturnValueAllNew,
			attrs: without(base, "ss"), after: without(base, "ss")},
		{name: "delete from missing set", start: base, updates: map[string]upd{"zz": {Action: "DELETE", Value: ss("a")}}, rv: types.ReturnValueAllNew,
			attrs: base, after: base},
		{name: "put without value", start: base, updates: map[string]upd{"s": {Action: "PUT"}},
			msg: "One or more parameter values were invalid: Only DELETE action is allowed when no attribute value is specified"},
		{name: "add without value", start: base, updates: map[string]upd{"n": {Action: "ADD"}},
			msg: "One or more parameter values were invalid: Only DELETE action is allowed when no attribute value is specified"},
		{name: "add string", start: base, updates: map[string]upd{"s": {Action: "ADD", Value: s("y")}},
			msg: "One or more parameter values were invalid: ADD action is not supported for the type STRING"},
		{name: "add to string attribute", start: base, updates: map[string]upd{"s": {Action: "ADD", Value: n("1")}},
			msg: "Type mismatch for attribute to update"},
		{name: "delete with non-set value", start: base, updates: map[string]upd{"s": {Action: "DELETE", Value: s("x")}},
			msg: "One or more parameter values were invalid: DELETE action with value is not supported for the type STRING"},
		{name: "delete wrong set type", start: base, updates: map[string]upd{"ss": {Action: "DELETE", Value: ns("1")}},
			msg: "Type mismatch for attribute to update"},
		{name: "key attribute", start: base, updates: map[string]upd{"pk": {Action: "PUT", Value: s("other")}},
			msg: "One or more parameter values were invalid: Cannot update attribute pk. This attribute is part of the key"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			key := item{"pk": s("k")}
			_, err := c.DeleteItem(ctx(t), &dynamodb.DeleteItemInput{TableName: &table, Key: key})
			mustNoError(t, err)
			if tc.start != nil {
				mustPut(t, c, table, tc.start)
			}
			out, err := c.UpdateItem(ctx(t), &dynamodb.UpdateItemInput{TableName: &table, Key: key, AttributeUpdates: tc.updates, ReturnValues: tc.rv})
			if tc.msg != "" {
				requireValidation(t, err, tc.msg)
				requireItem(t, mustGet(t, c, table, key), tc.start)
				return
			}
			mustNoError(t, err)
			requireItem(t, out.Attributes, tc.attrs)
			requireItem(t, mustGet(t, c, table, key), tc.after)
		})
	}
}

func TestLegacyKeyConditionsAndFilters(t *testing.T) {
	t.Parallel()
	c := newClient(t)
	num := rangeTable(t, c)
	str := rangeTableS(t, c)
	for i, v := range []string{"-3", "-0.5", "0", "2", "10"} {
		mustPut(t, c, num, item{"pk": s("p"), "sk": n(v), "v": n(fmt.Sprint(i)), "tag": ss(fmt.Sprint("t", i%2))})
	}
	for _, v := range []string{"a", "ab", "abc", "b"} {
		mustPut(t, c, str, item{"pk": s("p"), "sk": s(v)})
	}
	kc := func(o types.ComparisonOperator, vs ...types.AttributeValue) types.Condition {
		return types.Condition{ComparisonOperator: o, AttributeValueList: vs}
	}
	hash := kc("EQ", s("p"))
	tests := []struct {
		name   string
		table  string
		keys   map[string]types.Condition
		filter map[string]types.Condition
		cop    types.ConditionalOperator
		want   string // sort keys in order
		msg    string
		// codeOnly checks for a ValidationException of any message; differ marks
		// a case where DynamoDB Local answers otherwise.
		codeOnly bool
		differ   string
	}{
		{name: "hash only", table: num, keys: map[string]types.Condition{"pk": hash}, want: "-3 -0.5 0 2 10"},
		{name: "EQ", table: num, keys: map[string]types.Condition{"pk": hash, "sk": kc("EQ", n("2.0"))}, want: "2"},
		{name: "LT", table: num, keys: map[string]types.Condition{"pk": hash, "sk": kc("LT", n("0"))}, want: "-3 -0.5"},
		{name: "LE", table: num, keys: map[string]types.Condition{"pk": hash, "sk": kc("LE", n("0"))}, want: "-3 -0.5 0"},
		{name: "GT", table: num, keys: map[string]types.Condition{"pk": hash, "sk": kc("GT", n("-0.5"))}, want: "0 2 10"},
		{name: "GE", table: num, keys: map[string]types.Condition{"pk": hash, "sk": kc("GE", n("-0.5"))}, want: "-0.5 0 2 10"},
		{name: "BETWEEN", table: num, keys: map[string]types.Condition{"pk": hash, "sk": kc("BETWEEN", n("-1"), n("2"))}, want: "-0.5 0 2"},
		{name: "BEGINS_WITH", table: str, keys: map[string]types.Condition{"pk": hash, "sk": kc("BEGINS_WITH", s("ab"))}, want: `"ab" "abc"`},
		{name: "filter NE", table: num, keys: map[string]types.Condition{"pk": hash}, filter: map[string]types.Condition{"v": kc("NE", n("0"))}, want: "-0.5 0 2 10"},
		{name: "filter CONTAINS set", table: num, keys: map[string]types.Condition{"pk": hash}, filter: map[string]types.Condition{"tag": kc("CONTAINS", s("t1"))}, want: "-0.5 2"},
		{name: "filter IN", table: num, keys: map[string]types.Condition{"pk": hash}, filter: map[string]types.Condition{"v": kc("IN", n("0"), n("4"))}, want: "-3 10"},
		{name: "filter AND", table: num, keys: map[string]types.Condition{"pk": hash}, filter: map[string]types.Condition{"v": kc("GE", n("1")), "tag": kc("CONTAINS", s("t0"))}, want: "0 10"},
		{name: "filter OR", table: num, keys: map[string]types.Condition{"pk": hash}, cop: types.ConditionalOperatorOr,
			filter: map[string]types.Condition{"v": kc("EQ", n("0")), "tag": kc("CONTAINS", s("t1"))}, want: "-3 -0.5 2"},
		{name: "filter NULL", table: num, keys: map[string]types.Condition{"pk": hash}, filter: map[string]types.Condition{"nope": kc("NULL")}, want: "-3 -0.5 0 2 10"},
		{name: "hash NE", table: num, keys: map[string]types.Condition{"pk": kc("NE", s("p"))}, msg: "Query key condition not supported"},
		// KeyConditions take only EQ LE LT GE GT BEGINS_WITH BETWEEN (AWS API reference,
		// Condition); AWS rejects the rest as bad input.
		{name: "range NE", table: num, keys: map[string]types.Condition{"pk": hash, "sk": kc("NE", n("1"))}, codeOnly: true,
			differ: "DynamoDB Local answers NE on a sort key in KeyConditions with a 500 InternalFailure"},
		{name: "range IN", table: num, keys: map[string]types.Condition{"pk": hash, "sk": kc("IN", n("1"))}, msg: "Attempted conditional constraint is not an indexable operation"},
		{name: "range only", table: num, keys: map[string]types.Condition{"sk": kc("EQ", n("1"))}, msg: "Query condition missed key schema element"},
		{name: "non-key", table: num, keys: map[string]types.Condition{"pk": hash, "v": kc("EQ", n("1"))}, msg: "Query condition missed key schema element"},
		{name: "EQ without value", table: num, keys: map[string]types.Condition{"pk": kc("EQ")},
			msg: "One or more parameter values were invalid: Invalid number of argument(s) for the EQ ComparisonOperator"},
		{name: "filter on key", table: num, keys: map[string]types.Condition{"pk": hash}, filter: map[string]types.Condition{"sk": kc("EQ", n("1"))},
			msg: "QueryFilter can only contain non-primary key attributes: Primary key attribute: sk"},
		{name: "OR on one filter", table: num, keys: map[string]types.Condition{"pk": hash}, cop: types.ConditionalOperatorOr, filter: map[string]types.Condition{"v": kc("EQ", n("1"))},
			msg: "ConditionalOperator can only be used when Filter or Expected has two or more elements"},
		{name: "OR without filter", table: num, keys: map[string]types.Condition{"pk": hash}, cop: types.ConditionalOperatorOr,
			msg: "ConditionalOperator cannot be used without Filter or Expected"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			if tc.differ != "" {
				AWSDiffers(t, tc.differ)
			}
			out, err := c.Query(ctx(t), &dynamodb.QueryInput{TableName: &tc.table, KeyConditions: tc.keys, QueryFilter: tc.filter, ConditionalOperator: tc.cop})
			if tc.msg != "" || tc.codeOnly {
				requireValidation(t, err, tc.msg)
				return
			}
			mustNoError(t, err)
			if got := sortKeys(out.Items); got != tc.want {
				t.Fatalf("got %s, want %s", got, tc.want)
			}
		})
	}
	t.Run("scan filter", func(t *testing.T) {
		t.Parallel()
		out, err := c.Scan(ctx(t), &dynamodb.ScanInput{TableName: &num, ConditionalOperator: types.ConditionalOperatorOr, ScanFilter: map[string]types.Condition{
			"sk": kc("LT", n("-1")), "v": kc("BETWEEN", n("3"), n("9"))}})
		mustNoError(t, err)
		if got, want := sortKeys(out.Items), "-3 2 10"; got != want {
			t.Fatalf("got %s, want %s", got, want)
		}
		if out.Count != 3 || out.ScannedCount != 5 {
			t.Fatalf("Count %d ScannedCount %d, want 3, 5", out.Count, out.ScannedCount)
		}
	})
}

func TestLegacyAttributesToGet(t *testing.T) {
	t.Parallel()
	c := newClient(t)
	table := rangeTable(t, c)
	mustPut(t, c, table, item{"pk": s("p"), "sk": n("1"), "a": s("A"), "b": s("B"), "m": m(item{"x": n("1")})})
	want := []item{{"a": s("A"), "m": m(item{"x": n("1")})}}
	t.Run("query", func(t *testing.T) {
		t.Parallel()
		out, err := c.Query(ctx(t), &dynamodb.QueryInput{TableName: &table, KeyConditions: map[string]types.Condition{"pk": {ComparisonOperator: "EQ", AttributeValueList: avl(s("p"))}},
			AttributesToGet: []string{"a", "m", "nope"}})
		mustNoError(t, err)
		requireItems(t, out.Items, want)
	})
	t.Run("scan select specific", func(t *testing.T) {
		t.Parallel()
		out, err := c.Scan(ctx(t), &dynamodb.ScanInput{TableName: &table, AttributesToGet: []string{"a", "m"}, Select: types.SelectSpecificAttributes})
		mustNoError(t, err)
		requireItems(t, out.Items, want)
	})
	t.Run("batch get", func(t *testing.T) {
		t.Parallel()
		out, err := c.BatchGetItem(ctx(t), &dynamodb.BatchGetItemInput{RequestItems: map[string]types.KeysAndAttributes{table: {Keys: []item{{"pk": s("p"), "sk": n("1")}}, AttributesToGet: []string{"a", "m"}}}})
		mustNoError(t, err)
		requireItems(t, out.Responses[table], want)
	})
	t.Run("names are not paths", func(t *testing.T) {
		t.Parallel()
		out, err := c.GetItem(ctx(t), &dynamodb.GetItemInput{TableName: &table, Key: item{"pk": s("p"), "sk": n("1")}, AttributesToGet: []string{"m.x"}})
		mustNoError(t, err)
		requireItem(t, out.Item, item{})
	})
	t.Run("duplicates", func(t *testing.T) {
		t.Parallel()
		// AWS's words: dynalite's AWS-derived tests (getItem.js,
		// batchGetItem.js); ScyllaDB's AWS-verified test_item.py
		// (test_getitem_attributes_to_get_duplicate, 2021) agrees on
		// "Duplicate" and is newer than the record of Local's wording.
		AWSDiffers(t, `AttributesToGet naming one attribute twice: DynamoDB Local says "Cannot have two attributes with the same name"`)
		_, err := c.GetItem(ctx(t), &dynamodb.GetItemInput{TableName: &table, Key: item{"pk": s("p"), "sk": n("1")}, AttributesToGet: []string{"a", "a"}})
		requireValidation(t, err, "One or more parameter values were invalid: Duplicate value in attribute name: a")
		_, err = c.Query(ctx(t), &dynamodb.QueryInput{TableName: &table, KeyConditions: map[string]types.Condition{
			"pk": {ComparisonOperator: types.ComparisonOperatorEq, AttributeValueList: []types.AttributeValue{s("p")}}}, AttributesToGet: []string{"b", "a", "b"}})
		requireValidation(t, err, "One or more parameter values were invalid: Duplicate value in attribute name: b")
	})
	t.Run("select all attributes", func(t *testing.T) {
		t.Parallel()
		_, err := c.Scan(ctx(t), &dynamodb.ScanInput{TableName: &table, AttributesToGet: []string{"a"}, Select: types.SelectAllAttributes})
		requireValidation(t, err, "Cannot specify the AttributesToGet when choosing to get ALL_ATTRIBUTES")
	})
	t.Run("select count", func(t *testing.T) {
		t.Parallel()
		_, err := c.Scan(ctx(t), &dynamodb.ScanInput{TableName: &table, AttributesToGet: []string{"a"}, Select: types.SelectCount})
		requireValidation(t, err, "Cannot specify the AttributesToGet when choosing to get only the Count")
	})
}

// mixMsg is AWS's message for a request with legacy and expression parameters.
func mixMsg(legacy, expression string) string {
	return "Can not use both expression and non-expression parameters in the same request: Non-expression parameters: {" + legacy + "} Expression parameters: {" + expression + "}"
}

func TestLegacyExpressionMixing(t *testing.T) {
	t.Parallel()
	c := newClient(t)
	table := rangeTable(t, c)
	key := item{"pk": s("p"), "sk": n("1")}
	mustPut(t, c, table, key)
	expected := map[string]types.ExpectedAttributeValue{"a": {Exists: aws.Bool(false)}}
	updates := map[string]types.AttributeValueUpdate{"a": {Action: types.AttributeActionPut, Value: n("1")}}
	keyConds := map[string]types.Condition{"pk": {ComparisonOperator: "EQ", AttributeValueList: avl(s("p"))}}
	filter := map[string]types.Condition{"a": {ComparisonOperator: "NULL"}}
	v := item{":v": n("1")}
	kv := item{":p": s("p")}
	tests := []struct {
		name string
		call func(t *testing.T) error
		msg  string
	}{
		{"delete Expected and ConditionExpression", func(t *testing.T) error {
			_, err := c.DeleteItem(ctx(t), &dynamodb.DeleteItemInput{TableName: &table, Key: key, Expected: expected, ConditionExpression: aws.String("attribute_exists(a)")})
			return err
		}, mixMsg("Expected", "ConditionExpression")},
		{"delete ConditionalOperator and ConditionExpression", func(t *testing.T) error {
			_, err := c.DeleteItem(ctx(t), &dynamodb.DeleteItemInput{TableName: &table, Key: key, ConditionalOperator: "AND", ConditionExpression: aws.String("attribute_exists(a)")})
			return err
		}, mixMsg("ConditionalOperator", "ConditionExpression")},
		{"put Expected and ConditionalOperator and ConditionExpression", func(t *testing.T) error {
			_, err := c.PutItem(ctx(t), &dynamodb.PutItemInput{TableName: &table, Item: key, Expected: expected, ConditionalOperator: "OR", ConditionExpression: aws.String("attribute_exists(a)")})
			return err
		}, mixMsg("Expected, ConditionalOperator", "ConditionExpression")},
		{"update Expected and UpdateExpression", func(t *testing.T) error {
			_, err := c.UpdateItem(ctx(t), &dynamodb.UpdateItemInput{TableName: &table, Key: key, Expected: expected, UpdateExpression: aws.String("SET a = :v"), ExpressionAttributeValues: v})
			return err
		}, mixMsg("Expected", "UpdateExpression")},
		{"update AttributeUpdates and ConditionExpression", func(t *testing.T) error {
			_, err := c.UpdateItem(ctx(t), &dynamodb.UpdateItemInput{TableName: &table, Key: key, AttributeUpdates: updates, ConditionExpression: aws.String("attribute_exists(a)")})
			return err
		}, mixMsg("AttributeUpdates", "ConditionExpression")},
		{"update Expected and ConditionExpression", func(t *testing.T) error {
			_, err := c.UpdateItem(ctx(t), &dynamodb.UpdateItemInput{TableName: &table, Key: key, AttributeUpdates: updates, Expected: expected, ConditionExpression: aws.String("attribute_exists(a)")})
			return err
		}, mixMsg("AttributeUpdates, Expected", "ConditionExpression")},
		{"update all four", func(t *testing.T) error {
			_, err := c.UpdateItem(ctx(t), &dynamodb.UpdateItemInput{TableName: &table, Key: key, AttributeUpdates: updates, Expected: expected,
				UpdateExpression: aws.String("SET a = :v"), ConditionExpression: aws.String("attribute_exists(a)"), ExpressionAttributeValues: v})
			return err
		}, mixMsg("AttributeUpdates, Expected", "UpdateExpression, ConditionExpression")},
		{"query QueryFilter and FilterExpression", func(t *testing.T) error {
			_, err := c.Query(ctx(t), &dynamodb.QueryInput{TableName: &table, KeyConditionExpression: aws.String("pk = :p"), QueryFilter: filter, FilterExpression: aws.String("a = :v"),
				ExpressionAttributeValues: with(v, kv)})
			return err
		}, mixMsg("QueryFilter", "FilterExpression, KeyConditionExpression")},
		{"query AttributesToGet and ProjectionExpression", func(t *testing.T) error {
			_, err := c.Query(ctx(t), &dynamodb.QueryInput{TableName: &table, KeyConditionExpression: aws.String("pk = :p"), AttributesToGet: []string{"a"}, ProjectionExpression: aws.String("a"),
				ExpressionAttributeValues: kv})
			return err
		}, mixMsg("AttributesToGet", "ProjectionExpression, KeyConditionExpression")},
		{"query ConditionalOperator and FilterExpression", func(t *testing.T) error {
			_, err := c.Query(ctx(t), &dynamodb.QueryInput{TableName: &table, KeyConditionExpression: aws.String("pk = :p"), ConditionalOperator: "OR", FilterExpression: aws.String("a = :v"),
				ExpressionAttributeValues: with(v, kv)})
			return err
		}, mixMsg("ConditionalOperator", "FilterExpression, KeyConditionExpression")},
		{"query everything", func(t *testing.T) error {
			_, err := c.Query(ctx(t), &dynamodb.QueryInput{TableName: &table, KeyConditions: keyConds, QueryFilter: filter, AttributesToGet: []string{"a"}, ConditionalOperator: "AND",
				KeyConditionExpression: aws.String("pk = :p"), FilterExpression: aws.String("a = :v"), ProjectionExpression: aws.String("a"), ExpressionAttributeValues: with(v, kv)})
			return err
		}, mixMsg("AttributesToGet, QueryFilter, ConditionalOperator, KeyConditions", "ProjectionExpression, FilterExpression, KeyConditionExpression")},
		{"scan AttributesToGet and ProjectionExpression", func(t *testing.T) error {
			_, err := c.Scan(ctx(t), &dynamodb.ScanInput{TableName: &table, AttributesToGet: []string{"a"}, ProjectionExpression: aws.String("a")})
			return err
		}, mixMsg("AttributesToGet", "ProjectionExpression")},
		{"scan ScanFilter and ProjectionExpression", func(t *testing.T) error {
			_, err := c.Scan(ctx(t), &dynamodb.ScanInput{TableName: &table, ScanFilter: filter, ProjectionExpression: aws.String("a")})
			return err
		}, mixMsg("ScanFilter", "ProjectionExpression")},
		{"scan ConditionalOperator and FilterExpression", func(t *testing.T) error {
			_, err := c.Scan(ctx(t), &dynamodb.ScanInput{TableName: &table, ConditionalOperator: "OR", FilterExpression: aws.String("a = :v"), ExpressionAttributeValues: v})
			return err
		}, mixMsg("ConditionalOperator", "FilterExpression")},
		{"scan everything", func(t *testing.T) error {
			_, err := c.Scan(ctx(t), &dynamodb.ScanInput{TableName: &table, AttributesToGet: []string{"a"}, ScanFilter: filter, ConditionalOperator: "AND",
				FilterExpression: aws.String("a = :v"), ProjectionExpression: aws.String("a"), ExpressionAttributeValues: v})
			return err
		}, mixMsg("AttributesToGet, ScanFilter, ConditionalOperator", "ProjectionExpression, FilterExpression")},
		{"put Expected with ExpressionAttributeValues only", func(t *testing.T) error {
			_, err := c.PutItem(ctx(t), &dynamodb.PutItemInput{TableName: &table, Item: key, Expected: expected, ExpressionAttributeValues: v})
			return err
		}, enveloped("ExpressionAttributeValues can only be specified when using expressions", "ExpressionAttributeValues can only be specified when using expressions: ConditionExpression is null")},
		{"update AttributeUpdates with ExpressionAttributeNames only", func(t *testing.T) error {
			_, err := c.UpdateItem(ctx(t), &dynamodb.UpdateItemInput{TableName: &table, Key: key, AttributeUpdates: updates, ExpressionAttributeNames: map[string]string{"#a": "a"}})
			return err
		}, enveloped("ExpressionAttributeNames can only be specified when using expressions", "")},
		{"query KeyConditions with ExpressionAttributeValues only", func(t *testing.T) error {
			_, err := c.Query(ctx(t), &dynamodb.QueryInput{TableName: &table, KeyConditions: keyConds, ExpressionAttributeValues: v})
			return err
		}, "ExpressionAttributeValues can only be specified when using expressions: FilterExpression and KeyConditionExpression are null"},
		{"scan ExpressionAttributeValues only", func(t *testing.T) error {
			_, err := c.Scan(ctx(t), &dynamodb.ScanInput{TableName: &table, ExpressionAttributeValues: v})
			return err
		}, "ExpressionAttributeValues can only be specified when using expressions: FilterExpression is null"},
		{"scan ExpressionAttributeNames only", func(t *testing.T) error {
			_, err := c.Scan(ctx(t), &dynamodb.ScanInput{TableName: &table, ExpressionAttributeNames: map[string]string{"#a": "a"}})
			return err
		}, "ExpressionAttributeNames can only be specified when using expressions"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			requireValidation(t, tc.call(t), expectMsg(t, tc.msg))
		})
	}
	requireItem(t, mustGet(t, c, table, key), key)
}

// exprCase is one ConditionExpression evaluated against richItem: it holds (want
// true), fails the condition (want false), or is rejected with msg.
type exprCase struct {
	name   string
	cond   string
	names  map[string]string
	values item
	want   bool
	msg    string
}

func runConditionCases(t *testing.T, tests []exprCase) {
	t.Helper()
	c := newClient(t)
	table := hashTable(t, c)
	it := richItem("k")
	mustPut(t, c, table, it)
	for _, tc := range tests {
		name := tc.name
		if name == "" {
			name = tc.cond
		}
		// Values the condition does not use are left out (they would be an error).
		values := item{}
		for k, v := range tc.values {
			if regexp.MustCompile(regexp.QuoteMeta(k) + `\b`).MatchString(tc.cond) {
				values[k] = v
			}
		}
		if len(values) == 0 {
			values = nil
		}
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			_, err := c.PutItem(ctx(t), &dynamodb.PutItemInput{TableName: &table, Item: it, ConditionExpression: aws.String(tc.cond),
				ExpressionAttributeNames: tc.names, ExpressionAttributeValues: values})
			switch {
			case tc.msg != "":
				requireValidation(t, err, tc.msg)
			case tc.want:
				mustNoError(t, err)
			default:
				requireAPIError(t, err, "ConditionalCheckFailedException", "The conditional request failed")
			}
		})
	}
}

func TestConditionNestedPaths(t *testing.T) {
	t.Parallel()
	runConditionCases(t, []exprCase{
		{cond: "m.y.z = :v", values: item{":v": s("zz")}, want: true},
		{cond: "l[2].x = :v", values: item{":v": s("deep")}, want: true},
		{cond: "l[3][0] = :v", values: item{":v": n("7")}, want: true},
		{cond: "m.l[1] = :v", values: item{":v": s("b")}, want: true},
		{cond: "l[0] < l[3][0]", want: true},
		{cond: "l[10] = :v", values: item{":v": n("1")}, want: false},
		{cond: "attribute_not_exists(l[10])", want: true},
		{cond: "attribute_exists(m.y.z)", want: true},
		{cond: "attribute_exists(m.nope.z)", want: false},
		{cond: "attribute_exists(m.x[0])", want: false}, // an index into a number
		{cond: "attribute_exists(l.x)", want: false},    // a map key of a list
		{cond: "attribute_exists(m.l[0])", want: true},  // list in a map
		{cond: "attribute_not_exists(s.x)", want: true}, // a map key of a string
		{cond: "attribute_exists(l[2].x)", want: true},  // map in a list
		{cond: "attribute_exists(m.y)", want: true},     // a map itself
		{cond: "#m.#y.#z = :v", names: map[string]string{"#m": "m", "#y": "y", "#z": "z"}, values: item{":v": s("zz")}, want: true},
		{cond: "#m.y.#z = :v", names: map[string]string{"#m": "m", "#z": "z"}, values: item{":v": s("zz")}, want: true},
		{cond: "m.#s = :v", names: map[string]string{"#s": "status"}, values: item{":v": s("on")}, want: true},
		{cond: "#l[2].#x = :v", names: map[string]string{"#l": "l", "#x": "x"}, values: item{":v": s("deep")}, want: true},
		{name: "dotted name is one attribute", cond: "#d = :v", names: map[string]string{"#d": "m.x"}, values: item{":v": n("1")}, want: false},
		{name: "reserved word nested", cond: "m.status = :v", values: item{":v": s("on")},
			msg: "Invalid ConditionExpression: Attribute name is a reserved keyword; reserved keyword: status"},
		{name: "reserved word any case", cond: "m.Status = :v", values: item{":v": s("on")},
			msg: "Invalid ConditionExpression: Attribute name is a reserved keyword; reserved keyword: Status"},
		{name: "undefined nested name", cond: "m.#nope = :v", values: item{":v": s("on")},
			msg: "Invalid ConditionExpression: An expression attribute name used in the document path is not defined; attribute name: #nope"},
		{name: "negative index", cond: "l[-1] = :v", values: item{":v": s("on")},
			msg: `Invalid ConditionExpression: Syntax error; token: "-", near: "[-1"`},
	})
}

func TestConditionFunctionsOnTypes(t *testing.T) {
	t.Parallel()
	num := func(v string) item { return item{":v": n(v)} }
	typ := func(v string) item { return item{":t": s(v)} }
	runConditionCases(t, []exprCase{
		{cond: "size(s) = :v", values: num("5"), want: true},
		{cond: "size(e) = :v", values: num("0"), want: true},
		{cond: "size(b) = :v", values: num("3"), want: true},
		{cond: "size(ss) = :v", values: num("2"), want: true},
		{cond: "size(ns) = :v", values: num("2"), want: true},
		{cond: "size(bs) = :v", values: num("2"), want: true},
		{cond: "size(l) = :v", values: num("4"), want: true},
		{cond: "size(m) = :v", values: num("4"), want: true},
		{cond: "size(m.l) = :v", values: num("2"), want: true},
		{cond: "size(l[3]) = :v", values: num("1"), want: true},
		{cond: "size(n) >= :v", values: num("0"), want: false},
		{cond: "size(t) >= :v", values: num("0"), want: false},
		{cond: "size(z) >= :v", values: num("0"), want: false},
		{cond: "size(nope) >= :v", values: num("0"), want: false},
		{cond: "size(s) > size(b)", want: true},
		{cond: "size(s) = :v", values: item{":v": s("5")}, want: false},

		{cond: "contains(s, :v)", values: item{":v": s("")}, want: true},
		{cond: "contains(ns, :v)", values: num("2.0"), want: true},
		{cond: "contains(ns, :v)", values: num("3"), want: false},
		{cond: "contains(bs, :v)", values: item{":v": b([]byte{2, 3})}, want: true},
		{cond: "contains(b, :v)", values: item{":v": b([]byte("yz"))}, want: true},
		{cond: "contains(ss, :v)", values: num("1"), want: false},
		{cond: "contains(l, :v)", values: num("1"), want: true},
		{cond: "contains(l, :v)", values: item{":v": m(item{"x": s("deep")})}, want: true},
		{cond: "contains(l, :v)", values: item{":v": l(n("7"))}, want: true},
		{cond: "contains(m, :v)", values: item{":v": s("x")}, want: false},
		{cond: "contains(n, :v)", values: num("5"), want: false},
		{cond: "contains(nope, :v)", values: item{":v": s("x")}, want: false},
		{cond: "contains(m.l, :v)", values: item{":v": s("a")}, want: true},
		{name: "contains path in itself", cond: "contains(s, s)",
			msg: "Invalid ConditionExpression: The first operand must be distinct from the remaining operands for this operator or function; operator: contains, first operand: [s]"},

		{cond: "begins_with(s, :v)", values: item{":v": s("")}, want: true},
		{cond: "begins_with(s, :v)", values: item{":v": s("hello!")}, want: false},
		{cond: "begins_with(b, :v)", values: item{":v": s("x")}, want: false},
		{cond: "begins_with(ss, :v)", values: item{":v": s("a")}, want: false},
		{cond: "begins_with(m.y.z, :v)", values: item{":v": s("z")}, want: true},
		{name: "begins_with number operand", cond: "begins_with(s, :v)", values: num("1"),
			msg: "Invalid ConditionExpression: Incorrect operand type for operator or function; operator or function: begins_with, operand type: N"},

		{cond: "attribute_type(s, :t)", values: typ("S"), want: true},
		{cond: "attribute_type(e, :t)", values: typ("S"), want: true},
		{cond: "attribute_type(n, :t)", values: typ("N"), want: true},
		{cond: "attribute_type(b, :t)", values: typ("B"), want: true},
		{cond: "attribute_type(ss, :t)", values: typ("SS"), want: true},
		{cond: "attribute_type(ns, :t)", values: typ("NS"), want: true},
		{cond: "attribute_type(bs, :t)", values: typ("BS"), want: true},
		{cond: "attribute_type(l, :t)", values: typ("L"), want: true},
		{cond: "attribute_type(m, :t)", values: typ("M"), want: true},
		{cond: "attribute_type(t, :t)", values: typ("BOOL"), want: true},
		{cond: "attribute_type(f, :t)", values: typ("BOOL"), want: true},
		{cond: "attribute_type(z, :t)", values: typ("NULL"), want: true},
		{cond: "attribute_type(l[2], :t)", values: typ("M"), want: true},
		{cond: "attribute_type(m.y.z, :t)", values: typ("S"), want: true},
		{cond: "attribute_type(ns, :t)", values: typ("N"), want: false},
		{cond: "attribute_type(n, :t)", values: typ("S"), want: false},
		{cond: "attribute_type(nope, :t)", values: typ("NULL"), want: false},
		{name: "attribute_type unknown type", cond: "attribute_type(n, :t)", values: typ("X"),
			msg: "Invalid ConditionExpression: Invalid attribute type name found; type: X, valid types: {N,BS,L,B,NULL,M,S,SS,NS,BOOL}"},
		{name: "attribute_type lower case", cond: "attribute_type(n, :t)", values: typ("n"),
			msg: "Invalid ConditionExpression: Invalid attribute type name found; type: n, valid types: {N,BS,L,B,NULL,M,S,SS,NS,BOOL}"},
		{name: "attribute_type number operand", cond: "attribute_type(n, :v)", values: num("1"),
			msg: "Invalid ConditionExpression: Incorrect operand type for operator or function; operator or function: attribute_type, operand type: N"},
		{name: "attribute_exists on value", cond: "attribute_exists(:v)", values: num("1"),
			msg: "Invalid ConditionExpression: Operator or function requires a document path; operator or function: attribute_exists"},
		{name: "size of a value", cond: "size(:v) = :w", values: item{":v": s("abc"), ":w": n("3")}, want: true},
		{name: "function names any case", cond: "ATTRIBUTE_EXISTS(s)",
			msg: "Invalid ConditionExpression: Invalid function name; function: ATTRIBUTE_EXISTS"},
	})
}

func TestConditionOperators(t *testing.T) {
	t.Parallel()
	v := item{":five": n("5"), ":six": n("6"), ":hello": s("hello"), ":no": s("no"), ":t": bl(true)}
	var in100 []string
	vals100 := item{}
	for i := 0; i < 101; i++ {
		k := fmt.Sprintf(":v%d", i)
		vals100[k] = n(fmt.Sprint(i))
		if i < 100 {
			in100 = append(in100, k)
		}
	}
	runConditionCases(t, []exprCase{
		{cond: "NOT n = :five AND s = :no", values: v, want: false},
		{cond: "NOT n = :six OR s = :no", values: v, want: true},
		{cond: "n = :six AND s = :no OR t = :t", values: v, want: true},
		{cond: "n = :six AND (s = :no OR t = :t)", values: v, want: false},
		{cond: "NOT (n = :five AND s = :hello)", values: v, want: false},
		{cond: "NOT NOT n = :five", values: with(v, nil), want: true},
		{cond: "n = :five AND NOT s = :hello OR t = :t", values: v, want: true},
		{cond: "t = :t OR n = :five AND s = :no", values: v, want: true},
		{cond: "(t = :t OR n = :five) AND s = :no", values: v, want: false},
		{cond: "n BETWEEN :five AND :six AND s = :hello", values: v, want: true},
		{cond: "(n = :five)", values: item{":five": n("5")}, want: true},
		{name: "redundant parentheses", cond: "((n = :five))", values: item{":five": n("5")}, msg: "Invalid ConditionExpression: The expression has redundant parentheses;"},
		{name: "redundant parentheses inside", cond: "t = :t AND ((n = :five))", values: item{":five": n("5"), ":t": bl(true)}, msg: "Invalid ConditionExpression: The expression has redundant parentheses;"},
		{cond: "n = :five and s = :hello or not t = :t", values: v, want: true},

		{cond: "s IN (:no, :hello)", values: item{":no": s("no"), ":hello": s("hello")}, want: true},
		{cond: "n IN (:v)", values: item{":v": s("5")}, want: false},
		{cond: "nope IN (:v)", values: item{":v": s("5")}, want: false},
		{cond: "l[0] IN (:v, :w)", values: item{":v": s("1"), ":w": n("1")}, want: true},
		{cond: "ss IN (:v)", values: item{":v": ss("b", "a")}, want: true},
		{name: "IN 100 values", cond: "n IN (" + strings.Join(in100, ", ") + ")", values: without(vals100, ":v100"), want: true},
		{name: "IN 101 values", cond: "n IN (" + strings.Join(append(in100, ":v100"), ", ") + ")", values: vals100,
			msg: "Invalid ConditionExpression: The IN operator is provided with too many operands; number of operands: 101"},
		{name: "IN empty", cond: "n IN ()", msg: `Invalid ConditionExpression: Syntax error; token: ")", near: "()"`},

		{cond: "s BETWEEN :a AND :z", values: item{":a": s("a"), ":z": s("z")}, want: true},
		{cond: "s BETWEEN :a AND :z", values: item{":a": s("hello"), ":z": s("hello")}, want: true},
		{cond: "s BETWEEN :a AND :z", values: item{":a": s("A"), ":z": s("Z")}, want: false},
		{cond: "b BETWEEN :a AND :z", values: item{":a": b([]byte("x")), ":z": b([]byte("xz"))}, want: true},
		{cond: "b BETWEEN :a AND :z", values: item{":a": b([]byte{0}), ":z": b([]byte("x"))}, want: false},
		{cond: "neg BETWEEN :a AND :z", values: item{":a": n("-3"), ":z": n("-2.5")}, want: true},
		{cond: "nope BETWEEN :a AND :z", values: item{":a": n("1"), ":z": n("2")}, want: false},
		{name: "BETWEEN bounds of two types", cond: "n BETWEEN :a AND :z", values: item{":a": n("1"), ":z": s("9")},
			msg: "Invalid ConditionExpression: The BETWEEN operator requires same data type for lower and upper bounds; lower bound operand: AttributeValue: {N:1}, upper bound operand: AttributeValue: {S:9}"},
		{name: "BETWEEN bounds reversed", cond: "n BETWEEN :a AND :z", values: item{":a": n("9"), ":z": n("1")},
			msg: "Invalid ConditionExpression: The BETWEEN operator requires upper bound to be greater than or equal to lower bound; lower bound operand: AttributeValue: {N:9}, upper bound operand: AttributeValue: {N:1}"},
		{name: "BETWEEN string bounds reversed", cond: "s BETWEEN :a AND :z", values: item{":a": s("b"), ":z": s("a")},
			msg: "Invalid ConditionExpression: The BETWEEN operator requires upper bound to be greater than or equal to lower bound; lower bound operand: AttributeValue: {S:b}, upper bound operand: AttributeValue: {S:a}"},

		{cond: "n = :v", values: item{":v": s("5")}, want: false},
		{cond: "n <> :v", values: item{":v": s("5")}, want: true},
		{cond: "s > :v", values: item{":v": n("1")}, want: false},
		{cond: "s <= :v", values: item{":v": n("1")}, want: false},
		{cond: "b = :v", values: item{":v": s("xyz")}, want: false},
		{cond: "t = :v", values: item{":v": s("true")}, want: false},
		{cond: "z = :v", values: item{":v": null()}, want: true},
		{cond: "f <> :v", values: item{":v": bl(true)}, want: true},
		{cond: "ns = :v", values: item{":v": ns("2", "1.0")}, want: true},
		{cond: "bs = :v", values: item{":v": bs([]byte{2, 3}, []byte{1})}, want: true},
		{cond: "l = :v", values: item{":v": l(n("1"), s("two"))}, want: false},
		{cond: "m.y = :v", values: item{":v": m(item{"z": s("zz")})}, want: true},
		{cond: "n > neg", want: true},
		{name: "path equals itself", cond: "s = s",
			msg: "Invalid ConditionExpression: The first operand must be distinct from the remaining operands for this operator or function; operator: =, first operand: [s]"},
		{name: "nested path equals itself", cond: "m.y.z <> m.y.z",
			msg: "Invalid ConditionExpression: The first operand must be distinct from the remaining operands for this operator or function; operator: <>, first operand: [m, y, z]"},
		{cond: "s = m.y.z", want: false},
		{cond: "b > :v", values: item{":v": b([]byte("xy"))}, want: true},
		{cond: "b < :v", values: item{":v": b([]byte{0xff})}, want: true},
		{cond: "s < :v", values: item{":v": s("hellp")}, want: true},
		{cond: "s < :v", values: item{":v": s("Hello")}, want: false}, // by bytes: 'H' < 'h'
		{cond: "n < :v", values: item{":v": n("5.000000000000000000000000000000000001")}, want: true},
		{name: "less than on lists", cond: "l < :v", values: item{":v": l(n("1"))},
			msg: "Invalid ConditionExpression: Incorrect operand type for operator or function; operator or function: <, operand type: L"},
		{name: "greater than on bool", cond: "t > :v", values: item{":v": bl(false)},
			msg: "Invalid ConditionExpression: Incorrect operand type for operator or function; operator or function: >, operand type: BOOL"},

		{name: "path equals itself missing", cond: "nope = nope",
			msg: "Invalid ConditionExpression: The first operand must be distinct from the remaining operands for this operator or function; operator: =, first operand: [nope]"},
		{cond: "nope <> :v", values: item{":v": n("1")}, want: true},
		{cond: "NOT nope = :v", values: item{":v": n("1")}, want: true},
		{cond: "nope < :v", values: item{":v": n("1")}, want: false},
		{cond: "NOT (nope < :v)", values: item{":v": n("1")}, want: true},
		{cond: "NOT attribute_exists(nope)", want: true},
		{cond: "m.nope = :v OR attribute_not_exists(m.nope)", values: item{":v": n("1")}, want: true},
		{name: "same value both sides", cond: ":v = :v", values: item{":v": n("1")}, want: true},
		{name: "two values differ", cond: ":v < :w", values: item{":v": n("1"), ":w": n("2")}, want: true},
	})
}

func TestExpressionPlaceholders(t *testing.T) {
	t.Parallel()
	c := newClient(t)
	table := rangeTable(t, c)
	key := item{"pk": s("p"), "sk": n("1")}
	mustPut(t, c, table, with(key, item{"a": n("1")}))
	kv := item{":p": s("p")}
	tests := []struct {
		name string
		call func(t *testing.T) error
		msg  string
	}{
		{"delete condition undefined value", func(t *testing.T) error {
			_, err := c.DeleteItem(ctx(t), &dynamodb.DeleteItemInput{TableName: &table, Key: key, ConditionExpression: aws.String("a = :x")})
			return err
		}, "Invalid ConditionExpression: An expression attribute value used in expression is not defined; attribute value: :x"},
		{"delete condition unused name", func(t *testing.T) error {
			_, err := c.DeleteItem(ctx(t), &dynamodb.DeleteItemInput{TableName: &table, Key: key, ConditionExpression: aws.String("attribute_exists(a)"), ExpressionAttributeNames: map[string]string{"#b": "b"}})
			return err
		}, "Value provided in ExpressionAttributeNames unused in expressions: keys: {#b}"},
		{"update undefined name in value", func(t *testing.T) error {
			_, err := c.UpdateItem(ctx(t), &dynamodb.UpdateItemInput{TableName: &table, Key: key, UpdateExpression: aws.String("SET a = #b")})
			return err
		}, "Invalid UpdateExpression: An expression attribute name used in the document path is not defined; attribute name: #b"},
		{"update name used only in condition", func(t *testing.T) error {
			_, err := c.UpdateItem(ctx(t), &dynamodb.UpdateItemInput{TableName: &table, Key: key, UpdateExpression: aws.String("SET a = :v"), ConditionExpression: aws.String("attribute_exists(#a)"),
				ExpressionAttributeNames: map[string]string{"#a": "a"}, ExpressionAttributeValues: item{":v": n("1"), ":w": n("2")}})
			return err
		}, "Value provided in ExpressionAttributeValues unused in expressions: keys: {:w}"},
		{"query key condition undefined value", func(t *testing.T) error {
			_, err := c.Query(ctx(t), &dynamodb.QueryInput{TableName: &table, KeyConditionExpression: aws.String("pk = :x")})
			return err
		}, "Invalid KeyConditionExpression: An expression attribute value used in expression is not defined; attribute value: :x"},
		{"query key condition undefined name", func(t *testing.T) error {
			_, err := c.Query(ctx(t), &dynamodb.QueryInput{TableName: &table, KeyConditionExpression: aws.String("#k = :p"), ExpressionAttributeValues: kv})
			return err
		}, "Invalid KeyConditionExpression: An expression attribute name used in the document path is not defined; attribute name: #k"},
		{"query filter undefined value", func(t *testing.T) error {
			_, err := c.Query(ctx(t), &dynamodb.QueryInput{TableName: &table, KeyConditionExpression: aws.String("pk = :p"), FilterExpression: aws.String("a = :x"), ExpressionAttributeValues: kv})
			return err
		}, "Invalid FilterExpression: An expression attribute value used in expression is not defined; attribute value: :x"},
		{"query filter undefined name", func(t *testing.T) error {
			_, err := c.Query(ctx(t), &dynamodb.QueryInput{TableName: &table, KeyConditionExpression: aws.String("pk = :p"), FilterExpression: aws.String("attribute_exists(#a)"), ExpressionAttributeValues: kv})
			return err
		}, "Invalid FilterExpression: An expression attribute name used in the document path is not defined; attribute name: #a"},
		{"query projection undefined name", func(t *testing.T) error {
			_, err := c.Query(ctx(t), &dynamodb.QueryInput{TableName: &table, KeyConditionExpression: aws.String("pk = :p"), ProjectionExpression: aws.String("a, #b"), ExpressionAttributeValues: kv})
			return err
		}, "Invalid ProjectionExpression: An expression attribute name used in the document path is not defined; attribute name: #b"},
		{"query unused value", func(t *testing.T) error {
			_, err := c.Query(ctx(t), &dynamodb.QueryInput{TableName: &table, KeyConditionExpression: aws.String("pk = :p"), ExpressionAttributeValues: with(kv, item{":unused": n("1")})})
			return err
		}, "Value provided in ExpressionAttributeValues unused in expressions: keys: {:unused}"},
		{"query unused name", func(t *testing.T) error {
			_, err := c.Query(ctx(t), &dynamodb.QueryInput{TableName: &table, KeyConditionExpression: aws.String("pk = :p"), ExpressionAttributeValues: kv, ExpressionAttributeNames: map[string]string{"#u": "u"}})
			return err
		}, "Value provided in ExpressionAttributeNames unused in expressions: keys: {#u}"},
		{"scan filter undefined value", func(t *testing.T) error {
			_, err := c.Scan(ctx(t), &dynamodb.ScanInput{TableName: &table, FilterExpression: aws.String("a = :x")})
			return err
		}, "Invalid FilterExpression: An expression attribute value used in expression is not defined; attribute value: :x"},
		{"scan projection undefined name", func(t *testing.T) error {
			_, err := c.Scan(ctx(t), &dynamodb.ScanInput{TableName: &table, ProjectionExpression: aws.String("#a")})
			return err
		}, "Invalid ProjectionExpression: An expression attribute name used in the document path is not defined; attribute name: #a"},
		{"scan projection unused name", func(t *testing.T) error {
			_, err := c.Scan(ctx(t), &dynamodb.ScanInput{TableName: &table, ProjectionExpression: aws.String("a"), ExpressionAttributeNames: map[string]string{"#a": "a"}})
			return err
		}, "Value provided in ExpressionAttributeNames unused in expressions: keys: {#a}"},
		{"scan projection with value", func(t *testing.T) error {
			_, err := c.Scan(ctx(t), &dynamodb.ScanInput{TableName: &table, ProjectionExpression: aws.String("a"), ExpressionAttributeValues: item{":v": n("1")}})
			return err
		}, "ExpressionAttributeValues can only be specified when using expressions: FilterExpression is null"},
		{"value placeholder in projection", func(t *testing.T) error {
			_, err := c.Scan(ctx(t), &dynamodb.ScanInput{TableName: &table, ProjectionExpression: aws.String(":v"), FilterExpression: aws.String("a = :v"), ExpressionAttributeValues: item{":v": n("1")}})
			return err
		}, `Invalid ProjectionExpression: Syntax error; token: ":v", near: ":v"`},
		{"batch get projection undefined name", func(t *testing.T) error {
			_, err := c.BatchGetItem(ctx(t), &dynamodb.BatchGetItemInput{RequestItems: map[string]types.KeysAndAttributes{table: {Keys: []item{key}, ProjectionExpression: aws.String("#a")}}})
			return err
		}, "Invalid ProjectionExpression: An expression attribute name used in the document path is not defined; attribute name: #a"},
		{"batch get unused name", func(t *testing.T) error {
			_, err := c.BatchGetItem(ctx(t), &dynamodb.BatchGetItemInput{RequestItems: map[string]types.KeysAndAttributes{table: {Keys: []item{key}, ProjectionExpression: aws.String("a"), ExpressionAttributeNames: map[string]string{"#x": "x"}}}})
			return err
		}, "Value provided in ExpressionAttributeNames unused in expressions: keys: {#x}"},
		{"name key too long", func(t *testing.T) error {
			long := "#" + strings.Repeat("k", 255)
			_, err := c.GetItem(ctx(t), &dynamodb.GetItemInput{TableName: &table, Key: key, ProjectionExpression: aws.String(long), ExpressionAttributeNames: map[string]string{long: "a"}})
			return err
		}, "ExpressionAttributeNames contains invalid key: The expression attribute map contains a key that is too long; size of key: 256"},
		{"value key too long", func(t *testing.T) error {
			long := ":" + strings.Repeat("k", 255)
			_, err := c.UpdateItem(ctx(t), &dynamodb.UpdateItemInput{TableName: &table, Key: key, UpdateExpression: aws.String("SET a = " + long), ExpressionAttributeValues: item{long: s("x")}})
			return err
		}, "ExpressionAttributeValues contains invalid key: The expression attribute map contains a key that is too long;"},
		{"name key without hash", func(t *testing.T) error {
			_, err := c.GetItem(ctx(t), &dynamodb.GetItemInput{TableName: &table, Key: key, ProjectionExpression: aws.String("a"), ExpressionAttributeNames: map[string]string{"x": "a"}})
			return err
		}, `ExpressionAttributeNames contains invalid key: Syntax error; key: "x"`},
		{"value key without colon", func(t *testing.T) error {
			_, err := c.PutItem(ctx(t), &dynamodb.PutItemInput{TableName: &table, Item: key, ConditionExpression: aws.String("attribute_exists(a)"), ExpressionAttributeValues: item{"v": n("1")}})
			return err
		}, `ExpressionAttributeValues contains invalid key: Syntax error; key: "v"`},
		{"empty names map", func(t *testing.T) error {
			_, err := c.GetItem(ctx(t), &dynamodb.GetItemInput{TableName: &table, Key: key, ProjectionExpression: aws.String("a"), ExpressionAttributeNames: map[string]string{}})
			return err
		}, "ExpressionAttributeNames must not be empty"},
		{"empty values map", func(t *testing.T) error {
			_, err := c.PutItem(ctx(t), &dynamodb.PutItemInput{TableName: &table, Item: key, ConditionExpression: aws.String("attribute_exists(a)"), ExpressionAttributeValues: item{}})
			return err
		}, enveloped("ExpressionAttributeValues must not be empty", "")},
		{"empty name value", func(t *testing.T) error {
			_, err := c.GetItem(ctx(t), &dynamodb.GetItemInput{TableName: &table, Key: key, ProjectionExpression: aws.String("#a"), ExpressionAttributeNames: map[string]string{"#a": ""}})
			return err
		}, "ExpressionAttributeNames contains invalid value: Empty attribute name for key #a"},
		{"empty projection", func(t *testing.T) error {
			_, err := c.GetItem(ctx(t), &dynamodb.GetItemInput{TableName: &table, Key: key, ProjectionExpression: aws.String("")})
			return err
		}, "Invalid ProjectionExpression: The expression can not be empty;"},
		{"empty filter", func(t *testing.T) error {
			_, err := c.Scan(ctx(t), &dynamodb.ScanInput{TableName: &table, FilterExpression: aws.String("")})
			return err
		}, "Invalid FilterExpression: The expression can not be empty;"},
		{"empty key condition", func(t *testing.T) error {
			_, err := c.Query(ctx(t), &dynamodb.QueryInput{TableName: &table, KeyConditionExpression: aws.String("")})
			return err
		}, "Invalid KeyConditionExpression: The expression can not be empty;"},
		{"empty update", func(t *testing.T) error {
			_, err := c.UpdateItem(ctx(t), &dynamodb.UpdateItemInput{TableName: &table, Key: key, UpdateExpression: aws.String("")})
			return err
		}, enveloped("Invalid UpdateExpression: The expression can not be empty;", "")},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			requireValidation(t, tc.call(t), expectMsg(t, tc.msg))
		})
	}
	t.Run("name key of 255 bytes is fine", func(t *testing.T) {
		t.Parallel()
		long := "#" + strings.Repeat("k", 254)
		_, err := c.GetItem(ctx(t), &dynamodb.GetItemInput{TableName: &table, Key: key, ProjectionExpression: aws.String(long), ExpressionAttributeNames: map[string]string{long: "a"}})
		mustNoError(t, err)
	})
}

// padExpr pads expr with trailing spaces to exactly size bytes.
func padExpr(expr string, size int) string { return expr + strings.Repeat(" ", size-len(expr)) }

// orChain returns "a0 = :v OR a1 = :v OR ..." with k comparisons: 2k-1 operators.
func orChain(k int) string {
	parts := make([]string, k)
	for i := range parts {
		parts[i] = fmt.Sprintf("a%d = :v", i)
	}
	return strings.Join(parts, " OR ")
}

func TestExpressionOperatorLimit(t *testing.T) {
	t.Parallel()
	c := newClient(t)
	table := hashTable(t, c)
	v := item{":v": n("1")}
	// 150 comparisons, 149 ORs and a NOT: 300 operators, the most allowed.
	_, err := c.PutItem(ctx(t), &dynamodb.PutItemInput{TableName: &table, Item: item{"pk": s("k")}, ConditionExpression: aws.String("NOT " + orChain(150)), ExpressionAttributeValues: v})
	mustNoError(t, err)
	_, err = c.PutItem(ctx(t), &dynamodb.PutItemInput{TableName: &table, Item: item{"pk": s("k")}, ConditionExpression: aws.String(orChain(151)), ExpressionAttributeValues: v})
	requireValidation(t, err, "Invalid ConditionExpression: The expression contains too many operators; operator count: 301")
	_, err = c.Scan(ctx(t), &dynamodb.ScanInput{TableName: &table, FilterExpression: aws.String(orChain(151)), ExpressionAttributeValues: v})
	requireValidation(t, err, "Invalid FilterExpression: The expression contains too many operators; operator count: 301")
}

func TestExpressionSizeLimit(t *testing.T) {
	t.Parallel()
	c := newClient(t)
	table := rangeTable(t, c)
	key := item{"pk": s("p"), "sk": n("1")}
	mustPut(t, c, table, key)
	projection := func(size int) string {
		var b strings.Builder
		for i := 0; b.Len() < size-40; i++ {
			if i > 0 {
				b.WriteString(", ")
			}
			fmt.Fprintf(&b, "a%d", i)
		}
		return padExpr(b.String(), size)
	}
	update := func(size int) string {
		var b strings.Builder
		b.WriteString("SET ")
		for i := 0; b.Len() < size-40; i++ {
			if i > 0 {
				b.WriteString(", ")
			}
			fmt.Fprintf(&b, "a%d = :v", i)
		}
		return padExpr(b.String(), size)
	}
	v := item{":v": n("1")}
	tests := []struct {
		kind string
		call func(t *testing.T, size int) error
	}{
		{"ConditionExpression", func(t *testing.T, size int) error {
			_, err := c.PutItem(ctx(t), &dynamodb.PutItemInput{TableName: &table, Item: key, ConditionExpression: aws.String(padExpr("attribute_not_exists(a0) OR a1 = :v", size)), ExpressionAttributeValues: v})
			return err
		}},
		{"FilterExpression", func(t *testing.T, size int) error {
			_, err := c.Scan(ctx(t), &dynamodb.ScanInput{TableName: &table, FilterExpression: aws.String(padExpr("attribute_not_exists(a0) OR a1 = :v", size)), ExpressionAttributeValues: v})
			return err
		}},
		{"ProjectionExpression", func(t *testing.T, size int) error {
			_, err := c.GetItem(ctx(t), &dynamodb.GetItemInput{TableName: &table, Key: key, ProjectionExpression: aws.String(projection(size))})
			return err
		}},
		{"UpdateExpression", func(t *testing.T, size int) error {
			_, err := c.UpdateItem(ctx(t), &dynamodb.UpdateItemInput{TableName: &table, Key: key, UpdateExpression: aws.String(update(size)), ExpressionAttributeValues: v})
			return err
		}},
		{"KeyConditionExpression", func(t *testing.T, size int) error {
			_, err := c.Query(ctx(t), &dynamodb.QueryInput{TableName: &table, KeyConditionExpression: aws.String(padExpr("pk = :p", size)), ExpressionAttributeValues: item{":p": s("p")}})
			return err
		}},
	}
	for _, tc := range tests {
		t.Run(tc.kind, func(t *testing.T) {
			t.Parallel()
			err := tc.call(t, 4096)
			var ccf *types.ConditionalCheckFailedException
			if err != nil && !asErr(err, &ccf) {
				t.Fatalf("4096 bytes: %v", err)
			}
			err = tc.call(t, 4097)
			// Condition-like expressions say their size; projections and updates do not.
			msg := "Invalid " + tc.kind + ": Expression size has exceeded the maximum allowed size;"
			if tc.kind != "ProjectionExpression" && tc.kind != "UpdateExpression" {
				msg += " expression size: 4097"
			}
			requireValidation(t, err, msg)
		})
	}
}

func TestProjectionPaths(t *testing.T) {
	t.Parallel()
	c := newClient(t)
	table := hashTable(t, c)
	it := richItem("k")
	mustPut(t, c, table, it)
	tests := []struct {
		proj  string
		names map[string]string
		want  item
		msg   string
	}{
		{proj: "l[3][0], l[2].x, m.y.z", want: item{"l": l(m(item{"x": s("deep")}), l(n("7"))), "m": m(item{"y": m(item{"z": s("zz")})})}},
		{proj: "l[1], l[0]", want: item{"l": l(n("1"), s("two"))}},
		{proj: "l[9], m.nope, nope", want: item{}},
		{proj: "m.l[1], m.x", want: item{"m": m(item{"l": l(s("b")), "x": n("1")})}},
		{proj: "s.x, l.x, m[0]", want: item{}},
		{proj: "#m.#s", names: map[string]string{"#m": "m", "#s": "status"}, want: item{"m": m(item{"status": s("on")})}},
		{proj: "ss, bs, z", want: item{"ss": ss("a", "b"), "bs": bs([]byte{1}, []byte{2, 3}), "z": null()}},
		{proj: "m.y, m.y.z", msg: "Invalid ProjectionExpression: Two document paths overlap with each other; must remove or rewrite one of these paths; path one: [m, y], path two: [m, y, z]"},
		{proj: "l[0], l", msg: "Invalid ProjectionExpression: Two document paths overlap with each other; must remove or rewrite one of these paths; path one: [l, [0]], path two: [l]"},
		{proj: "s, s", msg: "Invalid ProjectionExpression: Two document paths overlap with each other; must remove or rewrite one of these paths; path one: [s], path two: [s]"},
		{proj: "#a, s", names: map[string]string{"#a": "s"}, msg: "Invalid ProjectionExpression: Two document paths overlap with each other; must remove or rewrite one of these paths; path one: [s], path two: [s]"},
		{proj: "m.x, m[0]", msg: "Invalid ProjectionExpression: Two document paths conflict with each other; must remove or rewrite one of these paths; path one: [m, x], path two: [m, [0]]"},
		{proj: "a, , b", msg: `Invalid ProjectionExpression: Syntax error; token: ",", near: ", , b"`},
		{proj: "size(s)", msg: "Invalid ProjectionExpression: Syntax error; token: \"(\", near: \"size(s\""},
		{proj: "l[01]", msg: `Invalid ProjectionExpression: Syntax error; token: "1", near: "01]"`},
	}
	for _, tc := range tests {
		t.Run(tc.proj, func(t *testing.T) {
			t.Parallel()
			out, err := c.GetItem(ctx(t), &dynamodb.GetItemInput{TableName: &table, Key: item{"pk": s("k")}, ProjectionExpression: aws.String(tc.proj), ExpressionAttributeNames: tc.names})
			if tc.msg != "" {
				requireValidation(t, err, tc.msg)
				return
			}
			mustNoError(t, err)
			requireItem(t, out.Item, tc.want)
			// Scan projects the same way.
			sc, err := c.Scan(ctx(t), &dynamodb.ScanInput{TableName: &table, ProjectionExpression: aws.String(tc.proj), ExpressionAttributeNames: tc.names})
			mustNoError(t, err)
			requireItems(t, sc.Items, []item{tc.want})
		})
	}
}
