package emulator_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/aws/smithy-go"
	"github.com/stretchr/testify/require"

	"github.com/dynamoemu/dynamoemu/emulator/emulatortest"
)

// TestConventionsPartiQLTenantAlike: every PartiQL statement tenant002's
// own key (bound by the callers map) sends about tenant001's row, a read
// (SELECT by the full key) or a write (INSERT, UPDATE, DELETE), is
// refused the same way whichever operation carries it: ExecuteStatement
// answers AccessDeniedException, ExecuteTransaction the same exception
// with the same message, BatchExecuteStatement the statement's
// AccessDenied with that message; nothing is written. The same
// statements about its own row run through all three, and an unbound key
// runs them on tenant001's row.
func TestConventionsPartiQLTenantAlike(t *testing.T) {
	env, hostile := twoTenantRows(t)

	q := `"` + cmdTable + `"`
	key := func(pk string) string { return `pk = '` + pk + `' AND sk = '` + orderSK + `@1'` }
	statements := func(pk string) map[string]string {
		return map[string]string{
			"SELECT": `SELECT * FROM ` + q + ` WHERE ` + key(pk),
			"UPDATE": `UPDATE ` + q + ` SET status = 'x' WHERE ` + key(pk),
			"INSERT": `INSERT INTO ` + q + ` VALUE {'pk': '` + pk + `', 'sk': '` + orderSK + `@9', 'version': 9}`,
			"DELETE": `DELETE FROM ` + q + ` WHERE ` + key(pk),
		}
	}
	refusal := func(err error) string {
		t.Helper()
		var ae smithy.APIError
		require.True(t, errors.As(err, &ae), "got %v, want AccessDeniedException", err)
		require.Equal(t, "AccessDeniedException", ae.ErrorCode(), ae.ErrorMessage())
		require.Contains(t, ae.ErrorMessage(), `[conventions B10] caller tenant "tenant002" may not use tenant "tenant001"`)
		return judged(ae.ErrorMessage())
	}
	for kind, stmt := range statements(orderPK) {
		t.Run(kind, func(t *testing.T) {
			_, err := hostile.ExecuteStatement(env.ctx, &dynamodb.ExecuteStatementInput{Statement: aws.String(stmt)})
			want := refusal(err)
			_, err = hostile.ExecuteTransaction(env.ctx, &dynamodb.ExecuteTransactionInput{
				TransactStatements: []types.ParameterizedStatement{{Statement: aws.String(stmt)}}})
			require.Equal(t, want, refusal(err), "ExecuteTransaction")
			out, err := hostile.BatchExecuteStatement(env.ctx, &dynamodb.BatchExecuteStatementInput{
				Statements: []types.BatchStatementRequest{{Statement: aws.String(stmt)}}})
			require.NoError(t, err)
			require.NotNil(t, out.Responses[0].Error, "BatchExecuteStatement")
			require.Equal(t, types.BatchStatementErrorCodeEnumAccessDenied, out.Responses[0].Error.Code)
			require.Equal(t, want, judged(aws.ToString(out.Responses[0].Error.Message)), "BatchExecuteStatement")
		})
	}
	row := env.getItem(cmdTable, orderPK, orderSK+"@1")
	require.Equal(t, "publish_async:STARTED", row["status"].(*types.AttributeValueMemberS).Value, "a refused statement wrote")
	require.Nil(t, env.getItem(cmdTable, orderPK, orderSK+"@9"), "a refused statement wrote")

	mine := statements("ORDER#tenant002")
	for _, kind := range []string{"SELECT", "UPDATE"} {
		_, err := hostile.ExecuteStatement(env.ctx, &dynamodb.ExecuteStatementInput{Statement: aws.String(mine[kind])})
		require.NoError(t, err, kind)
		_, err = hostile.ExecuteTransaction(env.ctx, &dynamodb.ExecuteTransactionInput{
			TransactStatements: []types.ParameterizedStatement{{Statement: aws.String(mine[kind])}}})
		require.NoError(t, err, kind)
		out, err := hostile.BatchExecuteStatement(env.ctx, &dynamodb.BatchExecuteStatementInput{
			Statements: []types.BatchStatementRequest{{Statement: aws.String(mine[kind])}}})
		require.NoError(t, err, kind)
		require.Nil(t, out.Responses[0].Error, kind)
	}
	for _, kind := range []string{"SELECT", "UPDATE"} {
		_, err := env.db.ExecuteStatement(env.ctx, &dynamodb.ExecuteStatementInput{Statement: aws.String(statements(orderPK)[kind])})
		require.NoError(t, err, "an unbound key, %s", kind)
	}
}

// judged is a refusal's message up to the item it names: the rule, the
// tenants and the key judged (a SELECT by its full key is judged by its
// partition in ExecuteStatement, as a Query is, and names the partition
// alone; by its key in the other two, as GetItem is).
func judged(msg string) string {
	if i := strings.Index(msg, " (item "); i >= 0 {
		return msg[:i]
	}
	return msg
}

// TestConventionsPartiQLTransactionMixed: in one ExecuteTransaction of
// tenant002's key, a write of its own row beside a write of tenant001's
// (or an EXISTS of tenant001's row) is refused as a whole
// (AccessDeniedException) and its own write is not made.
func TestConventionsPartiQLTransactionMixed(t *testing.T) {
	env, hostile := twoTenantRows(t)
	q := `"` + cmdTable + `"`
	mine := `UPDATE ` + q + ` SET status = 'mine' WHERE pk = 'ORDER#tenant002' AND sk = '` + orderSK + `@1'`
	for _, theirs := range []string{
		`UPDATE ` + q + ` SET status = 'x' WHERE pk = '` + orderPK + `' AND sk = '` + orderSK + `@1'`,
		`EXISTS(SELECT * FROM ` + q + ` WHERE pk = '` + orderPK + `' AND sk = '` + orderSK + `@1' AND status = 'x')`,
	} {
		_, err := hostile.ExecuteTransaction(env.ctx, &dynamodb.ExecuteTransactionInput{TransactStatements: []types.ParameterizedStatement{
			{Statement: aws.String(mine)}, {Statement: aws.String(theirs)}}})
		var ae smithy.APIError
		require.True(t, errors.As(err, &ae), "got %v", err)
		require.Equal(t, "AccessDeniedException", ae.ErrorCode(), ae.ErrorMessage())
		require.Contains(t, ae.ErrorMessage(), "[conventions B10]")
		require.Equal(t, "publish_async:STARTED", env.getItem(cmdTable, "ORDER#tenant002", orderSK+"@1")["status"].(*types.AttributeValueMemberS).Value)
	}
}

// twoTenantRows is the conventions' environment holding one command row
// of tenant001 (orderPK) and one of tenant002, and a client signed with
// tenant002's key.
func twoTenantRows(t *testing.T) (*convEnv, *dynamodb.Client) {
	t.Helper()
	env := newConvEnv(t)
	env.mustPut(cmdTable, commandItem(orderPK, orderSK, 1), createCnd)
	own := commandItem("ORDER#tenant002", orderSK, 1)
	own["tenantCode"] = s("tenant002")
	env.mustPut(cmdTable, own, createCnd)
	hostile := emulatortest.Client(t, env.e, "AKIDTENANT002")
	return env, hostile
}
