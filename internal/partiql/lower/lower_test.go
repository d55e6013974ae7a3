package lower

import (
	"errors"
	"strings"
	"testing"

	"github.com/dynamoemu/dynamoemu/internal/expr"
	"github.com/dynamoemu/dynamoemu/internal/partiql"
	"github.com/dynamoemu/dynamoemu/internal/storage"
)

var (
	hashKeys  = storage.KeySchema{Partition: storage.KeyAttr{Name: "pk", Kind: storage.KindS}}
	rangeKeys = storage.KeySchema{Partition: storage.KeyAttr{Name: "pk", Kind: storage.KindS},
		Sort: storage.KeyAttr{Name: "sk", Kind: storage.KindN}}
)

func mustParse(t *testing.T, src string) partiql.Statement {
	t.Helper()
	st, err := partiql.Parse(src)
	if err != nil {
		t.Fatalf("parse %q: %v", src, err)
	}
	return st
}

// item is the sample item the WHERE tests evaluate on.
var item = storage.Item{
	"pk": storage.S("a"), "ss": storage.SS([]string{"a", "b"}), "s": storage.S("str"), "n": storage.N("5"),
	"flag": storage.Bool(true), "nul": storage.Null(), "l": storage.L([]storage.Value{storage.N("1")}),
	"m":   storage.M(map[string]storage.Value{"sub": storage.S("x"), "inner": storage.S("y")}),
	"key": storage.S("k"),
}

// TestWhere: a WHERE clause lowered into a filter, evaluated on item: the
// forms AWS and DynamoDB Local accept (whereFunctions, comparisons of a
// condition's value) and what they answer, observed on DynamoDB Local
// 3.3.0 with the same item.
func TestWhere(t *testing.T) {
	tests := []struct {
		where string
		want  bool
	}{
		{"attribute_exists(ss) = true", true},
		{"attribute_exists(ss) = false", false},
		{"attribute_exists(nope) = false", true},
		{"attribute_exists(ss) <> true", false},
		{"true = attribute_exists(ss)", true},
		{"attribute_exists(ss) = 1", false},
		{"attribute_exists(ss) <> 1", true},
		{"attribute_exists(ss) = 'x'", false},
		{"attribute_exists(ss) = NULL", false},
		{"attribute_exists(ss) = (true)", true},
		{"(attribute_exists(ss)) = true", true},
		{"NOT attribute_exists(ss) = false", true},
		{"attribute_exists(ss) = flag", true},
		{"attribute_exists(nope) = flag", false},
		{"attribute_exists(ss) = attribute_exists(s)", true},
		{"attribute_exists(ss) = attribute_exists(nope)", false},
		{"attribute_exists(ss) IN [true]", true},
		{"(n = 5) = true", true},
		{"size(s) = true", false},
		{"begins_with(s, 'st') = true", true},
		{"contains(ss, 'a') = true", true},
		{"attribute_type(s, 'S') = true", true},
		{"ATTRIBUTE_EXISTS(ss)", true},
		{"attribute_exists(\"ss\")", true},
		{"attribute_exists(m.sub)", true},
		{"attribute_exists(m.nope)", false},
		{"attribute_exists(m.\"inner\")", true},
		{"m['inner'] = 'y'", true},
		{"\"key\" = 'k'", true},
		{"((n = 5))", true},
		{"flag IS BOOL", true},
		{"flag IS BOOLEAN", true},
		{"s IS STRING", true},
		{"s IS BOOL", false},
		{"n IS NUMERIC", true},
		{"n IS NUMERIC(3, 1)", true},
		{"l IS LIST", true},
		{"ss IS LIST", false},
		{"m IS STRUCT", true},
		{"m IS TUPLE", true},
		{"nul IS NULL", true},
		{"nope IS NULL", false},
		{"nope IS NOT NULL", true},
		{"nope IS NOT STRING", true},
		{"s IS NOT STRING", false},
		{"nul IS MISSING", false},
		{"nope IS MISSING", true},
		{"nul IS NOT MISSING", true},
		{"(n) IS NUMERIC", true},
		{"m.sub IS STRING", true},
		{"l[0] IS NUMERIC", true},
		{"5 IS NUMERIC", true},
		{"-5 IS NUMERIC", true},
		{"'x' IS NOT STRING", false},
		{"NULL IS NULL", true},
		{"n IS NULL OR n IS NUMERIC", true},
		{"n BETWEEN 1 AND 9 AND n NOT BETWEEN 6 AND 7", true},
		{"n NOT IN (1, 2)", true},
		{"n IN [5, 5]", true},
	}
	for _, tt := range tests {
		src := "SELECT * FROM t WHERE pk = 'a' AND " + tt.where
		s, err := LowerSelect(Binding{Src: src}, mustParse(t, src).(*partiql.Select), Target{Keys: hashKeys})
		if err != nil {
			t.Errorf("%s: %v", tt.where, err)
			continue
		}
		if got, _ := s.Filter.Eval(item); got != tt.want {
			t.Errorf("%s: got %v, want %v", tt.where, got, tt.want)
		}
	}
}

