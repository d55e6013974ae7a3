package expr

import (
	"testing"

	"github.com/dynamoemu/dynamoemu/internal/storage"
)

func bp(b bool) *bool                   { return &b }
func vp(v storage.Value) *storage.Value { return &v }

var (
	sx = storage.S("x")
	sy = storage.S("y")
	n1 = storage.N("1")
	n5 = storage.N("5")
)

// Messages recorded from DynamoDB Local (UpdateItem with Expected).
func TestExpectedErrors(t *testing.T) {
	tests := []struct {
		name string
		exp  map[string]LegacyCondition
		op   string
		want string
	}{
		{"no values", map[string]LegacyCondition{"a": {ComparisonOperator: "EQ"}}, "",
			"One or more parameter values were invalid: Value or AttributeValueList must be used with ComparisonOperator: EQ for Attribute: a"},
		{"two for EQ", map[string]LegacyCondition{"a": {ComparisonOperator: "EQ", AttributeValueList: []storage.Value{sx, sy}}}, "",
			"One or more parameter values were invalid: Invalid number of argument(s) for the EQ ComparisonOperator"},
		{"one for BETWEEN", map[string]LegacyCondition{"a": {ComparisonOperator: "BETWEEN", AttributeValueList: []storage.Value{sx}}}, "",
			"One or more parameter values were invalid: Invalid number of argument(s) for the BETWEEN ComparisonOperator"},
		{"between order", map[string]LegacyCondition{"a": {ComparisonOperator: "BETWEEN", AttributeValueList: []storage.Value{sy, sx}}}, "",
			"The BETWEEN condition was provided a range where the lower bound is greater than the upper bound"},
		{"between types", map[string]LegacyCondition{"a": {ComparisonOperator: "BETWEEN", AttributeValueList: []storage.Value{sy, n1}}}, "",
			"One or more parameter values were invalid: AttributeValues inside AttributeValueList must be of same type"},
		{"NULL with value", map[string]LegacyCondition{"a": {ComparisonOperator: "NULL", AttributeValueList: []storage.Value{sy}}}, "",
			"One or more parameter values were invalid: Invalid number of argument(s) for the NULL ComparisonOperator"},
		{"empty IN", map[string]LegacyCondition{"a": {ComparisonOperator: "IN", AttributeValueList: []storage.Value{}}}, "",
			"One or more parameter values were invalid: Invalid number of argument(s) for the IN ComparisonOperator"},
		{"unknown op", map[string]LegacyCondition{"a": {ComparisonOperator: "FOO", AttributeValueList: []storage.Value{sy}}}, "",
			"Comparison type does not exist in DynamoDB"},
		{"LT on set", map[string]LegacyCondition{"a": {ComparisonOperator: "LT", AttributeValueList: []storage.Value{storage.SS([]string{"y"})}}}, "",
			"One or more parameter values were invalid: ComparisonOperator LT is not valid for SS AttributeValue type"},
		{"CONTAINS list", map[string]LegacyCondition{"a": {ComparisonOperator: "CONTAINS", AttributeValueList: []storage.Value{storage.L(nil)}}}, "",
			"One or more parameter values were invalid: ComparisonOperator CONTAINS is not valid for L AttributeValue type"},
		{"BEGINS_WITH number", map[string]LegacyCondition{"a": {ComparisonOperator: "BEGINS_WITH", AttributeValueList: []storage.Value{n1}}}, "",
			"One or more parameter values were invalid: ComparisonOperator BEGINS_WITH is not valid for N AttributeValue type"},
		{"exists without value", map[string]LegacyCondition{"a": {Exists: bp(true)}}, "",
			"One or more parameter values were invalid: Value must be provided when Exists is true for Attribute: a"},
		{"not exists with value", map[string]LegacyCondition{"a": {Exists: bp(false), Value: vp(sx)}}, "",
			"One or more parameter values were invalid: Value cannot be used when Exists is false for Attribute: a"},
		{"exists and op", map[string]LegacyCondition{"a": {Exists: bp(true), Value: vp(sx), ComparisonOperator: "EQ"}}, "",
			"One or more parameter values were invalid: Exists and ComparisonOperator cannot be used together for Attribute: a"},
		{"value and list", map[string]LegacyCondition{"a": {Value: vp(sx), ComparisonOperator: "EQ", AttributeValueList: []storage.Value{sx}}}, "",
			"One or more parameter values were invalid: Value and AttributeValueList cannot be used together for Attribute: a"},
		{"nothing", map[string]LegacyCondition{"a": {}}, "",
			"One or more parameter values were invalid: Value must be provided when Exists is null for Attribute: a"},
		{"operator on empty", map[string]LegacyCondition{}, "OR",
			"ConditionalOperator cannot be used without Filter or Expected"},
		{"OR on one", map[string]LegacyCondition{"a": {Exists: bp(false)}}, "OR",
			"ConditionalOperator can only be used when Filter or Expected has two or more elements"},
		{"AND on one", map[string]LegacyCondition{"a": {Exists: bp(false)}}, "AND",
			"ConditionalOperator can only be used when Filter or Expected has two or more elements"},
		{"OR on one bad condition", map[string]LegacyCondition{"a": {ComparisonOperator: "EQ"}}, "OR",
			"One or more parameter values were invalid: Value or AttributeValueList must be used with ComparisonOperator: EQ for Attribute: a"},
		{"list without operator", map[string]LegacyCondition{"a": {AttributeValueList: []storage.Value{sx}}}, "",
			"One or more parameter values were invalid: AttributeValueList can only be used with a ComparisonOperator for Attribute: a"},
		{"empty list without operator", map[string]LegacyCondition{"a": {AttributeValueList: []storage.Value{}}}, "",
			"One or more parameter values were invalid: AttributeValueList can only be used with a ComparisonOperator for Attribute: a"},
		{"not exists with list", map[string]LegacyCondition{"a": {Exists: bp(false), AttributeValueList: []storage.Value{sx}}}, "",
			"One or more parameter values were invalid: AttributeValueList can only be used with a ComparisonOperator for Attribute: a"},
		{"exists, op and list", map[string]LegacyCondition{"a": {Exists: bp(true), ComparisonOperator: "EQ", AttributeValueList: []storage.Value{sx}}}, "",
			"One or more parameter values were invalid: Exists and ComparisonOperator cannot be used together for Attribute: a"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Expected(tt.exp, tt.op)
			if err == nil || err.Error() != tt.want {
				t.Errorf("got %v, want %s", err, tt.want)
			}
		})
	}
}

