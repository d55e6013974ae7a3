package conformance

// PartiQL ExecuteTransaction: all-or-nothing writes (INSERT, UPDATE,
// DELETE, EXISTS), reads of items by full key, cancellation reasons,
// idempotency, and the errors of bad transactions.

import (
	"fmt"
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

// stmts builds ExecuteTransaction statements without parameters.
func stmts(texts ...string) []types.ParameterizedStatement {
	out := make([]types.ParameterizedStatement, len(texts))
	for i, s := range texts {
		out[i] = types.ParameterizedStatement{Statement: aws.String(s)}
	}
	return out
}

// partiqlFixture starts a parallel test on a new partiqlTable: the
// client, the table's name and its quoted name.
func partiqlFixture(t *testing.T) (*dynamodb.Client, string, string) {
	t.Helper()
	t.Parallel()
	c := newClient(t)
	tbl := partiqlTable(t, c)
	return c, tbl, quoted(tbl)
}

func execTx(t testing.TB, c *dynamodb.Client, texts ...string) (*dynamodb.ExecuteTransactionOutput, error) {
	t.Helper()
	return c.ExecuteTransaction(ctx(t), &dynamodb.ExecuteTransactionInput{TransactStatements: stmts(texts...)})
}

func TestExecuteTransactionWrites(t *testing.T) {
	c, _, q := partiqlFixture(t)
	out, err := c.ExecuteTransaction(ctx(t), &dynamodb.ExecuteTransactionInput{TransactStatements: []types.ParameterizedStatement{
		{Statement: aws.String("INSERT INTO " + q + " VALUE {'pk': 'new', 'sk': 1, 'v': 1}")},
		{Statement: aws.String("UPDATE " + q + " SET v = v + ? WHERE pk = 'p' AND sk = 1"), Parameters: []types.AttributeValue{n("5")}},
		{Statement: aws.String("DELETE FROM " + q + " WHERE pk = 'p' AND sk = 2")},
		{Statement: aws.String("EXISTS(SELECT * FROM " + q + " WHERE pk = 'q' AND sk = 1 AND v = 7)")},
	}})
	if err != nil {
		t.Fatalf("ExecuteTransaction: %v", err)
	}
	if len(out.Responses) != 0 {
		t.Errorf("got %d responses, want none for writes", len(out.Responses))
	}
	for _, tc := range []struct {
		stmt string
		want string
	}{
		{"SELECT v FROM " + q + " WHERE pk = 'new' AND sk = 1", "[{v: N:1}]"},
		{"SELECT v FROM " + q + " WHERE pk = 'p' AND sk = 1", "[{v: N:15}]"},
		{"SELECT v FROM " + q + " WHERE pk = 'p' AND sk = 2", "[]"},
	} {
		if got := renderItems(mustExec(t, c, tc.stmt)); got != tc.want {
			t.Errorf("%s: got %s, want %s", tc.stmt, got, tc.want)
		}
	}
}

func TestExecuteTransactionCancelled(t *testing.T) {
	c, _, q := partiqlFixture(t)
	before := renderItems(mustExec(t, c, "SELECT * FROM "+q+" WHERE pk = 'p'"))
	tests := []struct {
		name  string
		stmts []string
		codes []string
	}{
		{"update condition", []string{
			"UPDATE " + q + " SET v = 0 WHERE pk = 'p' AND sk = 1",
			"UPDATE " + q + " SET v = 0 WHERE pk = 'p' AND sk = 2 AND v = 99",
		}, []string{"None", "ConditionalCheckFailed"}},
		{"update of a missing item", []string{
			"UPDATE " + q + " SET v = 0 WHERE pk = 'nope' AND sk = 1",
			"DELETE FROM " + q + " WHERE pk = 'p' AND sk = 3",
		}, []string{"ConditionalCheckFailed", "None"}},
		{"delete condition", []string{
			"DELETE FROM " + q + " WHERE pk = 'p' AND sk = 4 AND tag = 'zz'",
		}, []string{"ConditionalCheckFailed"}},
		// Every statement is evaluated and each failure reported, as
		// TransactWriteItems reports them (TestTransactReasonsEveryFailure).
		{"two conditions fail", []string{
			"UPDATE " + q + " SET v = 0 WHERE pk = 'p' AND sk = 1 AND v = 99",
			"DELETE FROM " + q + " WHERE pk = 'p' AND sk = 4 AND tag = 'zz'",
		}, []string{"ConditionalCheckFailed", "ConditionalCheckFailed"}},
		{"exists", []string{
			"EXISTS(SELECT * FROM " + q + " WHERE pk = 'p' AND sk = 5 AND v = 1)",
			"DELETE FROM " + q + " WHERE pk = 'p' AND sk = 4",
		}, []string{"ConditionalCheckFailed", "None"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := execTx(t, c, tc.stmts...)
			requireCanceled(t, err, tc.codes...)
		})
	}
	if got := renderItems(mustExec(t, c, "SELECT * FROM "+q+" WHERE pk = 'p'")); got != before {
		t.Errorf("items changed by cancelled transactions:\n got %s\nwant %s", got, before)
	}
}

func TestExecuteTransactionConditionItem(t *testing.T) {
	t.Parallel()
	c := newClient(t)
	tbl := partiqlTable(t, c)
	_, err := c.ExecuteTransaction(ctx(t), &dynamodb.ExecuteTransactionInput{TransactStatements: []types.ParameterizedStatement{{
		Statement:                           aws.String("UPDATE " + quoted(tbl) + " SET v = 0 WHERE pk = 'q' AND sk = 1 AND v = 99"),
		ReturnValuesOnConditionCheckFailure: types.ReturnValuesOnConditionCheckFailureAllOld,
	}}})
	reasons := requireCanceled(t, err, "ConditionalCheckFailed")
	if got, want := aws.ToString(reasons[0].Message), "The conditional request failed"; got != want {
		t.Errorf("message: got %q, want %q", got, want)
	}
	requireItem(t, reasons[0].Item, item{"pk": s("q"), "sk": n("1"), "v": n("7"), "nul": null()})
}

func TestExecuteTransactionItemErrors(t *testing.T) {
	c, _, q := partiqlFixture(t)
	tests := []struct {
		name    string
		differs string // why AWS differs from DynamoDB Local, if it does
		stmts   []string
		codes   []string
		msg     string
	}{
		{"insert of an existing item", "DynamoDB Local cancels an INSERT of an existing item with reason ValidationError; AWS's reason is DuplicateItem",
			[]string{"INSERT INTO " + q + " VALUE {'pk': 'p', 'sk': 1}", "DELETE FROM " + q + " WHERE pk = 'p' AND sk = 5"},
			[]string{"DuplicateItem", "None"}, "Duplicate primary key exists in table"},
		{"insert without key", "", []string{"INSERT INTO " + q + " VALUE {'pk': 'z'}", "DELETE FROM " + q + " WHERE pk = 'p' AND sk = 5"},
			[]string{"ValidationError", "None"}, "Key attribute should be present in the item: Key sk"},
		// Validation stops the evaluation: the false condition after it is
		// not reported (TestTransactReasonsValidationStops).
		{"a key fault then a false condition", "", []string{"INSERT INTO " + q + " VALUE {'pk': 'z'}", "UPDATE " + q + " SET v = 0 WHERE pk = 'p' AND sk = 1 AND v = 99"},
			[]string{"ValidationError", "None"}, "Key attribute should be present in the item: Key sk"},
		// Alone: beside other statements DynamoDB Local lists this reason only.
		{"update of a key", "", []string{"UPDATE " + q + " SET sk = 3 WHERE pk = 'p' AND sk = 1"},
			[]string{"ValidationError"}, "One or more parameter values were invalid: Cannot update attribute sk. This attribute is part of the key"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if tc.differs != "" {
				AWSDiffers(t, tc.differs)
			}
			_, err := execTx(t, c, tc.stmts...)
			reasons := requireCanceled(t, err, tc.codes...)
			if got := aws.ToString(reasons[0].Message); got != tc.msg {
				t.Errorf("message: got %q, want %q", got, tc.msg)
			}
		})
	}
	if got := mustExec(t, c, "SELECT * FROM "+q+" WHERE pk = 'p' AND sk = 5"); len(got) != 1 {
		t.Errorf("got %d items, want the DELETE rolled back", len(got))
	}
}