// TestErrors: statements refused, with DynamoDB's message (errors.go says
// whose words each is).
func TestErrors(t *testing.T) {
	tests := []struct {
		name, src string
		params    []storage.Value
		want      string
	}{
		{"ordering a condition", "SELECT * FROM t WHERE pk = 'a' AND attribute_exists(ss) < true", nil,
			"Incorrect operand type for operator or function; operator or function: <, operand type: BOOL"},
		{"between of a condition", "SELECT * FROM t WHERE pk = 'a' AND attribute_exists(ss) BETWEEN true AND true", nil,
			"Incorrect operand type for operator or function; operator or function: BETWEEN, operand type: BOOL"},
		{"ordering a BOOL", "SELECT * FROM t WHERE pk = 'a' AND val < ?", []storage.Value{storage.Bool(true)},
			"Incorrect operand type for operator or function; operator or function: <, operand type: BOOL"},
		{"bare true", "SELECT * FROM t WHERE pk = 'a' AND true", nil, "The arguments to AND/OR must be Expressions"},
		{"attribute_exists of a string", "SELECT * FROM t WHERE pk = 'a' AND attribute_exists('ss')", nil,
			"Operator or function requires a document path; operator or function: attribute_exists"},
		{"attribute_exists of a parameter", "SELECT * FROM t WHERE pk = 'a' AND attribute_exists(?)", []storage.Value{storage.S("ss")},
			"Operator or function requires a document path; operator or function: attribute_exists"},
		{"attribute_exists of nothing", "SELECT * FROM t WHERE pk = 'a' AND attribute_exists()", nil,
			"Incorrect number of operands for operator or function; operator or function: attribute_exists, number of operands: 0"},
		{"attribute_exists of two", "SELECT * FROM t WHERE pk = 'a' AND attribute_exists(ss, ns)", nil,
			"Incorrect number of operands for operator or function; operator or function: attribute_exists, number of operands: 2"},
		{"attribute_exists projected", "SELECT attribute_exists(ss) FROM t WHERE pk = 'a'", nil, "Unexpected path component at 1:8:16"},
		{"EXISTS as a function", "SELECT * FROM t WHERE pk = 'a' AND EXISTS(ss)", nil, "Unrecognized function: exists at 1:36:6"},
		{"set_add in a WHERE", "SELECT * FROM t WHERE pk = 'a' AND set_add(ss, <<'x'>>) = ss", nil, "Unrecognized function: set_add at 1:36:7"},
		{"x = set_add in a WHERE", "SELECT * FROM t WHERE pk = 'a' AND ss = set_add(ss, <<'x'>>)", nil, "Unrecognized function: set_add at 1:41:7"},
		{"set_add in an INSERT", "INSERT INTO t VALUE {'pk': 'x', 'ss': set_add(<<'a'>>, <<'b'>>)}", nil, "Unsupported data type: set_add under key root at 1:39:7"},
		{"unsupported IS type", "SELECT * FROM t WHERE pk = 'a' AND n IS FLOAT", nil,
			"Unsupported data type for IS operator: FLOAT. Supported data types are [MISSING, NULL, BOOLEAN, BLOB, STRING, NUMERIC, STRUCT, TUPLE, LIST] at 1:38:2"},
		{"unsupported IS NOT type", "SELECT * FROM t WHERE pk = 'a' AND n IS NOT DOUBLE PRECISION", nil,
			"Unsupported data type for IS operator: DOUBLE_PRECISION. Supported data types are [MISSING, NULL, BOOLEAN, BLOB, STRING, NUMERIC, STRUCT, TUPLE, LIST] at 1:38:2"},
		{"IS of a call", "SELECT * FROM t WHERE pk = 'a' AND size(s) IS NUMERIC", nil, msgIsOperand},
		{"IS of a call, an unsupported type", "SELECT * FROM t WHERE pk = 'a' AND size(s) IS FLOAT", nil, msgIsOperand},
		{"IS of a negated path", "SELECT * FROM t WHERE pk = 'a' AND -n IS NUMERIC", nil, msgIsOperand},
		{"IS of a parameter", "SELECT * FROM t WHERE pk = 'a' AND ? IS STRING", []storage.Value{storage.S("x")}, msgIsOperand},
		{"IS of a list", "SELECT * FROM t WHERE pk = 'a' AND [1] IS LIST", nil, msgIsOperand},
		{"MISSING IS MISSING", "SELECT * FROM t WHERE pk = 'a' AND MISSING IS MISSING", nil, msgIsOperand},
		{"empty path component", "SELECT * FROM t WHERE pk = 'a' AND \"\" = 1", nil, "Path component cannot be an empty string"},
		{"empty nested path component", "SELECT * FROM t WHERE pk = 'a' AND m.\"\" = 1", nil, "Path component cannot be an empty string"},
		{"empty IN", "SELECT * FROM t WHERE pk = 'a' AND n IN []", nil, msgInRightSide},
		{"overflow", "SELECT * FROM t WHERE pk = 'a' AND n = 1e126", nil,
			"Number overflow. Attempting to store a number with magnitude larger than supported range under root"},
		{"underflow", "SELECT * FROM t WHERE pk = 'a' AND n = 1e-131", nil,
			"Number underflow. Attempting to store a number with magnitude smaller than supported range under root"},
		{"39 digits", "SELECT * FROM t WHERE pk = 'a' AND n = 123456789012345678901234567890123456789", nil,
			"Attempting to store more than 38 significant digits in a Number under root"},
		{"overflow in a map", "INSERT INTO t VALUE {'pk': 'x', 'm': {'x': 1e126}}", nil,
			"Number overflow. Attempting to store a number with magnitude larger than supported range under root.x"},
		{"overflow in a list", "INSERT INTO t VALUE {'pk': 'x', 'l': [1, 1e126]}", nil,
			"Number overflow. Attempting to store a number with magnitude larger than supported range under root[1]"},
		{"overflow deep", "INSERT INTO t VALUE {'pk': 'x', 'm': {'a': {'l': [1, [2, -1e126]]}}}", nil,
			"Number overflow. Attempting to store a number with magnitude larger than supported range under root.a.l[1][1]"},
		{"missing deep", "INSERT INTO t VALUE {'pk': 'z', 'm': {'a': {'l': [1, [2, MISSING]]}}}", nil,
			"Unsupported data type: LiteralMissing under key root.a.l.1.1 at 1:58:7"},
		{"update overflow", "UPDATE t SET a = 1e-131 WHERE pk = 'x'", nil,
			"Number underflow. Attempting to store a number with magnitude smaller than supported range under root"},
		{"set literal with a repeated member", "INSERT INTO t VALUE {'pk': 'z', 's': <<'x', 'x'>>}", nil,
			"One or more parameter values were invalid: Input collection [x, x] contains duplicates."},
		{"number set with a repeated member", "INSERT INTO t VALUE {'pk': 'z', 's': <<1, 1.0>>}", nil,
			"One or more parameter values were invalid: Input collection [1, 1.0] contains duplicates."},
		{"set_add one argument", "UPDATE t SET ss = set_add(ss) WHERE pk = 'a'", nil, "SET_ADD must have exactly two arguments at 1:19:7"},
		{"set_add three arguments", "UPDATE t SET ss = set_add(ss, <<'x'>>, <<'y'>>) WHERE pk = 'a'", nil, "SET_ADD must have exactly two arguments at 1:19:7"},
		{"set_add to another attribute", "UPDATE t SET t = set_add(ss, <<'x'>>) WHERE pk = 'a'", nil,
			"The first argument to SET_ADD must equal the assignment value at 1:18:7"},
		{"set_add of a literal set", "UPDATE t SET ss = set_add(<<'a'>>, <<'b'>>) WHERE pk = 'a'", nil,
			"The first argument to SET_ADD must equal the assignment value at 1:19:7"},
		{"set_add of a string", "UPDATE t SET ss = set_add(ss, 'x') WHERE pk = 'a'", nil,
			"The second argument to SET_ADD must be a value with type SET at 1:27:2"},
		{"set_add of a list", "UPDATE t SET ss = set_add(ss, ['x']) WHERE pk = 'a'", nil,
			"The second argument to SET_ADD must be a value with type SET at 1:27:2"},
		{"set_add of a string parameter", "UPDATE t SET ss = set_add(ss, ?) WHERE pk = 'a'", []storage.Value{storage.S("x")},
			"The second argument to SET_ADD must be a value with type SET at 1:27:2"},
		{"set_add of an empty set", "UPDATE t SET ss = set_add(ss, <<>>) WHERE pk = 'a'", nil, "Empty bags are not supported"},
		{"set_add of a repeated member", "UPDATE t SET ss = set_add(ss, <<'x', 'x'>>) WHERE pk = 'a'", nil,
			"One or more parameter values were invalid: Input collection [x, x] contains duplicates."},
		{"set_delete to another attribute", "UPDATE t SET t = SET_DELETE(ss, <<'a'>>) WHERE pk = 'a'", nil,
			"The first argument to SET_DELETE must equal the assignment value at 1:18:10"},
		{"set_delete of a string", "UPDATE t SET ss = set_delete(ss, 'a') WHERE pk = 'a'", nil,
			"The second argument to SET_DELETE must be a value with type SET at 1:30:2"},
		{"set_add nested", "UPDATE t SET ss = list_append(set_add(ss, <<'x'>>), l) WHERE pk = 'a'", nil,
			"Unrecognized function: set_add at 1:31:7"},
		{"from-first without where", "FROM t SET c = 1", nil, msgKeyEquality},
		{"from-first remove without where", "FROM t REMOVE a", nil, msgKeyEquality},
		{"from-first on a non-key", "FROM t WHERE a = 1 SET c = 1", nil, msgKeyEquality},
		{"overlapping update", "UPDATE t SET l[0].a = 1 REMOVE l[0][1] WHERE pk = 'a'", nil,
			"Two document paths conflict with each other; must remove or rewrite one of these paths; path one: [l, [0], [1]], path two: [l, [0], a]"},
		{"a key of the wrong type", "UPDATE t SET a = 1 WHERE pk = 5", nil, "Key attribute's data type should match its data type in table's schema: Key pk"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := lowerAny(t, tt.src, tt.params)
			if err == nil || err.Error() != tt.want {
				t.Errorf("got %v, want %s", err, tt.want)
			}
			var le *Error
			if err != nil && !errors.As(err, &le) {
				t.Errorf("error %T, want *Error", err)
			}
		})
	}
}

