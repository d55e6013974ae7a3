package conformance

// UpdateItem and conditions: UpdateExpression actions and functions, ReturnValues,
// ConditionExpression, ConditionalCheckFailedException, expression errors.

import (
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

func TestUpdateExpressions(t *testing.T) {
	t.Parallel()
	c := newClient(t)
	table := hashTable(t, c)
	base := item{"pk": s("k"), "n": n("5"), "s": s("x"), "l": l(n("1"), n("2")), "ss": ss("a", "b"), "ns": ns("1", "2"), "m": m(item{"a": n("1"), "l": l(s("z"))})}
	tests := []struct {
		name   string
		start  item // nil: no item yet
		expr   string
		names  map[string]string
		values item
		rv     types.ReturnValue
		attrs  item // want Attributes
		after  item // want item afterwards
		// differs, when set, marks a case where DynamoDB Local answers
		// differently from AWS; attrs then holds AWS's answer.
		differs string
	}{
		{name: "set creates item", expr: "SET a = :a", values: item{":a": s("A")}, rv: types.ReturnValueAllNew,
			attrs: item{"pk": s("k"), "a": s("A")}, after: item{"pk": s("k"), "a": s("A")}},
		{name: "set several", start: base, expr: "SET a = :a, s = :b", values: item{":a": n("1"), ":b": s("y")}, rv: types.ReturnValueUpdatedNew,
			attrs: item{"a": n("1"), "s": s("y")}, after: with(base, item{"a": n("1"), "s": s("y")})},
		{name: "arithmetic", start: base, expr: "SET n = n + :one, d = n - :ten", values: item{":one": n("1"), ":ten": n("10")}, rv: types.ReturnValueUpdatedNew,
			attrs: item{"n": n("6"), "d": n("-5")}, after: with(base, item{"n": n("6"), "d": n("-5")})},
		{name: "arithmetic precision", start: item{"pk": s("k"), "n": n("0.1")}, expr: "SET n = n + :v", values: item{":v": n("0.2")}, rv: types.ReturnValueUpdatedNew,
			attrs: item{"n": n("0.3")}, after: item{"pk": s("k"), "n": n("0.3")}},
		{name: "if_not_exists absent", start: base, expr: "SET c = if_not_exists(c, :z)", values: item{":z": n("0")}, rv: types.ReturnValueUpdatedOld,
			attrs: nil, after: with(base, item{"c": n("0")})},
		{name: "if_not_exists present", start: base, expr: "SET n = if_not_exists(n, :z)", values: item{":z": n("0")}, rv: types.ReturnValueUpdatedOld,
			attrs: item{"n": n("5")}, after: base},
		{name: "list_append", start: base, expr: "SET l = list_append(l, :v), e = list_append(:v, if_not_exists(e, :empty))", values: item{":v": l(n("3")), ":empty": l()}, rv: types.ReturnValueUpdatedNew,
			attrs: item{"l": l(n("1"), n("2"), n("3")), "e": l(n("3"))}, after: with(base, item{"l": l(n("1"), n("2"), n("3")), "e": l(n("3"))})},
		{name: "list_append prepend", start: base, expr: "SET l = list_append(:v, l)", values: item{":v": l(n("0"))}, rv: types.ReturnValueUpdatedNew,
			attrs: item{"l": l(n("0"), n("1"), n("2"))}, after: with(base, item{"l": l(n("0"), n("1"), n("2"))})},
		{name: "set list index past end appends", start: base, expr: "SET l[9] = :v", values: item{":v": n("9")}, rv: types.ReturnValueAllNew,
			attrs: with(base, item{"l": l(n("1"), n("2"), n("9"))}), after: with(base, item{"l": l(n("1"), n("2"), n("9"))})},
		{name: "set nested", start: base, expr: "SET m.a = :v, m.l[0] = :w, m.#new = :v", names: map[string]string{"#new": "new"}, values: item{":v": n("2"), ":w": s("w")}, rv: types.ReturnValueUpdatedOld,
			attrs: item{"m": m(item{"a": n("1"), "l": l(s("z"))})}, after: with(base, item{"m": m(item{"a": n("2"), "l": l(s("w")), "new": n("2")})})},
		{name: "remove", start: base, expr: "REMOVE s, nothere, m.a", rv: types.ReturnValueUpdatedOld,
			differs: "UPDATED_OLD of a nested REMOVE: AWS returns only the removed fragment (m.a); DynamoDB Local returns the whole top-level map",
			attrs:   item{"s": s("x"), "m": m(item{"a": n("1")})}, after: without(with(base, item{"m": m(item{"l": l(s("z"))})}), "s")},
		{name: "remove list element", start: base, expr: "REMOVE l[0]", rv: types.ReturnValueUpdatedNew,
			attrs: item{"l": l(n("2"))}, after: with(base, item{"l": l(n("2"))})},
		{name: "add number", start: base, expr: "ADD n :v, fresh :v", values: item{":v": n("-2")}, rv: types.ReturnValueUpdatedNew,
			attrs: item{"n": n("3"), "fresh": n("-2")}, after: with(base, item{"n": n("3"), "fresh": n("-2")})},
		{name: "add to sets", start: base, expr: "ADD ss :s, ns :n, newset :s", values: item{":s": ss("b", "c"), ":n": ns("3")}, rv: types.ReturnValueUpdatedNew,
			attrs: item{"ss": ss("a", "b", "c"), "ns": ns("1", "2", "3"), "newset": ss("b", "c")}, after: with(base, item{"ss": ss("a", "b", "c"), "ns": ns("1", "2", "3"), "newset": ss("b", "c")})},
		{name: "delete from set", start: base, expr: "DELETE ss :s, ns :n", values: item{":s": ss("a", "zz"), ":n": ns("1", "2")}, rv: types.ReturnValueAllNew,
			attrs: without(with(base, item{"ss": ss("b")}), "ns"), after: without(with(base, item{"ss": ss("b")}), "ns")},
		{name: "all clauses", start: base, expr: "SET a = :a REMOVE s ADD n :one DELETE ss :s", values: item{":a": s("A"), ":one": n("1"), ":s": ss("a")}, rv: types.ReturnValueUpdatedOld,
			attrs: item{"s": s("x"), "n": n("5"), "ss": ss("a", "b")}, after: without(with(base, item{"a": s("A"), "n": n("6"), "ss": ss("b")}), "s")},
		{name: "clause keywords any case", start: base, expr: "set a = :a remove s", values: item{":a": s("A")}, rv: types.ReturnValueNone,
			after: without(with(base, item{"a": s("A")}), "s")},
		{name: "return all old", start: base, expr: "SET a = :a", values: item{":a": s("A")}, rv: types.ReturnValueAllOld,
			attrs: base, after: with(base, item{"a": s("A")})},
		{name: "return all old no item", expr: "SET a = :a", values: item{":a": s("A")}, rv: types.ReturnValueAllOld,
			attrs: nil, after: item{"pk": s("k"), "a": s("A")}},
		{name: "no update expression creates key only", expr: "", rv: types.ReturnValueAllNew,
			attrs: item{"pk": s("k")}, after: item{"pk": s("k")}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if tc.differs != "" {
				AWSDiffers(t, tc.differs)
			}
			key := item{"pk": s("k")}
			_, err := c.DeleteItem(ctx(t), &dynamodb.DeleteItemInput{TableName: &table, Key: key})
			mustNoError(t, err)
			if tc.start != nil {
				mustPut(t, c, table, tc.start)
			}
			in := &dynamodb.UpdateItemInput{TableName: &table, Key: key, ExpressionAttributeNames: tc.names, ExpressionAttributeValues: tc.values, ReturnValues: tc.rv}
			if tc.expr != "" {
				in.UpdateExpression = aws.String(tc.expr)
			}
			out, err := c.UpdateItem(ctx(t), in)
			mustNoError(t, err)
			requireItem(t, out.Attributes, tc.attrs)
			requireItem(t, mustGet(t, c, table, key), tc.after)
		})
	}
}

