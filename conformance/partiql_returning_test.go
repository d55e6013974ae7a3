package conformance

// PartiQL RETURNING where AWS refuses it: a DELETE may only say
// RETURNING ALL OLD *, and no statement of an ExecuteTransaction may
// have one. Both are refused before anything is written. AWS's answers
// as recorded by an AWS-verified suite (nubo-db/dynamodb-conformance,
// tests/tier3/error-messages/partiql.test.ts: "DELETE RETURNING
// MODIFIED OLD * — exact message" and its siblings, "ExecuteTransaction
// with a RETURNING member — exact message").

import (
	"fmt"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/stretchr/testify/require"
)

// requireStillThere fails the test unless the item at pk 'p', sk sk of a
// partiqlTable still holds v.
func requireStillThere(t *testing.T, c *dynamodb.Client, table string, sk, v string) {
	t.Helper()
	got := mustGet(t, c, table, item{"pk": s("p"), "sk": n(sk)})
	require.NotNil(t, got, "item p/%s was deleted", sk)
	require.Equal(t, render(n(v)), render(got["v"]), "item p/%s was changed", sk)
}

// TestPartiQLDeleteReturningRefused: DELETE with any RETURNING but ALL
// OLD * is a ValidationException naming the clause, and the item stays.
func TestPartiQLDeleteReturningRefused(t *testing.T) {
	c, tbl, q := partiqlFixture(t)
	for _, words := range []string{"MODIFIED OLD", "ALL NEW", "MODIFIED NEW"} {
		_, err := exec(t, c, "DELETE FROM "+q+" WHERE pk = 'p' AND sk = 1 RETURNING "+words+" *")
		requireValidation(t, err, "Invalid returning clause: RETURNING "+words+" *. Only RETURNING ALL OLD * is allowed in DELETE statements.")
		requireStillThere(t, c, tbl, "1", "10")
	}
	// ALL OLD * is allowed: the item deleted is returned.
	got := mustExec(t, c, "DELETE FROM "+q+" WHERE pk = 'p' AND sk = 1 RETURNING ALL OLD *")
	require.Len(t, got, 1)
	require.Equal(t, render(n("10")), render(got[0]["v"]))
	require.Nil(t, mustGet(t, c, tbl, item{"pk": s("p"), "sk": n("1")}))
}

// TestBatchDeleteReturningRefused: in BatchExecuteStatement the refused
// DELETE is that statement's ValidationError (naming no table, as an
// error of a statement that did not run); the others run, the refused
// one deletes nothing.
func TestBatchDeleteReturningRefused(t *testing.T) {
	c, tbl, q := partiqlFixture(t)
	out, err := c.BatchExecuteStatement(ctx(t), &dynamodb.BatchExecuteStatementInput{Statements: batchStatements(
		"DELETE FROM "+q+" WHERE pk = 'p' AND sk = 1 RETURNING MODIFIED OLD *",
		"DELETE FROM "+q+" WHERE pk = 'p' AND sk = 2",
	)})
	require.NoError(t, err)
	require.Len(t, out.Responses, 2)
	e := out.Responses[0].Error
	require.NotNil(t, e)
	require.Equal(t, types.BatchStatementErrorCodeEnumValidationError, e.Code)
	require.Equal(t, "Invalid returning clause: RETURNING MODIFIED OLD *. Only RETURNING ALL OLD * is allowed in DELETE statements.", aws.ToString(e.Message))
	require.Nil(t, out.Responses[0].TableName)
	require.Nil(t, out.Responses[1].Error)
	requireStillThere(t, c, tbl, "1", "10")
	require.Nil(t, mustGet(t, c, tbl, item{"pk": s("p"), "sk": n("2")}))
}

// TestExecuteTransactionReturningRefused: a RETURNING clause on any
// statement of an ExecuteTransaction refuses the whole request, naming
// the statement, and nothing is written, not even by the statements
// before it.
func TestExecuteTransactionReturningRefused(t *testing.T) {
	c, tbl, q := partiqlFixture(t)
	cases := []struct {
		stmts []string
		at    int
	}{
		{[]string{"UPDATE " + q + " SET v = 99 WHERE pk = 'p' AND sk = 1 RETURNING ALL NEW *"}, 0},
		{[]string{
			"UPDATE " + q + " SET v = 99 WHERE pk = 'p' AND sk = 1",
			"DELETE FROM " + q + " WHERE pk = 'p' AND sk = 2 RETURNING ALL OLD *",
		}, 1},
		{[]string{
			"DELETE FROM " + q + " WHERE pk = 'p' AND sk = 2",
			"INSERT INTO " + q + " VALUE {'pk': 'p', 'sk': 9}",
			"UPDATE " + q + " SET v = 99 WHERE pk = 'p' AND sk = 1 RETURNING MODIFIED OLD *",
		}, 2},
	}
	for _, tc := range cases {
		_, err := execTx(t, c, tc.stmts...)
		requireValidation(t, err, fmt.Sprintf("Validation failed in TransactStatements[%d]: RETURNING clause is not supported in ExecuteTransaction.", tc.at))
		requireStillThere(t, c, tbl, "1", "10")
		requireStillThere(t, c, tbl, "2", "20")
		require.Nil(t, mustGet(t, c, tbl, item{"pk": s("p"), "sk": n("9")}))
	}
}

// TestBatchReadDuplicateKeys: a BatchExecuteStatement that reads one item
// twice is refused whole, as one that writes it twice is (captured
// against AWS, eu-west-2: nubo-db/dynoxide's CHANGELOG, "may not name the
// same item twice, reads included").
func TestBatchReadDuplicateKeys(t *testing.T) {
	c, _, q := partiqlFixture(t)
	_, err := c.BatchExecuteStatement(ctx(t), &dynamodb.BatchExecuteStatementInput{Statements: batchStatements(
		"SELECT * FROM "+q+" WHERE pk = 'p' AND sk = 1",
		"SELECT v FROM "+q+" WHERE pk = 'p' AND sk = 1",
	)})
	requireValidation(t, err, "Provided list of item keys contains duplicates")
	out, err := c.BatchExecuteStatement(ctx(t), &dynamodb.BatchExecuteStatementInput{Statements: batchStatements(
		"SELECT * FROM "+q+" WHERE pk = 'p' AND sk = 1",
		"SELECT * FROM "+q+" WHERE pk = 'p' AND sk = 2",
	)})
	require.NoError(t, err)
	require.Len(t, out.Responses, 2)
}