// lowerAny lowers a statement of any kind against hashKeys.
func lowerAny(t *testing.T, src string, params []storage.Value) error {
	b := Binding{Src: src, Params: params}
	var err error
	switch st := mustParse(t, src).(type) {
	case *partiql.Select:
		_, err = LowerSelect(b, st, Target{Keys: hashKeys})
	case *partiql.Insert:
		_, err = LowerInsert(b, st, hashKeys)
	case *partiql.Update:
		_, err = LowerUpdate(b, st, hashKeys)
	case *partiql.Delete:
		_, err = LowerDelete(b, st, hashKeys)
	case *partiql.Exists:
		_, err = LowerExists(b, st, hashKeys)
	}
	return err
}

// TestUpdate: what UPDATE statements do to an item.
func TestUpdate(t *testing.T) {
	old := storage.Item{"pk": storage.S("b"), "c": storage.N("5"), "ss": storage.SS([]string{"a", "b"}),
		"ns": storage.NS([]storage.Number{"1", "2"}), "n": storage.N("5"), "l": storage.L([]storage.Value{storage.N("1")})}
	tests := []struct {
		src    string
		params []storage.Value
		want   string // the new item, or the condition's failure "condition"
	}{
		// The parentheses bug of the text translation: no redundant
		// parentheses now, the user's are grouping.
		{"UPDATE t SET x = 1 WHERE pk = 'b' AND (c = 5 OR c = 6)", nil, "c,l,n,ns,pk,ss,x"},
		{"UPDATE t SET x = 1 WHERE pk = 'b' AND ((c = 7 OR (c = 6)))", nil, "condition"},
		{"UPDATE t SET ss = set_add(ss, <<'0', 'z'>>) WHERE pk = 'b'", nil, `ss=SS["0" "a" "b" "z"]`},
		{"UPDATE t SET ns = SET_ADD(ns, <<4, 1>>) WHERE pk = 'b'", nil, `ns=NS["1" "2" "4"]`},
		{"UPDATE t SET ss = set_add(ss, ?) WHERE pk = 'b'", []storage.Value{storage.SS([]string{"q"})}, `ss=SS["a" "b" "q"]`},
		{"UPDATE t SET nss = set_add(nss, <<'x'>>) WHERE pk = 'b'", nil, `nss=SS["x"]`},
		{"UPDATE t SET ss = set_delete(ss, <<'a', 'b'>>) WHERE pk = 'b'", nil, "c,l,n,ns,pk"},
		{"UPDATE t SET nss = set_delete(nss, <<'a'>>) WHERE pk = 'b'", nil, "c,l,n,ns,pk,ss"},
		{"UPDATE t SET x = n + 1 + 2 WHERE pk = 'b'", nil, `x=N:"8"`},
		{"UPDATE t SET x = (n + 1) - 2 WHERE pk = 'b'", nil, `x=N:"4"`},
		{"UPDATE t SET l = list_append(l, [2]), y = if_not_exists(y, 'd') WHERE pk = 'b'", nil, `l=[N:"1",N:"2"]`},
		{"FROM t WHERE pk = 'b' AND c = 5 SET c = 6 REMOVE n", nil, `c=N:"6"`},
		{"FROM t WHERE pk = ? SET c = ?", []storage.Value{storage.S("b"), storage.N("7")}, `c=N:"7"`},
		{"FROM t WHERE pk = 'b' AND c = 2 SET c = 5", nil, "condition"},
		{"UPDATE t SET \"key\" = 1, m.\"inner\" = 2 WHERE pk = 'b'", nil, "condition-free"},
	}
	for _, tt := range tests {
		u, err := LowerUpdate(Binding{Src: tt.src, Params: tt.params}, mustParse(t, tt.src).(*partiql.Update), hashKeys)
		if err != nil {
			t.Errorf("%s: %v", tt.src, err)
			continue
		}
		if ok, _ := u.Cond.Eval(nil); ok {
			t.Errorf("%s: the condition holds on no item", tt.src)
		}
		if ok, _ := u.Cond.Eval(old); !ok {
			if tt.want != "condition" {
				t.Errorf("%s: the condition fails", tt.src)
			}
			continue
		}
		if tt.want == "condition" {
			t.Errorf("%s: the condition holds", tt.src)
			continue
		}
		got, err := u.Update.Apply(old)
		if tt.want == "condition-free" {
			continue // m is missing: the update fails on apply, as UpdateItem would
		}
		if err != nil {
			t.Errorf("%s: %v", tt.src, err)
			continue
		}
		if !strings.Contains(renderItem(got), tt.want) && keysOf(got) != tt.want {
			t.Errorf("%s: got %s (%s), want %s", tt.src, renderItem(got), keysOf(got), tt.want)
		}
	}
}