// Semantics recorded from DynamoDB Local (ScanFilter on one item).
func TestLegacyFilterEval(t *testing.T) {
	item := storage.Item{"n": n5, "s": storage.S("hello"), "ss": storage.SS([]string{"a", "b"})}
	tests := []struct {
		attr, op string
		args     []storage.Value
		want     bool
	}{
		{"nope", "NE", []storage.Value{sx}, true},
		{"nope", "NOT_CONTAINS", []storage.Value{sx}, false},
		{"n", "NOT_CONTAINS", []storage.Value{sx}, true},
		{"s", "NOT_CONTAINS", []storage.Value{sx}, true},
		{"s", "NOT_CONTAINS", []storage.Value{storage.S("ell")}, false},
		{"ss", "CONTAINS", []storage.Value{storage.S("a")}, true},
		{"n", "IN", []storage.Value{n5, storage.N("6")}, true},
		{"n", "BETWEEN", []storage.Value{n1, n5}, true},
		{"nope", "NULL", nil, true},
		{"n", "NOT_NULL", nil, true},
		{"s", "BEGINS_WITH", []storage.Value{storage.S("he")}, true},
		{"n", "GE", []storage.Value{n5}, true},
		{"n", "GT", []storage.Value{n5}, false},
	}
	for _, tt := range tests {
		cond, err := Filter(named(map[string]LegacyCondition{tt.attr: {ComparisonOperator: tt.op, AttributeValueList: tt.args}}), "")
		if err != nil {
			t.Fatalf("%s %s: %v", tt.attr, tt.op, err)
		}
		if got, _ := cond.Eval(item); got != tt.want {
			t.Errorf("%s %s %v: got %v, want %v (%s)", tt.attr, tt.op, tt.args, got, tt.want, cond)
		}
	}
	// Two entries joined with OR.
	cond, err := Filter(named(map[string]LegacyCondition{
		"n": {ComparisonOperator: "EQ", AttributeValueList: []storage.Value{n5}},
		"s": {ComparisonOperator: "EQ", AttributeValueList: []storage.Value{storage.S("q")}},
	}), "OR")
	if err != nil {
		t.Fatal(err)
	}
	if ok, _ := cond.Eval(item); !ok {
		t.Errorf("OR filter: got false, want true")
	}
	if _, err := ParseCondition("FilterExpression", cond.String()); err != nil {
		t.Errorf("legacy condition prints as %q which does not parse: %v", cond, err)
	}
}