func TestExecuteTransactionReads(t *testing.T) {
	c, _, q := partiqlFixture(t)
	out, err := execTx(t, c,
		"SELECT * FROM "+q+" WHERE pk = 'q' AND sk = 1",
		"SELECT v, m.l[1] FROM "+q+" WHERE pk = 'p' AND sk = 3",
		"SELECT * FROM "+q+" WHERE pk = 'nope' AND sk = 1")
	if err != nil {
		t.Fatalf("ExecuteTransaction: %v", err)
	}
	if len(out.Responses) != 3 {
		t.Fatalf("got %d responses, want 3", len(out.Responses))
	}
	requireItem(t, out.Responses[0].Item, item{"pk": s("q"), "sk": n("1"), "v": n("7"), "nul": null()})
	// In a transaction a SELECT list shapes the item as a
	// ProjectionExpression does (ExecuteStatement names values by alias).
	requireItem(t, out.Responses[1].Item, item{"v": n("30"), "m": m(item{"l": l(s("3"))})})
	if out.Responses[2].Item != nil {
		t.Errorf("missing item: got %s, want no Item", renderItem(out.Responses[2].Item))
	}
}

func TestExecuteTransactionErrors(t *testing.T) {
	c, tbl, q := partiqlFixture(t)
	many := func(format string) []string {
		out := make([]string, 101)
		for i := range out {
			out[i] = fmt.Sprintf(format, i)
		}
		return out
	}
	tests := []struct {
		name  string
		stmts []string
		msg   string
	}{
		{"mixed", []string{"SELECT * FROM " + q + " WHERE pk = 'p' AND sk = 1", "DELETE FROM " + q + " WHERE pk = 'p' AND sk = 2"},
			"ExecuteTransaction API does not support both read and write operations in the same request."},
		{"too many writes", many("INSERT INTO " + q + " VALUE {'pk': 'x', 'sk': %d}"), "Member must have length less than or equal to 100"},
		{"too many reads", many("SELECT * FROM " + q + " WHERE pk = 'x' AND sk = %d"), "Member must have length less than or equal to 100"},
		{"empty", nil, "ExecutePartiQLTransaction can not have empty statement."},
		{"same item written twice", []string{"UPDATE " + q + " SET v = 1 WHERE pk = 'p' AND sk = 1", "DELETE FROM " + q + " WHERE pk = 'p' AND sk = 1"},
			"Transaction request cannot include multiple operations on one item"},
		{"same item read twice", []string{"SELECT * FROM " + q + " WHERE pk = 'p' AND sk = 1", "SELECT v FROM " + q + " WHERE sk = 1 AND pk = 'p'"},
			"Transaction request cannot include multiple operations on one item"},
		{"select not by key", []string{"SELECT * FROM " + q + " WHERE pk = 'p'"},
			"Validation failed in TransactStatements[0]: Select statements within ExecuteTransaction must specify the primary key in the where clause."},
		{"select with a filter", []string{"SELECT * FROM " + q + " WHERE pk = 'q' AND sk = 1", "SELECT * FROM " + q + " WHERE pk = 'p' AND sk = 1 AND v = 10"},
			"Validation failed in TransactStatements[1]: Select statements within ExecuteTransaction must specify the primary key in the where clause."},
		{"exists without condition", []string{"EXISTS(SELECT * FROM " + q + " WHERE pk = 'p' AND sk = 1)"},
			"Validation failed in TransactStatements[0]: EXISTS() must contain a single item read with additional condition"},
		{"parameters", []string{"DELETE FROM " + q + " WHERE pk = 'p' AND sk = 1", "DELETE FROM " + q + " WHERE pk = ? AND sk = 2"},
			"Validation failed in TransactStatements[1]: Number of parameters in request and statement don't match."},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := execTx(t, c, tc.stmts...)
			requireValidation(t, err, tc.msg)
		})
	}
	t.Run("function", func(t *testing.T) {
		AWSDiffers(t, awsUnknownFunction)
		stmt := "UPDATE " + q + " SET v = nope(1) WHERE pk = 'p' AND sk = 1"
		_, err := execTx(t, c, stmt)
		requireValidation(t, err, fmt.Sprintf("Validation failed in TransactStatements[0]: Unrecognized function: nope at 1:%d:4", strings.Index(stmt, "nope")+1))
	})
	t.Run("syntax", func(t *testing.T) {
		_, err := execTx(t, c, "SELECT * FROM "+q+" WHERE pk = 'p' AND sk = 1", "SELEC * FROM x")
		requireMalformed(t, err)
	})
	t.Run("no table", func(t *testing.T) {
		_, err := execTx(t, c, "INSERT INTO "+quoted(tbl+"-nope")+" VALUE {'pk': 'a', 'sk': 1}")
		requireAPIError(t, err, "ResourceNotFoundException", "")
	})
	t.Run("write without key", func(t *testing.T) {
		// DynamoDB Local answers TransactionCanceledException with the
		// message "ValidationError Where clause ..." and no reasons.
		_, err := execTx(t, c, "UPDATE "+q+" SET v = 1 WHERE v = 2")
		requireAPIError(t, err, "TransactionCanceledException", "")
	})
}