func keysOf(it storage.Item) string {
	s := renderItem(it)
	var keys []string
	for _, kv := range strings.Split(strings.Trim(s, "{}"), ",") {
		if k, _, ok := strings.Cut(kv, "="); ok && !strings.ContainsAny(k, `"[]:`) {
			keys = append(keys, k)
		}
	}
	return strings.Join(keys, ",")
}

// TestDeleteAndExists: a DELETE of an item that does not exist succeeds
// whatever its condition (the developer guide; DynamoDB Local agrees); an
// EXISTS holds only for an item that exists.
func TestDeleteAndExists(t *testing.T) {
	there := storage.Item{"pk": storage.S("a"), "x": storage.N("1")}
	for _, tt := range []struct {
		src                  string
		onNone, onThere      bool
		noCondition, isCheck bool
	}{
		{"DELETE FROM t WHERE pk = 'a'", true, true, true, false},
		{"DELETE FROM t WHERE pk = 'a' AND x = 1", true, true, false, false},
		{"DELETE FROM t WHERE pk = 'a' AND x = 2", true, false, false, false},
		{"DELETE FROM t WHERE pk = 'a' AND attribute_not_exists(x)", true, false, false, false},
		{"EXISTS(SELECT * FROM t WHERE pk = 'a' AND x = 1)", false, true, false, true},
		{"EXISTS(SELECT * FROM t WHERE pk = 'a' AND attribute_not_exists(y))", false, true, false, true},
		{"EXISTS(SELECT * FROM t WHERE pk = 'a' AND x <> 1)", false, false, false, true},
	} {
		b := Binding{Src: tt.src}
		var d *Delete
		var err error
		if tt.isCheck {
			d, err = LowerExists(b, mustParse(t, tt.src).(*partiql.Exists), hashKeys)
		} else {
			d, err = LowerDelete(b, mustParse(t, tt.src).(*partiql.Delete), hashKeys)
		}
		if err != nil {
			t.Fatalf("%s: %v", tt.src, err)
		}
		if (d.Cond == nil) != tt.noCondition {
			t.Errorf("%s: condition %v", tt.src, d.Cond)
			continue
		}
		if d.Cond == nil {
			continue
		}
		if got, _ := d.Cond.Eval(nil); got != tt.onNone {
			t.Errorf("%s: on no item got %v, want %v", tt.src, got, tt.onNone)
		}
		if got, _ := d.Cond.Eval(there); got != tt.onThere {
			t.Errorf("%s: on the item got %v, want %v", tt.src, got, tt.onThere)
		}
	}
	for src, want := range map[string]string{
		"EXISTS(SELECT * FROM t WHERE pk = 'a')":         msgTxExists,
		"EXISTS(SELECT * FROM t WHERE x = 1)":            msgTxExists,
		"EXISTS(SELECT * FROM t.i WHERE pk = 'a' AND x)": msgTxIndexOp,
	} {
		_, err := LowerExists(Binding{Src: src}, mustParse(t, src).(*partiql.Exists), hashKeys)
		if err == nil || err.Error() != want {
			t.Errorf("%s: got %v, want %s", src, err, want)
		}
	}
}