func TestKeyConditionsLegacy(t *testing.T) {
	eq := func(v storage.Value) LegacyCondition {
		return LegacyCondition{ComparisonOperator: "EQ", AttributeValueList: []storage.Value{v}}
	}
	tests := []struct {
		name  string
		conds map[string]LegacyCondition
		want  string
	}{
		{"ok", map[string]LegacyCondition{"pk": eq(sx), "sk": {ComparisonOperator: "GT", AttributeValueList: []storage.Value{n1}}}, ""},
		{"partition GT", map[string]LegacyCondition{"pk": {ComparisonOperator: "GT", AttributeValueList: []storage.Value{sx}}}, "Query key condition not supported"},
		{"only sort", map[string]LegacyCondition{"sk": eq(n1)}, "Query condition missed key schema element"},
		{"type", map[string]LegacyCondition{"pk": eq(n1)}, "One or more parameter values were invalid: Condition parameter type does not match schema type"},
		{"non-key", map[string]LegacyCondition{"pk": eq(sx), "x": eq(n1)}, "Query condition missed key schema element"},
		{"begins_with N", map[string]LegacyCondition{"pk": eq(sx), "sk": {ComparisonOperator: "BEGINS_WITH", AttributeValueList: []storage.Value{n1}}},
			"One or more parameter values were invalid: ComparisonOperator BEGINS_WITH is not valid for N AttributeValue type"},
		{"between order", map[string]LegacyCondition{"pk": eq(sx), "sk": {ComparisonOperator: "BETWEEN", AttributeValueList: []storage.Value{storage.N("3"), n1}}},
			"The BETWEEN condition was provided a range where the lower bound is greater than the upper bound"},
		{"sort type", map[string]LegacyCondition{"pk": eq(sx), "sk": eq(sx)}, "One or more parameter values were invalid: Condition parameter type does not match schema type"},
		{"two values", map[string]LegacyCondition{"pk": {ComparisonOperator: "EQ", AttributeValueList: []storage.Value{sx, sy}}},
			"One or more parameter values were invalid: Invalid number of argument(s) for the EQ ComparisonOperator"},
		// Checked per key once bound: values first, then the operator.
		{"partition NE", map[string]LegacyCondition{"pk": {ComparisonOperator: "NE", AttributeValueList: []storage.Value{sx}}}, "Query key condition not supported"},
		{"partition IN", map[string]LegacyCondition{"pk": {ComparisonOperator: "IN", AttributeValueList: []storage.Value{sx, sy}}}, "Query key condition not supported"},
		{"partition NE type", map[string]LegacyCondition{"pk": {ComparisonOperator: "NE", AttributeValueList: []storage.Value{n1}}},
			"One or more parameter values were invalid: Condition parameter type does not match schema type"},
		{"partition LT type", map[string]LegacyCondition{"pk": {ComparisonOperator: "LT", AttributeValueList: []storage.Value{n1}}},
			"One or more parameter values were invalid: Condition parameter type does not match schema type"},
		{"partition NULL", map[string]LegacyCondition{"pk": {ComparisonOperator: "NULL"}}, "Only scalar types can be used as Hash Key values"},
		{"partition NE, sort IN", map[string]LegacyCondition{"pk": {ComparisonOperator: "NE", AttributeValueList: []storage.Value{sx}}, "sk": {ComparisonOperator: "IN", AttributeValueList: []storage.Value{n1}}},
			"Query key condition not supported"},
		{"sort IN", map[string]LegacyCondition{"pk": eq(sx), "sk": {ComparisonOperator: "IN", AttributeValueList: []storage.Value{n1, n5}}},
			"Attempted conditional constraint is not an indexable operation"},
		{"sort NE", map[string]LegacyCondition{"pk": eq(sx), "sk": {ComparisonOperator: "NE", AttributeValueList: []storage.Value{n1}}},
			"Attempted conditional constraint is not an indexable operation"},
		{"sort IN type", map[string]LegacyCondition{"pk": eq(sx), "sk": {ComparisonOperator: "IN", AttributeValueList: []storage.Value{sx}}},
			"One or more parameter values were invalid: Condition parameter type does not match schema type"},
		{"sort NOT_NULL", map[string]LegacyCondition{"pk": eq(sx), "sk": {ComparisonOperator: "NOT_NULL"}}, "Only scalar types can be used as Range Key values"},
		{"only sort IN", map[string]LegacyCondition{"sk": {ComparisonOperator: "IN", AttributeValueList: []storage.Value{n1}}}, "Query condition missed key schema element"},
		{"non-key NE", map[string]LegacyCondition{"x": {ComparisonOperator: "NE", AttributeValueList: []storage.Value{n1}}}, "Query condition missed key schema element"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			kc, err := KeyConditions(named(tt.conds), oracleKeySchema)
			got := ""
			if err != nil {
				got = err.Error()
			}
			if got != tt.want {
				t.Fatalf("got %q, want %q", got, tt.want)
			}
			if err == nil && (kc.Sort.Op != storage.SortGT || !storage.Equal(kc.Partition, sx)) {
				t.Errorf("got %+v", kc)
			}
		})
	}
}

