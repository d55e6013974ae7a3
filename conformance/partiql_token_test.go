package conformance

// An ExecuteStatement NextToken is bound to the request that read its
// page: replayed with another statement (another WHERE clause, table or
// index) or other Parameters it is refused, and a token that is none at
// all is invalid. AWS's answers as captured against AWS (eu-west-2,
// 2026) and published by nubo-db/dynoxide: CHANGELOG ("NextToken does not
// match request" for another statement or other Parameters, "Invalid
// NextToken" for one that cannot be read; src/partiql/executor.rs),
// tests/partiql.rs and tests/partiql_index_qualifier.rs (a token read on
// one index replayed on another, and the table's on an index).

import (
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/stretchr/testify/require"
)

// firstToken reads the first page (Limit 1) of stmt with params and
// returns its NextToken.
func firstToken(t *testing.T, c *dynamodb.Client, stmt string, params ...types.AttributeValue) *string {
	t.Helper()
	in := &dynamodb.ExecuteStatementInput{Statement: aws.String(stmt), Limit: aws.Int32(1)}
	if len(params) > 0 {
		in.Parameters = params
	}
	out, err := c.ExecuteStatement(ctx(t), in)
	require.NoError(t, err, stmt)
	require.NotNil(t, out.NextToken, "%s: a page of Limit 1 of several items has a NextToken", stmt)
	return out.NextToken
}

func TestPartiQLNextTokenBound(t *testing.T) {
	AWSDiffers(t, "DynamoDB Local does not bind a NextToken to its statement")
	c, tbl := partiqlIndexFixture(t)
	table := "SELECT * FROM " + quoted(tbl) + " WHERE a > ?"
	byG := "SELECT * FROM " + indexTarget(tbl, "byG")
	ten := &types.AttributeValueMemberN{Value: "10"}
	tok := firstToken(t, c, table, ten)
	gtok := firstToken(t, c, byG)

	for _, tc := range []struct {
		name   string
		stmt   string
		params []types.AttributeValue
		token  *string
	}{
		{"another WHERE clause", "SELECT * FROM " + quoted(tbl) + " WHERE a > ? AND b = 'b'", []types.AttributeValue{ten}, tok},
		{"other Parameters", table, []types.AttributeValue{&types.AttributeValueMemberN{Value: "20"}}, tok},
		{"the table's, on an index", "SELECT * FROM " + indexTarget(tbl, "byL") + " WHERE a > ?", []types.AttributeValue{ten}, tok},
		{"an index's, on another", "SELECT * FROM " + indexTarget(tbl, "byGKeys"), nil, gtok},
		{"an index's, on the table", "SELECT * FROM " + quoted(tbl), nil, gtok},
	} {
		in := &dynamodb.ExecuteStatementInput{Statement: aws.String(tc.stmt), Limit: aws.Int32(1), NextToken: tc.token}
		if len(tc.params) > 0 {
			in.Parameters = tc.params
		}
		_, err := c.ExecuteStatement(ctx(t), in)
		requireValidation(t, err, "NextToken does not match request")
	}
	_, err := c.ExecuteStatement(ctx(t), &dynamodb.ExecuteStatementInput{Statement: aws.String(byG), NextToken: aws.String("not-a-token")})
	requireValidation(t, err, "Invalid NextToken")

	// The same request resumes: the walk reads each item once.
	for _, tc := range []struct {
		stmt   string
		params []types.AttributeValue
		want   string
	}{
		{table, []types.AttributeValue{ten}, "2 3 4 5"},
		{byG, nil, "1 2 3 4 5"},
	} {
		in := &dynamodb.ExecuteStatementInput{Statement: aws.String(tc.stmt), Limit: aws.Int32(1)}
		if len(tc.params) > 0 {
			in.Parameters = tc.params
		}
		var got []item
		for page := 0; ; page++ {
			require.Less(t, page, 10, tc.stmt)
			out, err := c.ExecuteStatement(ctx(t), in)
			require.NoError(t, err, tc.stmt)
			got = append(got, out.Items...)
			if out.NextToken == nil {
				break
			}
			in.NextToken = out.NextToken
		}
		require.Equal(t, tc.want, sortedFields(got, "sk"), tc.stmt)
	}
}