func with(base, changes item) item {
	out := item{}
	for k, v := range base {
		out[k] = v
	}
	for k, v := range changes {
		out[k] = v
	}
	return out
}

func without(base item, names ...string) item {
	out := with(base, nil)
	for _, k := range names {
		delete(out, k)
	}
	return out
}

func TestUpdateExpressionErrors(t *testing.T) {
	t.Parallel()
	c := newClient(t)
	table := hashTable(t, c)
	mustPut(t, c, table, item{"pk": s("k"), "s": s("x"), "ss": ss("a"), "l": l(n("1"))})
	tests := []struct {
		name   string
		expr   string
		cond   string
		names  map[string]string
		values item
		msg    string
	}{
		{name: "syntax", expr: "SET a = = :a", values: item{":a": s("A")}, msg: `Invalid UpdateExpression: Syntax error; token: "=", near: "= = :a"`},
		{name: "blank", expr: " ", msg: `Invalid UpdateExpression: Syntax error; token: "<EOF>", near: " "`},
		{name: "undefined value", expr: "SET a = :a", msg: "Invalid UpdateExpression: An expression attribute value used in expression is not defined; attribute value: :a"},
		{name: "undefined name", expr: "SET #a = :a", values: item{":a": s("A")}, msg: "Invalid UpdateExpression: An expression attribute name used in the document path is not defined; attribute name: #a"},
		{name: "unused value", expr: "SET a = :a", values: item{":a": s("A"), ":b": s("B")}, msg: "Value provided in ExpressionAttributeValues unused in expressions: keys: {:b}"},
		{name: "unused name", expr: "SET a = :a", names: map[string]string{"#b": "b"}, values: item{":a": s("A")}, msg: "Value provided in ExpressionAttributeNames unused in expressions: keys: {#b}"},
		{name: "reserved word", expr: "SET status = :a", values: item{":a": s("A")}, msg: "Invalid UpdateExpression: Attribute name is a reserved keyword; reserved keyword: status"},
		{name: "overlapping paths", expr: "SET a = :a, a = :a", values: item{":a": s("A")}, msg: "Invalid UpdateExpression: Two document paths overlap with each other; must remove or rewrite one of these paths; path one: [a], path two: [a]"},
		{name: "set and remove same", expr: "SET a = :a REMOVE a", values: item{":a": s("A")}, msg: "Invalid UpdateExpression: Two document paths overlap with each other; must remove or rewrite one of these paths; path one: [a], path two: [a]"},
		{name: "key attribute", expr: "SET pk = :a", values: item{":a": s("A")}, msg: "One or more parameter values were invalid: Cannot update attribute pk. This attribute is part of the key"},
		{name: "nested path on missing map", expr: "SET nope.b = :a", values: item{":a": s("A")}, msg: "The document path provided in the update expression is invalid for update"},
		{name: "arithmetic on missing", expr: "SET x = nope + :one", values: item{":one": n("1")}, msg: "The provided expression refers to an attribute that does not exist in the item"},
		{name: "arithmetic on string", expr: "SET x = s + :one", values: item{":one": n("1")}, msg: "An operand in the update expression has an incorrect data type"},
		{name: "add to string", expr: "ADD s :one", values: item{":one": n("1")}, msg: "An operand in the update expression has an incorrect data type"},
		{name: "add wrong set type", expr: "ADD ss :v", values: item{":v": ns("1")}, msg: "An operand in the update expression has an incorrect data type"},
		{name: "delete with non-set", expr: "DELETE ss :v", values: item{":v": s("a")}, msg: "Invalid UpdateExpression: Incorrect operand type for operator or function; operator: DELETE, operand type: STRING, typeSet: ALLOWED_FOR_DELETE_OPERAND"},
		{name: "list_append non-list", expr: "SET l = list_append(l, :v)", values: item{":v": s("a")}, msg: "Invalid UpdateExpression: Incorrect operand type for operator or function; operator or function: list_append, operand type: S"},
		{name: "unknown function", expr: "SET a = foo(:v)", values: item{":v": s("a")}, msg: "Invalid UpdateExpression: Invalid function name; function: foo"},
		{name: "condition function in update", expr: "SET a = size(s)", msg: "Invalid UpdateExpression: The function is not allowed in an update expression; function: size"},
		{name: "clause twice", expr: "SET a = :v SET b = :v", values: item{":v": s("a")}, msg: `Invalid UpdateExpression: The "SET" section can only be used once in an update expression;`},
		// Enveloped in AWS's answer (us-east-1 and eu-west-2, 2026-10-09,
		// paritysuite/dynamodb-conformance error-messages/updateItem.test.ts).
		{name: "value in condition undefined", expr: "SET a = :v", cond: "s = :w", values: item{":v": s("a")}, msg: "Invalid ConditionExpression: An expression attribute value used in expression is not defined; attribute value: :w"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			in := &dynamodb.UpdateItemInput{TableName: &table, Key: item{"pk": s("k")}, UpdateExpression: aws.String(tc.expr), ExpressionAttributeNames: tc.names, ExpressionAttributeValues: tc.values}
			if tc.cond != "" {
				in.ConditionExpression = aws.String(tc.cond)
			}
			msg := tc.msg
			if tc.name == "value in condition undefined" {
				msg = writeEnveloped(t, msg, "")
			}
			_, err := c.UpdateItem(ctx(t), in)
			requireValidation(t, err, msg)
		})
	}
	requireItem(t, mustGet(t, c, table, item{"pk": s("k")}), item{"pk": s("k"), "s": s("x"), "ss": ss("a"), "l": l(n("1"))})
}