func TestAttributeUpdates(t *testing.T) {
	old := storage.Item{"zz": storage.S("x"), "n": n5, "s": storage.SS([]string{"a", "b"}), "l": storage.L([]storage.Value{n1})}
	errs := []struct {
		name string
		au   AttributeUpdate
		want string
	}{
		{"add string", AttributeUpdate{Action: "ADD", Value: vp(sx)}, "One or more parameter values were invalid: ADD action is not supported for the type STRING"},
		{"add nothing", AttributeUpdate{Action: "ADD"}, "One or more parameter values were invalid: Only DELETE action is allowed when no attribute value is specified"},
		{"put nothing", AttributeUpdate{Action: "PUT"}, "One or more parameter values were invalid: Only DELETE action is allowed when no attribute value is specified"},
		{"delete string", AttributeUpdate{Action: "DELETE", Value: vp(sx)}, "One or more parameter values were invalid: DELETE action with value is not supported for the type STRING"},
		{"delete number", AttributeUpdate{Action: "DELETE", Value: vp(n1)}, "One or more parameter values were invalid: DELETE action with value is not supported for the type NUMBER"},
		{"bad action", AttributeUpdate{Action: "FOO", Value: vp(sx)}, "Member must satisfy enum value set: [ADD, DELETE, PUT]"},
	}
	for _, tt := range errs {
		if _, err := AttributeUpdates(map[string]AttributeUpdate{"q": tt.au}); err == nil || err.Error() != tt.want {
			t.Errorf("%s: got %v, want %s", tt.name, err, tt.want)
		}
	}
	apply := []struct {
		name string
		ups  map[string]AttributeUpdate
		want string
	}{
		{"add number to string", map[string]AttributeUpdate{"zz": {Action: "ADD", Value: vp(n1)}}, "Type mismatch for attribute to update"},
		{"delete set from string", map[string]AttributeUpdate{"zz": {Action: "DELETE", Value: vp(storage.SS([]string{"x"}))}}, "Type mismatch for attribute to update"},
		{"add list to missing", map[string]AttributeUpdate{"q": {Action: "ADD", Value: vp(storage.L([]storage.Value{sx}))}}, `{"l":{"L":[{"N":"1"}]},"n":{"N":"5"},"q":{"L":[{"S":"x"}]},"s":{"SS":["a","b"]},"zz":{"S":"x"}}`},
		{"add list appends", map[string]AttributeUpdate{"l": {Action: "ADD", Value: vp(storage.L([]storage.Value{sx}))}}, `{"l":{"L":[{"N":"1"},{"S":"x"}]},"n":{"N":"5"},"s":{"SS":["a","b"]},"zz":{"S":"x"}}`},
		{"put, add, delete", map[string]AttributeUpdate{"zz": {Value: vp(sy)}, "n": {Action: "ADD", Value: vp(n1)}, "s": {Action: "DELETE", Value: vp(storage.SS([]string{"a", "b"}))}},
			`{"l":{"L":[{"N":"1"}]},"n":{"N":"6"},"zz":{"S":"y"}}`},
		{"delete attribute", map[string]AttributeUpdate{"zz": {Action: "DELETE"}}, `{"l":{"L":[{"N":"1"}]},"n":{"N":"5"},"s":{"SS":["a","b"]}}`},
	}
	for _, tt := range apply {
		u, err := AttributeUpdates(tt.ups)
		if err != nil {
			t.Fatalf("%s: %v", tt.name, err)
		}
		out, err := u.Apply(old)
		got := ""
		if err != nil {
			got = err.Error()
		} else {
			got = encodeItem(out)
		}
		if got != tt.want {
			t.Errorf("%s: got %s, want %s", tt.name, got, tt.want)
		}
	}
}

