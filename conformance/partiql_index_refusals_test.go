package conformance

// PartiQL reads from an index that AWS refuses: a keyed read (equality or
// IN on the index's partition key) filtering on an attribute the index
// does not project, a FROM path of more than two components, an empty
// component. AWS's answers as recorded by an AWS-verified suite
// (nubo-db/dynamodb-conformance, tests/tier3/error-messages/
// partiql.test.ts: "unprojected filter attribute on a GSI — exact
// message", "... on an LSI — same wording, no Local prefix", "a
// three-component path — exact message", "an empty index component —
// exact message", "an empty table component — same message, before
// table resolution").

import (
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/stretchr/testify/require"
)

func TestPartiQLIndexFilterNotProjected(t *testing.T) {
	AWSDiffers(t, "DynamoDB Local filters the whole items of a keyed index read")
	c, tbl := partiqlIndexFixture(t)
	for _, tc := range []struct{ stmt, index, missing string }{
		{"SELECT * FROM " + indexTarget(tbl, "byGKeys") + " WHERE g = 'x' AND b = 'b'", "byGKeys", "[b]"},
		{"SELECT * FROM " + indexTarget(tbl, "byGInc") + " WHERE g IN ['x', 'y'] AND b = 'b' AND a > 1", "byGInc", "[b]"},
		{"SELECT * FROM " + indexTarget(tbl, "byGInc") + " WHERE g = 'x' AND NOT (b = 'b' OR zz IS MISSING)", "byGInc", "[b, zz]"},
		{"SELECT * FROM " + indexTarget(tbl, "byGKeys") + " WHERE g = 'x' AND begins_with(b, 'b')", "byGKeys", "[b]"},
		{"SELECT * FROM " + indexTarget(tbl, "byLKeys") + " WHERE pk = 'p' AND a = 10", "byLKeys", "[a]"},
	} {
		_, err := exec(t, c, tc.stmt)
		requireValidation(t, err, "One or more parameter values were invalid: Secondary index "+tc.index+" does not project one or more filter attributes: "+tc.missing)
	}
	// Projected attributes, and an unkeyed read, are not refused.
	got := mustExec(t, c, "SELECT * FROM "+indexTarget(tbl, "byGInc")+" WHERE g = 'x' AND a > 10")
	require.Len(t, got, 2)
	_, err := exec(t, c, "SELECT * FROM "+indexTarget(tbl, "byGKeys")+" WHERE b = 'b'")
	require.NoError(t, err)
}

func TestPartiQLFromPathRefused(t *testing.T) {
	AWSDiffers(t, "DynamoDB Local answers a longer or empty path in its own words")
	c, tbl := partiqlIndexFixture(t)
	for _, tc := range []struct{ stmt, msg string }{
		{"SELECT * FROM " + indexTarget(tbl, "byG") + `."extra" WHERE pk = 'p'`, "A path may contain at most 2 components in the FROM clause"},
		{"SELECT * FROM " + quoted(tbl) + `."" WHERE pk = 'p'`, "Path component cannot be an empty string"},
		{`SELECT * FROM "" WHERE pk = 'p'`, "Path component cannot be an empty string"},
	} {
		_, err := exec(t, c, tc.stmt)
		requireValidation(t, err, tc.msg)
	}
	// In a batch, the statement's own error.
	out, err := c.BatchExecuteStatement(ctx(t), &dynamodb.BatchExecuteStatementInput{Statements: []types.BatchStatementRequest{
		{Statement: aws.String(`SELECT * FROM "" WHERE pk = 'p' AND sk = '1'`)}}})
	require.NoError(t, err)
	require.NotNil(t, out.Responses[0].Error)
	require.Equal(t, "Path component cannot be an empty string", aws.ToString(out.Responses[0].Error.Message))
}