func TestConditionExpressions(t *testing.T) {
	t.Parallel()
	c := newClient(t)
	table := hashTable(t, c)
	it := item{"pk": s("k"), "n": n("5"), "s": s("hello"), "b": b([]byte("xyz")), "ss": ss("a", "b"), "l": l(n("1"), s("two")), "m": m(item{"x": n("1")}), "t": bl(true), "z": null()}
	mustPut(t, c, table, it)
	tests := []struct {
		cond   string
		values item
		names  map[string]string
		want   bool
	}{
		{cond: "attribute_exists(pk)", want: true},
		{cond: "attribute_not_exists(pk)", want: false},
		{cond: "attribute_not_exists(nope)", want: true},
		{cond: "attribute_exists(m.x)", want: true},
		{cond: "attribute_exists(l[1])", want: true},
		{cond: "attribute_exists(l[2])", want: false},
		{cond: "n = :v", values: item{":v": n("5.0")}, want: true},
		{cond: "n <> :v", values: item{":v": n("5")}, want: false},
		{cond: "n < :v", values: item{":v": n("10")}, want: true},
		{cond: "n <= :v", values: item{":v": n("5")}, want: true},
		{cond: "n > :v", values: item{":v": n("-10")}, want: true},
		{cond: "s >= :v", values: item{":v": s("hello")}, want: true},
		{cond: "s < :v", values: item{":v": n("10")}, want: false}, // different types never compare
		{cond: "n BETWEEN :a AND :b", values: item{":a": n("1"), ":b": n("5")}, want: true},
		{cond: "n IN (:a, :b)", values: item{":a": n("1"), ":b": n("5")}, want: true},
		{cond: "begins_with(s, :v)", values: item{":v": s("he")}, want: true},
		{cond: "begins_with(b, :v)", values: item{":v": b([]byte("xy"))}, want: true},
		{cond: "contains(s, :v)", values: item{":v": s("ell")}, want: true},
		{cond: "contains(ss, :v)", values: item{":v": s("b")}, want: true},
		{cond: "contains(l, :v)", values: item{":v": s("two")}, want: true},
		{cond: "contains(l, :v)", values: item{":v": s("tw")}, want: false},
		{cond: "size(s) = :v", values: item{":v": n("5")}, want: true},
		{cond: "size(b) = :v", values: item{":v": n("3")}, want: true},
		{cond: "size(ss) = :v", values: item{":v": n("2")}, want: true},
		{cond: "size(l) > :v", values: item{":v": n("1")}, want: true},
		{cond: "size(m) = :v", values: item{":v": n("1")}, want: true},
		{cond: "attribute_type(n, :t)", values: item{":t": s("N")}, want: true},
		{cond: "attribute_type(z, :t)", values: item{":t": s("NULL")}, want: true},
		{cond: "attribute_type(ss, :t)", values: item{":t": s("L")}, want: false},
		{cond: "t = :v", values: item{":v": bl(true)}, want: true},
		{cond: "m = :v", values: item{":v": m(item{"x": n("1")})}, want: true},
		{cond: "l = :v", values: item{":v": l(n("1"), s("two"))}, want: true},
		{cond: "ss = :v", values: item{":v": ss("b", "a")}, want: true},
		{cond: "NOT n = :v", values: item{":v": n("5")}, want: false},
		{cond: "n = :v OR s = :w AND n = :x", values: item{":v": n("5"), ":w": s("no"), ":x": n("1")}, want: true}, // AND binds tighter
		{cond: "(n = :v OR s = :w) AND n = :x", values: item{":v": n("5"), ":w": s("no"), ":x": n("1")}, want: false},
		{cond: "#s = :v", names: map[string]string{"#s": "s"}, values: item{":v": s("hello")}, want: true},
		{cond: "nope = :v", values: item{":v": n("5")}, want: false},
		{cond: "nope <> :v", values: item{":v": n("5")}, want: true},
	}
	for _, tc := range tests {
		t.Run(tc.cond, func(t *testing.T) {
			t.Parallel()
			// A no-op update (SET pk2 = pk2 would write) is avoided: PutItem the same item.
			_, err := c.PutItem(ctx(t), &dynamodb.PutItemInput{TableName: &table, Item: it, ConditionExpression: aws.String(tc.cond), ExpressionAttributeNames: tc.names, ExpressionAttributeValues: tc.values})
			if tc.want {
				mustNoError(t, err)
			} else {
				requireAPIError(t, err, "ConditionalCheckFailedException", "The conditional request failed")
			}
		})
	}
}