func TestAttributesToGet(t *testing.T) {
	if _, err := AttributesToGet([]string{"n", "n"}); err == nil || err.Error() != "One or more parameter values were invalid: Duplicate value in attribute name: n" {
		t.Errorf("duplicate: got %v", err)
	}
	p, err := AttributesToGet([]string{"n", "nope"})
	if err != nil {
		t.Fatal(err)
	}
	if got := encodeItem(p.Apply(storage.Item{"n": n1, "x": n5})); got != `{"n":{"N":"1"}}` {
		t.Errorf("got %s", got)
	}
}

// Recorded from DynamoDB Local (Query and Scan with a one-entry filter).
func TestFilterConditionalOperator(t *testing.T) {
	one := map[string]LegacyCondition{"v": {ComparisonOperator: "EQ", AttributeValueList: []storage.Value{n1}}}
	tests := []struct {
		name   string
		filter map[string]LegacyCondition
		op     string
		want   string
	}{
		{"none on one", one, "", ""},
		{"OR on one", one, "OR", "ConditionalOperator can only be used when Filter or Expected has two or more elements"},
		{"AND on one", one, "AND", "ConditionalOperator can only be used when Filter or Expected has two or more elements"},
		{"OR on empty", map[string]LegacyCondition{}, "OR", "ConditionalOperator cannot be used without Filter or Expected"},
		{"OR on one bad", map[string]LegacyCondition{"v": {ComparisonOperator: "EQ", AttributeValueList: []storage.Value{n1, n5}}}, "OR",
			"One or more parameter values were invalid: Invalid number of argument(s) for the EQ ComparisonOperator"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Filter(named(tt.filter), tt.op)
			got := ""
			if err != nil {
				got = err.Error()
			}
			if got != tt.want {
				t.Errorf("got %q, want %q", got, tt.want)
			}
		})
	}
}