func TestExecuteTransactionIdempotent(t *testing.T) {
	c, _, q := partiqlFixture(t)
	token := uniqueKey(t)
	in := &dynamodb.ExecuteTransactionInput{
		TransactStatements: stmts("UPDATE " + q + " SET v = v + 1 WHERE pk = 'q' AND sk = 1"),
		ClientRequestToken: aws.String(token),
	}
	for i := 0; i < 2; i++ {
		if _, err := c.ExecuteTransaction(ctx(t), in); err != nil {
			t.Fatalf("request %d: %v", i+1, err)
		}
	}
	if got := renderItems(mustExec(t, c, "SELECT v FROM "+q+" WHERE pk = 'q' AND sk = 1")); got != "[{v: N:8}]" {
		t.Errorf("got %s, want v incremented once", got)
	}
	in.TransactStatements = stmts("UPDATE " + q + " SET v = v + 2 WHERE pk = 'q' AND sk = 1")
	_, err := c.ExecuteTransaction(ctx(t), in)
	requireAPIError(t, err, "IdempotentParameterMismatchException", "")
}

func TestExecuteTransactionCapacity(t *testing.T) {
	AWSDiffers(t, "DynamoDB Local leaves ConsumedCapacity out of ExecuteTransaction's response")
	c, tbl, q := partiqlFixture(t)
	w, err := c.ExecuteTransaction(ctx(t), &dynamodb.ExecuteTransactionInput{
		TransactStatements:     stmts("INSERT INTO " + q + " VALUE {'pk': 'c', 'sk': 1}"),
		ReturnConsumedCapacity: types.ReturnConsumedCapacityTotal,
	})
	if err != nil {
		t.Fatal(err)
	}
	r, err := c.ExecuteTransaction(ctx(t), &dynamodb.ExecuteTransactionInput{
		TransactStatements:     stmts("SELECT * FROM " + q + " WHERE pk = 'c' AND sk = 1"),
		ReturnConsumedCapacity: types.ReturnConsumedCapacityTotal,
	})
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name string
		got  []types.ConsumedCapacity
		want float64
	}{{"write", w.ConsumedCapacity, 2}, {"read", r.ConsumedCapacity, 2}} {
		if len(tc.got) != 1 || aws.ToString(tc.got[0].TableName) != tbl || aws.ToFloat64(tc.got[0].CapacityUnits) != tc.want {
			t.Errorf("%s: got %s, want %v units on %s", tc.name, renderCapacity(tc.got), tc.want, tbl)
		}
	}
}

func renderCapacity(list []types.ConsumedCapacity) string {
	var parts []string
	for _, cc := range list {
		parts = append(parts, fmt.Sprintf("%s:%v", aws.ToString(cc.TableName), aws.ToFloat64(cc.CapacityUnits)))
	}
	return "[" + strings.Join(parts, " ") + "]"
}