// TestOverlap: a SELECT whose OR branches read the same sort keys of one
// partition is refused (overlap.go); others lower.
func TestOverlap(t *testing.T) {
	tests := []struct {
		where   string
		refused bool
	}{
		{"pk = 'a' AND x = 1 OR pk = 'a' AND sk = 2", true},
		{"pk = 'a' AND x <> 1 OR pk = 'a' AND sk = 2", true},
		{"pk = 'a' AND (sk = 1 OR x = 2)", true},
		{"pk = 'a' AND (sk > 0 OR sk < 5)", true},
		{"pk = 'a' AND (sk >= 5 OR sk BETWEEN 1 AND 5)", true},
		{"pk = 'a' OR pk = 'a'", true},
		{"pk IN ['a', 'a']", true},
		{"pk IN ['a', 'b'] OR pk = 'b' AND sk = 1", true},
		{"(pk = 'a' AND x = 1) OR (pk = 'a' AND x = 2)", true},
		{"pk = 'a' AND sk = 1 OR pk = 'a' AND sk = 2", false},
		{"pk = 'a' AND (sk < 1 OR sk > 1 OR sk = 1)", false},
		{"pk = 'a' AND (sk BETWEEN 1 AND 2 OR sk BETWEEN 3 AND 4)", false},
		{"pk = 'a' AND (sk > 2 AND sk < 1 OR sk = 5)", false}, // an empty branch reads nothing
		{"pk = 'a' OR pk = 'b'", false},
		{"pk = 'a' OR sk = 1", false},                             // a Scan
		{"pk = 'a' AND NOT sk = 1 OR pk = 'a' AND sk = 2", false}, // run as written
		{"pk = 'a' AND sk <> 1 OR pk = 'a' AND sk = 2", false},
		{"pk = 'a' AND (pk = 'b' OR x = 1)", false}, // pk = 'a' AND pk = 'b' reads nothing
		{"pk = 'a' AND (x = 1 OR y = 2)", false},    // an OR of non-key conditions is a filter
	}
	for _, tt := range tests {
		src := "SELECT * FROM t WHERE " + tt.where
		_, err := LowerSelect(Binding{Src: src}, mustParse(t, src).(*partiql.Select), Target{Keys: rangeKeys})
		if got := err != nil && err.Error() == msgOverlapping; got != tt.refused {
			t.Errorf("%s: refused %v (%v), want %v", tt.where, got, err, tt.refused)
		}
		if !tt.refused && err != nil {
			t.Errorf("%s: %v", tt.where, err)
		}
	}
}