func TestConditionalCheckFailed(t *testing.T) {
	t.Parallel()
	c := newClient(t)
	table := hashTable(t, c)
	it := item{"pk": s("k"), "v": n("1")}
	mustPut(t, c, table, it)
	key := item{"pk": s("k")}

	_, err := c.PutItem(ctx(t), &dynamodb.PutItemInput{TableName: &table, Item: key, ConditionExpression: aws.String("attribute_not_exists(pk)"),
		ReturnValuesOnConditionCheckFailure: types.ReturnValuesOnConditionCheckFailureAllOld})
	requireAPIError(t, err, "ConditionalCheckFailedException", "The conditional request failed")
	var ccf *types.ConditionalCheckFailedException
	if !asErr(err, &ccf) {
		t.Fatalf("error %T is not *types.ConditionalCheckFailedException", err)
	}
	requireItem(t, ccf.Item, it)

	_, err = c.UpdateItem(ctx(t), &dynamodb.UpdateItemInput{TableName: &table, Key: key, UpdateExpression: aws.String("SET v = :two"),
		ConditionExpression: aws.String("v = :two"), ExpressionAttributeValues: item{":two": n("2")},
		ReturnValuesOnConditionCheckFailure: types.ReturnValuesOnConditionCheckFailureAllOld})
	if !asErr(err, &ccf) {
		t.Fatalf("UpdateItem: got %v, want ConditionalCheckFailedException", err)
	}
	requireItem(t, ccf.Item, it)

	_, err = c.DeleteItem(ctx(t), &dynamodb.DeleteItemInput{TableName: &table, Key: key, ConditionExpression: aws.String("v = :two"),
		ExpressionAttributeValues: item{":two": n("2")}})
	if !asErr(err, &ccf) {
		t.Fatalf("DeleteItem: got %v, want ConditionalCheckFailedException", err)
	}
	requireItem(t, ccf.Item, nil) // NONE by default

	// The condition fails on a missing item: ALL_OLD then has no item to return.
	_, err = c.DeleteItem(ctx(t), &dynamodb.DeleteItemInput{TableName: &table, Key: item{"pk": s("absent")}, ConditionExpression: aws.String("attribute_exists(pk)"),
		ReturnValuesOnConditionCheckFailure: types.ReturnValuesOnConditionCheckFailureAllOld})
	if !asErr(err, &ccf) {
		t.Fatalf("DeleteItem absent: got %v, want ConditionalCheckFailedException", err)
	}
	requireItem(t, ccf.Item, nil)
	requireItem(t, mustGet(t, c, table, key), it)

	// A passing condition writes.
	_, err = c.DeleteItem(ctx(t), &dynamodb.DeleteItemInput{TableName: &table, Key: key, ConditionExpression: aws.String("v = :one"), ExpressionAttributeValues: item{":one": n("1")}})
	mustNoError(t, err)
	requireItem(t, mustGet(t, c, table, key), nil)
}

