package emulator

import (
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/aws/smithy-go"
	"github.com/stretchr/testify/require"
)

// TestIAMLegacyGlobalTableResource: the legacy global-table operations
// are decided on the global table's ARN, as AWS's Service Authorization
// Reference writes it (arn:aws:dynamodb::ACCOUNT:global-table/NAME, no
// region): a policy that allows DescribeGlobalTable on the table's ARN
// alone is denied, naming the global table's; one that allows it on the
// global table's passes the authorization (the answer is then the
// operation's own). CreateGlobalTable needs the table's ARN too: allowed
// on the global table alone, it is denied naming the table's.
func TestIAMLegacyGlobalTableResource(t *testing.T) {
	f := newIAMFixture(t)
	const global = "arn:aws:dynamodb::000000000000:global-table/Orders"
	denied := func(err error, resource string) {
		t.Helper()
		var ae smithy.APIError
		require.ErrorAs(t, err, &ae)
		require.Equal(t, "AccessDeniedException", ae.ErrorCode(), ae.ErrorMessage())
		require.Contains(t, ae.ErrorMessage(), "on resource: "+resource)
	}
	describe := func() error {
		_, err := f.a.DescribeGlobalTable(ctxBG, &dynamodb.DescribeGlobalTableInput{GlobalTableName: aws.String("Orders")})
		return err
	}
	f.setPolicies(t, `{"Version":"2012-10-17","Statement":[{"Effect":"Allow","Action":"dynamodb:*GlobalTable*","Resource":"`+iamTable+`"}]}`)
	denied(describe(), global)

	f.setPolicies(t, `{"Version":"2012-10-17","Statement":[{"Effect":"Allow","Action":"dynamodb:*GlobalTable*","Resource":"`+global+`"}]}`)
	err := describe()
	var ae smithy.APIError
	if err != nil {
		require.ErrorAs(t, err, &ae)
		require.NotEqual(t, "AccessDeniedException", ae.ErrorCode(), ae.ErrorMessage())
	}
	_, err = f.a.CreateGlobalTable(ctxBG, &dynamodb.CreateGlobalTableInput{GlobalTableName: aws.String("Orders"),
		ReplicationGroup: []types.Replica{{RegionName: aws.String("us-east-1")}}})
	denied(err, iamTable)
}