func TestOverlapStrings(t *testing.T) {
	src := "SELECT * FROM t WHERE pk = 'a' AND (begins_with(sk, 'ab') OR sk = 'ac')"
	ks := storage.KeySchema{Partition: storage.KeyAttr{Name: "pk", Kind: storage.KindS}, Sort: storage.KeyAttr{Name: "sk", Kind: storage.KindS}}
	if _, err := LowerSelect(Binding{Src: src}, mustParse(t, src).(*partiql.Select), Target{Keys: ks}); err != nil {
		t.Errorf("%s: %v", src, err)
	}
	src = "SELECT * FROM t WHERE pk = 'a' AND (begins_with(sk, 'ab') OR sk = 'abz')"
	if _, err := LowerSelect(Binding{Src: src}, mustParse(t, src).(*partiql.Select), Target{Keys: ks}); err == nil || err.Error() != msgOverlapping {
		t.Errorf("%s: got %v, want %s", src, err, msgOverlapping)
	}
}

// TestSelectKeys: the key conditions a SELECT reads with, and the order of
// its refusals.
func TestSelectKeys(t *testing.T) {
	tests := []struct {
		src      string
		partKeys string // the partitions read, "" for a Scan
		sortOp   storage.SortOp
		forward  bool
	}{
		{"SELECT * FROM t WHERE pk = 'a'", "a", storage.SortAny, true},
		{"SELECT * FROM t WHERE sk > 2 AND pk = 'a' ORDER BY sk DESC", "a", storage.SortGT, false},
		{"SELECT * FROM t WHERE pk IN ['a', 'b'] AND sk BETWEEN 1 AND 3", "a,b", storage.SortBetween, true},
		{"SELECT * FROM t WHERE pk = 'a' AND BEGINS_WITH(x, 'p')", "a", storage.SortAny, true},
		{"SELECT * FROM t WHERE pk = 'a' OR pk = 'b'", "", storage.SortAny, true},
		{"SELECT * FROM t WHERE (pk = 'a' AND sk = 1)", "a", storage.SortEQ, true},
	}
	for _, tt := range tests {
		s, err := LowerSelect(Binding{Src: tt.src}, mustParse(t, tt.src).(*partiql.Select), Target{Keys: rangeKeys})
		if err != nil {
			t.Fatalf("%s: %v", tt.src, err)
		}
		var parts []string
		for _, kc := range s.Keys {
			parts = append(parts, kc.Partition.Str())
			if kc.Sort.Op != tt.sortOp {
				t.Errorf("%s: sort op %v, want %v", tt.src, kc.Sort.Op, tt.sortOp)
			}
		}
		if got := strings.Join(parts, ","); got != tt.partKeys || s.Forward != tt.forward {
			t.Errorf("%s: partitions %q forward %v, want %q %v", tt.src, got, s.Forward, tt.partKeys, tt.forward)
		}
	}
	// AWS's order: a value that cannot be stored, then the multi-attribute
	// refusal, then the key's type and the WHERE clause's requirements.
	multi := Target{Multi: true}
	for src, want := range map[string]string{
		"SELECT * FROM t.i WHERE h1 = 1e126":                 "Number overflow. Attempting to store a number with magnitude larger than supported range under root",
		"SELECT * FROM t.i WHERE h1 = 5":                     msgMultiKey,
		"SELECT * FROM t.i":                                  msgMultiKey,
		"SELECT id FROM t.i WHERE h1 = 'a' ORDER BY r1 DESC": msgMultiKey,
	} {
		_, err := LowerSelect(Binding{Src: src}, mustParse(t, src).(*partiql.Select), multi)
		if err == nil || err.Error() != want {
			t.Errorf("%s: got %v, want %s", src, err, want)
		}
	}
}