func TestConditionExpressionErrors(t *testing.T) {
	t.Parallel()
	c := newClient(t)
	table := hashTable(t, c)
	tests := []struct {
		name   string
		cond   string
		values item
		names  map[string]string
		msg    string
		// enveloped: AWS answers msg inside the envelope (writeEnveloped);
		// local is DynamoDB Local's bare answer when it differs from msg.
		enveloped bool
		local     string
	}{
		{name: "syntax", cond: "n = = :v", values: item{":v": n("5")}, msg: `Invalid ConditionExpression: Syntax error; token: "=", near: "= = :v"`},
		{name: "empty", cond: "", values: item{":v": n("5")}, msg: "Invalid ConditionExpression: The expression can not be empty;", enveloped: true},
		{name: "unknown function", cond: "foo(n)", msg: "Invalid ConditionExpression: Invalid function name; function: foo"},
		{name: "undefined value", cond: "n = :v", msg: "Invalid ConditionExpression: An expression attribute value used in expression is not defined; attribute value: :v"},
		{name: "undefined name", cond: "#n = :v", values: item{":v": n("5")}, msg: "Invalid ConditionExpression: An expression attribute name used in the document path is not defined; attribute name: #n"},
		{name: "unused value", cond: "n = :v", values: item{":v": n("5"), ":w": n("1")}, msg: "Value provided in ExpressionAttributeValues unused in expressions: keys: {:w}"},
		{name: "unused name", cond: "n = :v", values: item{":v": n("5")}, names: map[string]string{"#x": "n"}, msg: "Value provided in ExpressionAttributeNames unused in expressions: keys: {#x}"},
		{name: "function name as attribute", cond: "size = :v", values: item{":v": n("5")}, msg: ""},
		{name: "reserved word data", cond: "data = :v", values: item{":v": n("5")}, msg: "Invalid ConditionExpression: Attribute name is a reserved keyword; reserved keyword: data"},
		{name: "update function", cond: "if_not_exists(n, :v) = :v", values: item{":v": n("5")}, msg: "Invalid ConditionExpression: The function is not allowed in a condition expression; function: if_not_exists"},
		{name: "wrong arity", cond: "begins_with(n)", msg: "Invalid ConditionExpression: Incorrect number of operands for operator or function; operator or function: begins_with, number of operands: 1"},
		{name: "empty value", cond: "n = :v", values: item{":v": ss()}, msg: "ExpressionAttributeValues contains invalid value: One or more parameter values were invalid: An string set  may not be empty for key :v"},
		{name: "values without expression", values: item{":v": n("5")}, msg: "ExpressionAttributeValues can only be specified when using expressions", local: "ExpressionAttributeValues can only be specified when using expressions: ConditionExpression is null", enveloped: true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			in := &dynamodb.PutItemInput{TableName: &table, Item: item{"pk": s("k")}, ExpressionAttributeNames: tc.names, ExpressionAttributeValues: tc.values}
			if tc.cond != "" || tc.name == "empty" {
				in.ConditionExpression = aws.String(tc.cond)
			}
			_, err := c.PutItem(ctx(t), in)
			if tc.msg == "" {
				// "size" is a function name but usable as an attribute name: the
				// condition parses, and fails on an item without it.
				requireAPIError(t, err, "ConditionalCheckFailedException", "The conditional request failed")
				return
			}
			if tc.enveloped {
				tc.msg = writeEnveloped(t, tc.msg, tc.local)
			}
			requireValidation(t, err, tc.msg)
		})
	}
}