// TestGets: single-item reads of ExecuteTransaction and
// BatchExecuteStatement.
func TestGets(t *testing.T) {
	tests := []struct {
		src   string
		batch bool
		multi bool
		want  string
	}{
		{"SELECT a, m.b FROM t WHERE pk = 'x' AND sk = 1", false, false, ""},
		{"SELECT * FROM t WHERE pk = 'x' AND sk = 1 AND a = 1", false, false, msgTxSelectKey},
		{"SELECT * FROM t WHERE pk = 'x'", false, false, msgTxSelectKey},
		{"SELECT * FROM t WHERE pk = 'x' AND sk = 'y'", false, false, "Key attribute's data type should match its data type in table's schema: Key sk"},
		{"SELECT * FROM t.i WHERE pk = 'x' AND sk = 1", false, false, msgTxIndexRead},
		{"SELECT * FROM t WHERE pk = 'x' AND sk = 1", true, false, ""},
		{"SELECT * FROM t WHERE pk = 'x' AND sk = 1 AND attribute_exists(ss)", true, false, msgBatchSelectKey},
		{"SELECT * FROM t WHERE pk = 'x'", true, false, msgBatchSelectKey},
		{"SELECT * FROM t.i WHERE h1 = 'a' AND r1 = 'm'", true, false, msgBatchSelectKey},
		{"SELECT * FROM t.i WHERE h1 = 'a' AND h2 = 'x' AND r1 = 'm'", true, true, msgMultiKey},
	}
	for _, tt := range tests {
		b := Binding{Src: tt.src}
		s := mustParse(t, tt.src).(*partiql.Select)
		var g *Get
		var err error
		if tt.batch {
			g, err = LowerBatchGet(b, s, Target{Keys: rangeKeys, Multi: tt.multi})
		} else {
			g, err = LowerTxGet(b, s, rangeKeys)
		}
		got := ""
		if err != nil {
			got = err.Error()
		}
		if got != tt.want {
			t.Errorf("%s: got %q, want %q", tt.src, got, tt.want)
			continue
		}
		if err == nil && renderItem(g.Key) != `{pk=S:"x",sk=N:"1"}` {
			t.Errorf("%s: key %s", tt.src, renderItem(g.Key))
		}
	}
}

// TestItemErrors: errors of the item are marked, for ExecuteTransaction.
func TestItemErrors(t *testing.T) {
	for src, item := range map[string]bool{
		"UPDATE t SET a = 1 WHERE x = 1":         true,
		"UPDATE t SET a = 1 WHERE pk = 1":        true,
		"INSERT INTO t VALUE {'a': 1}":           true,
		"UPDATE t SET a = foo(1) WHERE pk = 'x'": false,
		"DELETE FROM t WHERE pk = 'x' AND a < ?": false,
	} {
		err := lowerAny(t, src, nil)
		var le *Error
		if !errors.As(err, &le) || le.Item != item {
			t.Errorf("%s: got %v (%+v), want Item %v", src, err, le, item)
		}
	}
}

// TestProjection: a SELECT list's paths and the names of their values.
func TestProjection(t *testing.T) {
	src := `SELECT sk, "v", m.l[1], m.l[0].c, "key" FROM t WHERE pk = 'p'`
	s, err := LowerSelect(Binding{Src: src}, mustParse(t, src).(*partiql.Select), Target{Keys: rangeKeys})
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, c := range s.Columns {
		names = append(names, c.Name)
	}
	if got, want := strings.Join(names, " "), "sk v l[1] c key"; got != want {
		t.Errorf("names: got %s, want %s", got, want)
	}
	it := storage.Item{"sk": storage.N("2"), "key": storage.S("k"),
		"m": storage.M(map[string]storage.Value{"l": storage.L([]storage.Value{
			storage.M(map[string]storage.Value{"c": storage.S("c0")}), storage.S("one")})})}
	if got, want := renderItem(s.Project(it)), `{c=S:"c0",key=S:"k",l[1]=S:"one",sk=N:"2"}`; got != want {
		t.Errorf("Project: got %s, want %s", got, want)
	}
	if got, want := strings.Join(s.Names(), " "), "sk v m m key"; got != want {
		t.Errorf("Names: got %s, want %s", got, want)
	}
	var ee *expr.Error
	_, err = LowerSelect(Binding{Src: "SELECT a, a.b FROM t"}, mustParse(t, "SELECT a, a.b FROM t").(*partiql.Select), Target{Keys: rangeKeys})
	if !errors.As(err, &ee) || !strings.HasPrefix(err.Error(), "Two document paths overlap") {
		t.Errorf("overlap: got %v", err)
	}
}
