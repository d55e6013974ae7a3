package emulator

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	v4 "github.com/aws/aws-sdk-go-v2/aws/signer/v4"
	"github.com/aws/aws-sdk-go-v2/credentials"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/aws/smithy-go"
	"github.com/dynamoemu/dynamoemu/internal/adminpath"
	"github.com/stretchr/testify/require"
)

// The IAM policy mode through the AWS SDK for Go: a root key sets the
// table up, the tenant keys' requests are decided by their policies.

const (
	iamRoot    = "ROOTKEY0000000001"
	iamTenantA = "TENANTAKEY000001"
	iamTenantB = "TENANTBKEY000001"
	iamSecret  = "secret"
	iamRegion  = "us-east-1"
	iamUserA   = "arn:aws:iam::000000000000:user/tenant-a"
	iamUserB   = "arn:aws:iam::000000000000:user/tenant-b"
	iamTable   = "arn:aws:dynamodb:us-east-1:000000000000:table/Orders"
)

// iamOptions are options with the three keys in one namespace and the
// policy mode on, tenant A's identity with policies docs.
func iamOptions(docs ...string) Options {
	creds := []Credential{
		{AccessKeyID: iamRoot, SecretAccessKey: iamSecret, Namespace: "acct"},
		{AccessKeyID: iamTenantA, SecretAccessKey: iamSecret, Namespace: "acct"},
		{AccessKeyID: iamTenantB, SecretAccessKey: iamSecret, Namespace: "acct"},
	}
	return Options{Credentials: creds, IAM: iamPolicies(docs...)}
}

// iamPolicies gives tenant A (tag tenant=A) the policies docs, and
// tenant B (tag tenant=B) none.
func iamPolicies(docs ...string) *IAMPolicies {
	raw := make([]json.RawMessage, len(docs))
	for i, d := range docs {
		raw[i] = json.RawMessage(d)
	}
	return &IAMPolicies{Identities: []IAMIdentity{
		{AccessKeyID: iamTenantA, ARN: iamUserA, Tags: map[string]string{"tenant": "A"}, Policies: raw},
		{AccessKeyID: iamTenantB, ARN: iamUserB, Tags: map[string]string{"tenant": "B"}},
	}}
}

// iamClient is a client signing with key.
func iamClient(addr, key string) *dynamodb.Client {
	return dynamodb.New(dynamodb.Options{Region: iamRegion, BaseEndpoint: aws.String("http://" + addr),
		Credentials: credentials.NewStaticCredentialsProvider(key, iamSecret, ""), RetryMaxAttempts: 1})
}

// iamFixture is a running emulator in the policy mode with table T
// (pk, sk; GSI byOwner on owner) holding one item per tenant.
type iamFixture struct {
	e            *Emulator
	root, a, b   *dynamodb.Client
	addr         string
	itemA, itemB map[string]types.AttributeValue
}

// newIAMEmulator is newTestEmulator, closed when the test ends: an
// emulator in the policy mode turns the IAM stage on for the process
// until it is closed.
func newIAMEmulator(t *testing.T, opts Options) *Emulator {
	t.Helper()
	e := newTestEmulator(t, opts)
	t.Cleanup(func() { require.NoError(t, e.Close()) })
	return e
}

func newIAMFixture(t *testing.T) *iamFixture {
	t.Helper()
	e := newIAMEmulator(t, iamOptions())
	_, addr := startServer(t, e, ServerOptions{})
	f := &iamFixture{e: e, addr: addr, root: iamClient(addr, iamRoot), a: iamClient(addr, iamTenantA), b: iamClient(addr, iamTenantB)}
	ctx := context.Background()
	_, err := f.root.CreateTable(ctx, &dynamodb.CreateTableInput{TableName: aws.String("Orders"),
		AttributeDefinitions: []types.AttributeDefinition{{AttributeName: aws.String("pk"), AttributeType: "S"},
			{AttributeName: aws.String("sk"), AttributeType: "S"}, {AttributeName: aws.String("owner"), AttributeType: "S"}},
		KeySchema: []types.KeySchemaElement{{AttributeName: aws.String("pk"), KeyType: "HASH"}, {AttributeName: aws.String("sk"), KeyType: "RANGE"}},
		GlobalSecondaryIndexes: []types.GlobalSecondaryIndex{{IndexName: aws.String("byOwner"),
			KeySchema:  []types.KeySchemaElement{{AttributeName: aws.String("owner"), KeyType: "HASH"}},
			Projection: &types.Projection{ProjectionType: "ALL"}}},
		BillingMode: "PAY_PER_REQUEST"})
	require.NoError(t, err)
	f.itemA, f.itemB = iamItem("TENANT#A", "1"), iamItem("TENANT#B", "1")
	for _, it := range []map[string]types.AttributeValue{f.itemA, f.itemB} {
		_, err := f.root.PutItem(ctx, &dynamodb.PutItemInput{TableName: aws.String("Orders"), Item: it})
		require.NoError(t, err)
	}
	return f
}

func iamItem(pk, sk string) map[string]types.AttributeValue {
	return map[string]types.AttributeValue{"pk": s(pk), "sk": s(sk), "owner": s(pk), "title": s("n"), "secret": s("x")}
}

func s(v string) types.AttributeValue { return &types.AttributeValueMemberS{Value: v} }

func iamKey(pk string) map[string]types.AttributeValue {
	return map[string]types.AttributeValue{"pk": s(pk), "sk": s("1")}
}

// setPolicies gives tenant A the policies docs.
func (f *iamFixture) setPolicies(t *testing.T, docs ...string) {
	t.Helper()
	require.NoError(t, f.e.SetIAMPolicies(iamPolicies(docs...)))
}

// iamOp is one data-plane request of tenant A on partition pk: the IAM
// action it needs and the resource its denial names.
type iamOp struct {
	name     string
	action   string
	resource string
	run      func(c *dynamodb.Client, pk string) error
}

var ctxBG = context.Background()

func iamOps() []iamOp {
	tn := aws.String("Orders")
	stmt := func(c *dynamodb.Client, q string) error {
		_, err := c.ExecuteStatement(ctxBG, &dynamodb.ExecuteStatementInput{Statement: aws.String(q)})
		return err
	}
	return []iamOp{
		{"GetItem", "GetItem", iamTable, func(c *dynamodb.Client, pk string) error {
			_, err := c.GetItem(ctxBG, &dynamodb.GetItemInput{TableName: tn, Key: iamKey(pk)})
			return err
		}},
		{"PutItem", "PutItem", iamTable, func(c *dynamodb.Client, pk string) error {
			_, err := c.PutItem(ctxBG, &dynamodb.PutItemInput{TableName: tn, Item: iamItem(pk, "2")})
			return err
		}},
		{"UpdateItem", "UpdateItem", iamTable, func(c *dynamodb.Client, pk string) error {
			_, err := c.UpdateItem(ctxBG, &dynamodb.UpdateItemInput{TableName: tn, Key: iamKey(pk),
				UpdateExpression: aws.String("SET #n = :v"), ExpressionAttributeNames: map[string]string{"#n": "title"},
				ExpressionAttributeValues: map[string]types.AttributeValue{":v": s("m")}})
			return err
		}},
		{"DeleteItem", "DeleteItem", iamTable, func(c *dynamodb.Client, pk string) error {
			_, err := c.DeleteItem(ctxBG, &dynamodb.DeleteItemInput{TableName: tn, Key: map[string]types.AttributeValue{"pk": s(pk), "sk": s("9")}})
			return err
		}},
		{"Query", "Query", iamTable, func(c *dynamodb.Client, pk string) error {
			_, err := c.Query(ctxBG, &dynamodb.QueryInput{TableName: tn, KeyConditionExpression: aws.String("pk = :p"),
				ExpressionAttributeValues: map[string]types.AttributeValue{":p": s(pk)}})
			return err
		}},
		{"Query index", "Query", iamTable + "/index/byOwner", func(c *dynamodb.Client, pk string) error {
			_, err := c.Query(ctxBG, &dynamodb.QueryInput{TableName: tn, IndexName: aws.String("byOwner"),
				KeyConditionExpression: aws.String("#o = :p"), ExpressionAttributeNames: map[string]string{"#o": "owner"},
				ExpressionAttributeValues: map[string]types.AttributeValue{":p": s(pk)}})
			return err
		}},
		{"Scan", "Scan", iamTable, func(c *dynamodb.Client, _ string) error {
			_, err := c.Scan(ctxBG, &dynamodb.ScanInput{TableName: tn})
			return err
		}},
		{"Scan index", "Scan", iamTable + "/index/byOwner", func(c *dynamodb.Client, _ string) error {
			_, err := c.Scan(ctxBG, &dynamodb.ScanInput{TableName: tn, IndexName: aws.String("byOwner")})
			return err
		}},
		{"BatchGetItem", "BatchGetItem", iamTable, func(c *dynamodb.Client, pk string) error {
			_, err := c.BatchGetItem(ctxBG, &dynamodb.BatchGetItemInput{RequestItems: map[string]types.KeysAndAttributes{"Orders": {Keys: []map[string]types.AttributeValue{iamKey(pk)}}}})
			return err
		}},
		{"BatchWriteItem", "BatchWriteItem", iamTable, func(c *dynamodb.Client, pk string) error {
			_, err := c.BatchWriteItem(ctxBG, &dynamodb.BatchWriteItemInput{RequestItems: map[string][]types.WriteRequest{"Orders": {{PutRequest: &types.PutRequest{Item: iamItem(pk, "3")}}}}})
			return err
		}},
		{"TransactGetItems", "GetItem", iamTable, func(c *dynamodb.Client, pk string) error {
			_, err := c.TransactGetItems(ctxBG, &dynamodb.TransactGetItemsInput{TransactItems: []types.TransactGetItem{{Get: &types.Get{TableName: tn, Key: iamKey(pk)}}}})
			return err
		}},
		{"TransactWriteItems Put", "PutItem", iamTable, func(c *dynamodb.Client, pk string) error {
			_, err := c.TransactWriteItems(ctxBG, &dynamodb.TransactWriteItemsInput{TransactItems: []types.TransactWriteItem{{Put: &types.Put{TableName: tn, Item: iamItem(pk, "4")}}}})
			return err
		}},
		{"TransactWriteItems Update", "UpdateItem", iamTable, func(c *dynamodb.Client, pk string) error {
			_, err := c.TransactWriteItems(ctxBG, &dynamodb.TransactWriteItemsInput{TransactItems: []types.TransactWriteItem{{Update: &types.Update{TableName: tn, Key: iamKey(pk),
				UpdateExpression: aws.String("SET #n = :v"), ExpressionAttributeNames: map[string]string{"#n": "title"},
				ExpressionAttributeValues: map[string]types.AttributeValue{":v": s("t")}}}}})
			return err
		}},
		{"TransactWriteItems Delete", "DeleteItem", iamTable, func(c *dynamodb.Client, pk string) error {
			_, err := c.TransactWriteItems(ctxBG, &dynamodb.TransactWriteItemsInput{TransactItems: []types.TransactWriteItem{{Delete: &types.Delete{TableName: tn, Key: map[string]types.AttributeValue{"pk": s(pk), "sk": s("8")}}}}})
			return err
		}},
		{"TransactWriteItems ConditionCheck", "ConditionCheckItem", iamTable, func(c *dynamodb.Client, pk string) error {
			_, err := c.TransactWriteItems(ctxBG, &dynamodb.TransactWriteItemsInput{TransactItems: []types.TransactWriteItem{{ConditionCheck: &types.ConditionCheck{TableName: tn, Key: iamKey(pk),
				ConditionExpression: aws.String("attribute_exists(pk)")}}}})
			return err
		}},
		{"PartiQL SELECT", "PartiQLSelect", iamTable, func(c *dynamodb.Client, pk string) error {
			return stmt(c, fmt.Sprintf(`SELECT * FROM "Orders" WHERE pk = '%s'`, pk))
		}},
		{"PartiQL INSERT", "PartiQLInsert", iamTable, func(c *dynamodb.Client, pk string) error {
			return stmt(c, fmt.Sprintf(`INSERT INTO "Orders" VALUE {'pk': '%s', 'sk': '5'}`, pk))
		}},
		{"PartiQL UPDATE", "PartiQLUpdate", iamTable, func(c *dynamodb.Client, pk string) error {
			return stmt(c, fmt.Sprintf(`UPDATE "Orders" SET title = 'p' WHERE pk = '%s' AND sk = '1'`, pk))
		}},
		{"PartiQL DELETE", "PartiQLDelete", iamTable, func(c *dynamodb.Client, pk string) error {
			return stmt(c, fmt.Sprintf(`DELETE FROM "Orders" WHERE pk = '%s' AND sk = '7'`, pk))
		}},
		{"ExecuteTransaction", "PartiQLUpdate", iamTable, func(c *dynamodb.Client, pk string) error {
			_, err := c.ExecuteTransaction(ctxBG, &dynamodb.ExecuteTransactionInput{TransactStatements: []types.ParameterizedStatement{
				{Statement: aws.String(fmt.Sprintf(`UPDATE "Orders" SET title = 'q' WHERE pk = '%s' AND sk = '1'`, pk))}}})
			return err
		}},
		{"BatchExecuteStatement", "PartiQLSelect", iamTable, func(c *dynamodb.Client, pk string) error {
			out, err := c.BatchExecuteStatement(ctxBG, &dynamodb.BatchExecuteStatementInput{Statements: []types.BatchStatementRequest{
				{Statement: aws.String(fmt.Sprintf(`SELECT * FROM "Orders" WHERE pk = '%s' AND sk = '1'`, pk))}}})
			if err != nil {
				return err
			}
			// A statement's error is its own (BatchStatementError): the
			// test reads it as the request's.
			if e := out.Responses[0].Error; e != nil {
				return &smithy.GenericAPIError{Code: string(e.Code) + "Exception", Message: aws.ToString(e.Message)}
			}
			return nil
		}},
	}
}

// policy is a policy document of the statements given.
func policy(stmts ...string) string {
	return `{"Version":"2012-10-17","Statement":[` + strings.Join(stmts, ",") + `]}`
}

// allowOn allows action on T and its indexes, with an optional
// condition block.
func allowOn(action, cond string) string {
	c := ""
	if cond != "" {
		c = `,"Condition":` + cond
	}
	return fmt.Sprintf(`{"Effect":"Allow","Action":%q,"Resource":["arn:aws:dynamodb:*:*:table/Orders","arn:aws:dynamodb:*:*:table/Orders/index/*"]%s}`, action, c)
}

// requireDenied checks that err is AWS's AccessDeniedException with its
// message for action on resource and the reason.
func requireDenied(t *testing.T, err error, action, resource, reason string) {
	t.Helper()
	var ae smithy.APIError
	require.True(t, errors.As(err, &ae), "got %v, want AccessDeniedException", err)
	require.Equal(t, "AccessDeniedException", ae.ErrorCode())
	want := "User: " + iamUserA + " is not authorized to perform: dynamodb:" + action + " on resource: " + resource + " " + reason
	require.Equal(t, want, ae.ErrorMessage())
}

// TestIAMDecisions: every data-plane operation, allowed by a policy,
// denied for want of one, denied by an explicit Deny over an Allow, and
// denied with no policy at all.
func TestIAMDecisions(t *testing.T) {
	f := newIAMFixture(t)
	for _, op := range iamOps() {
		t.Run(op.name, func(t *testing.T) {
			noAllow := func(action string) string {
				return "because no identity-based policy allows the dynamodb:" + action + " action"
			}
			f.setPolicies(t, policy(allowOn("dynamodb:"+op.action, "")))
			require.NoError(t, op.run(f.a, "TENANT#A"), "allowed")

			f.setPolicies(t, policy(allowOn("dynamodb:DescribeTable", "")))
			requireDenied(t, op.run(f.a, "TENANT#A"), op.action, op.resource, noAllow(op.action))

			f.setPolicies(t, policy(`{"Effect":"Allow","Action":"dynamodb:*","Resource":"*"}`,
				`{"Effect":"Deny","Action":"dynamodb:`+op.action+`","Resource":"*"}`))
			requireDenied(t, op.run(f.a, "TENANT#A"), op.action, op.resource, "with an explicit deny in an identity-based policy")

			f.setPolicies(t)
			requireDenied(t, op.run(f.a, "TENANT#A"), op.action, op.resource, noAllow(op.action))

			require.NoError(t, op.run(f.root, "TENANT#R"), "a key without an identity is not evaluated")
		})
	}
}

// tenantPolicy allows every data-plane action on T when every partition
// key the request names is the caller's tenant's.
var tenantPolicy = policy(allowOn("dynamodb:*", `{"ForAllValues:StringLike":{"dynamodb:LeadingKeys":["TENANT#${aws:PrincipalTag/tenant}"]}}`))

// TestIAMLeadingKeys: a LeadingKeys policy lets each operation reach the
// caller's tenant's partition and no other; a Scan names no partition
// key, so ForAllValues holds for it, as on AWS.
func TestIAMLeadingKeys(t *testing.T) {
	f := newIAMFixture(t)
	f.setPolicies(t, tenantPolicy)
	for _, op := range iamOps() {
		t.Run(op.name, func(t *testing.T) {
			require.NoError(t, op.run(f.a, "TENANT#A"), "own tenant")
			err := op.run(f.a, "TENANT#B")
			if strings.HasPrefix(op.name, "Scan") {
				require.NoError(t, err, "a Scan has no leading keys")
				return
			}
			requireDenied(t, err, op.action, op.resource, "because no identity-based policy allows the dynamodb:"+op.action+" action")
		})
	}
}

// TestIAMBatchDeniedWhole: one item of another tenant in a batch or a
// transaction denies the whole request, and nothing of it is written
// (AWS answers the request AccessDeniedException, not UnprocessedItems
// or a cancellation: awslabs/amazon-dynamodb-tools issue 325 shows a
// BatchWriteItem failing whole for one denied key).
func TestIAMBatchDeniedWhole(t *testing.T) {
	f := newIAMFixture(t)
	f.setPolicies(t, tenantPolicy)
	tn := aws.String("Orders")
	_, err := f.a.BatchWriteItem(ctxBG, &dynamodb.BatchWriteItemInput{RequestItems: map[string][]types.WriteRequest{"Orders": {
		{PutRequest: &types.PutRequest{Item: iamItem("TENANT#A", "w1")}},
		{PutRequest: &types.PutRequest{Item: iamItem("TENANT#B", "w1")}},
	}}})
	requireDenied(t, err, "BatchWriteItem", iamTable, "because no identity-based policy allows the dynamodb:BatchWriteItem action")
	_, err = f.a.TransactWriteItems(ctxBG, &dynamodb.TransactWriteItemsInput{TransactItems: []types.TransactWriteItem{
		{Put: &types.Put{TableName: tn, Item: iamItem("TENANT#A", "w2")}},
		{Put: &types.Put{TableName: tn, Item: iamItem("TENANT#B", "w2")}},
	}})
	requireDenied(t, err, "PutItem", iamTable, "because no identity-based policy allows the dynamodb:PutItem action")
	_, err = f.a.BatchGetItem(ctxBG, &dynamodb.BatchGetItemInput{RequestItems: map[string]types.KeysAndAttributes{"Orders": {
		Keys: []map[string]types.AttributeValue{iamKey("TENANT#A"), iamKey("TENANT#B")}}}})
	requireDenied(t, err, "BatchGetItem", iamTable, "because no identity-based policy allows the dynamodb:BatchGetItem action")
	for _, sk := range []string{"w1", "w2"} {
		out, err := f.root.GetItem(ctxBG, &dynamodb.GetItemInput{TableName: tn, Key: map[string]types.AttributeValue{"pk": s("TENANT#A"), "sk": s(sk)}})
		require.NoError(t, err)
		require.Nil(t, out.Item, "the denied request wrote %s", sk)
	}
}

// TestIAMConditionKeys: each condition key with each operator, allowed
// and denied.
func TestIAMConditionKeys(t *testing.T) {
	f := newIAMFixture(t)
	tn := aws.String("Orders")
	getPK := func(pk string) func() error {
		return func() error {
			_, err := f.a.GetItem(ctxBG, &dynamodb.GetItemInput{TableName: tn, Key: iamKey(pk)})
			return err
		}
	}
	get := func(proj string) func() error {
		return func() error {
			in := &dynamodb.GetItemInput{TableName: tn, Key: iamKey("TENANT#A")}
			if proj != "" {
				in.ProjectionExpression = aws.String(proj)
			}
			_, err := f.a.GetItem(ctxBG, in)
			return err
		}
	}
	put := func(item map[string]types.AttributeValue, rv types.ReturnValue, rcc types.ReturnConsumedCapacity) func() error {
		return func() error {
			_, err := f.a.PutItem(ctxBG, &dynamodb.PutItemInput{TableName: tn, Item: item, ReturnValues: rv, ReturnConsumedCapacity: rcc})
			return err
		}
	}
	update := func(attr string) func() error {
		return func() error {
			_, err := f.a.UpdateItem(ctxBG, &dynamodb.UpdateItemInput{TableName: tn, Key: iamKey("TENANT#A"),
				UpdateExpression: aws.String("SET #a = :v"), ExpressionAttributeNames: map[string]string{"#a": attr},
				ExpressionAttributeValues: map[string]types.AttributeValue{":v": s("u")}})
			return err
		}
	}
	query := func(sel types.Select, proj string) func() error {
		return func() error {
			in := &dynamodb.QueryInput{TableName: tn, KeyConditionExpression: aws.String("pk = :p"), Select: sel,
				ExpressionAttributeValues: map[string]types.AttributeValue{":p": s("TENANT#A")}}
			if proj != "" {
				in.ProjectionExpression = aws.String(proj)
			}
			_, err := f.a.Query(ctxBG, in)
			return err
		}
	}
	small := map[string]types.AttributeValue{"pk": s("TENANT#A"), "sk": s("c"), "title": s("n")}
	allowAll := `{"Effect":"Allow","Action":"dynamodb:*","Resource":"*"}`
	cases := []struct {
		name     string
		policy   string
		run      func() error
		action   string
		explicit bool // denied by an explicit Deny
		allowed  bool
	}{
		{"Attributes ForAllValues:StringEquals in", policy(allowOn("dynamodb:GetItem", `{"ForAllValues:StringEquals":{"dynamodb:Attributes":["pk","sk","title"]}}`)), get("title"), "GetItem", false, true},
		{"Attributes ForAllValues:StringEquals out", policy(allowOn("dynamodb:GetItem", `{"ForAllValues:StringEquals":{"dynamodb:Attributes":["pk","sk","title"]}}`)), get("title, secret"), "GetItem", false, false},
		{"Attributes put in", policy(allowOn("dynamodb:PutItem", `{"ForAllValues:StringEquals":{"dynamodb:Attributes":["pk","sk","title"]}}`)), put(small, "", ""), "PutItem", false, true},
		{"Attributes put out", policy(allowOn("dynamodb:PutItem", `{"ForAllValues:StringEquals":{"dynamodb:Attributes":["pk","sk","title"]}}`)), put(iamItem("TENANT#A", "c"), "", ""), "PutItem", false, false},
		{"Attributes update in", policy(allowOn("dynamodb:UpdateItem", `{"ForAllValues:StringEquals":{"dynamodb:Attributes":["pk","sk","title"]}}`)), update("title"), "UpdateItem", false, true},
		{"Attributes update out", policy(allowOn("dynamodb:UpdateItem", `{"ForAllValues:StringEquals":{"dynamodb:Attributes":["pk","sk","title"]}}`)), update("secret"), "UpdateItem", false, false},
		{"Attributes ForAllValues:StringLike", policy(allowOn("dynamodb:GetItem", `{"ForAllValues:StringLike":{"dynamodb:Attributes":["t*","p*"]}}`)), get("title, pk"), "GetItem", false, true},
		{"Attributes ForAnyValue:StringEquals deny", policy(allowAll, `{"Effect":"Deny","Action":"dynamodb:GetItem","Resource":"*","Condition":{"ForAnyValue:StringEquals":{"dynamodb:Attributes":["secret"]}}}`), get("title, secret"), "GetItem", true, false},
		{"Attributes ForAnyValue:StringLike no hit", policy(allowAll, `{"Effect":"Deny","Action":"dynamodb:GetItem","Resource":"*","Condition":{"ForAnyValue:StringLike":{"dynamodb:Attributes":["sec*"]}}}`), get("title"), "GetItem", true, true},
		// A whole-item read names every attribute: the key is present.
		{"Attributes Null true: a whole-item read names every attribute", policy(allowAll, `{"Effect":"Deny","Action":"dynamodb:GetItem","Resource":"*","Condition":{"Null":{"dynamodb:Attributes":"true"}}}`), get(""), "GetItem", true, true},
		{"Attributes Null false denies whole items", policy(allowAll, `{"Effect":"Deny","Action":"dynamodb:GetItem","Resource":"*","Condition":{"Null":{"dynamodb:Attributes":"false"}}}`), get(""), "GetItem", true, false},
		{"Attributes Null true with projection", policy(allowAll, `{"Effect":"Deny","Action":"dynamodb:GetItem","Resource":"*","Condition":{"Null":{"dynamodb:Attributes":"true"}}}`), get("title"), "GetItem", true, true},
		{"Select StringEquals COUNT", policy(allowOn("dynamodb:Query", `{"StringEquals":{"dynamodb:Select":"COUNT"}}`)), query("COUNT", ""), "Query", false, true},
		{"Select StringEquals other", policy(allowOn("dynamodb:Query", `{"StringEquals":{"dynamodb:Select":"COUNT"}}`)), query("ALL_ATTRIBUTES", ""), "Query", false, false},
		// A Query without Select or a projection is ALL_ATTRIBUTES.
		{"Select defaults to ALL_ATTRIBUTES", policy(allowOn("dynamodb:Query", `{"StringEqualsIfExists":{"dynamodb:Select":"SPECIFIC_ATTRIBUTES"}}`)), query("", ""), "Query", false, false},
		{"Select default ALL_ATTRIBUTES", policy(allowOn("dynamodb:Query", `{"StringEquals":{"dynamodb:Select":"ALL_ATTRIBUTES"}}`)), query("", ""), "Query", false, true},
		{"Select projection is SPECIFIC_ATTRIBUTES", policy(allowOn("dynamodb:Query", `{"StringEquals":{"dynamodb:Select":"SPECIFIC_ATTRIBUTES"}}`)), query("", "title"), "Query", false, true},
		{"ReturnValues IfExists absent", policy(allowOn("dynamodb:PutItem", `{"StringEqualsIfExists":{"dynamodb:ReturnValues":["NONE"]}}`)), put(small, "", ""), "PutItem", false, true},
		{"ReturnValues IfExists other", policy(allowOn("dynamodb:PutItem", `{"StringEqualsIfExists":{"dynamodb:ReturnValues":["NONE"]}}`)), put(small, "ALL_OLD", ""), "PutItem", false, false},
		{"ReturnValues StringNotEquals deny", policy(allowAll, `{"Effect":"Deny","Action":"dynamodb:PutItem","Resource":"*","Condition":{"StringLike":{"dynamodb:ReturnValues":"ALL_*"}}}`), put(small, "ALL_OLD", ""), "PutItem", true, false},
		{"ReturnConsumedCapacity StringEquals", policy(allowOn("dynamodb:PutItem", `{"StringEquals":{"dynamodb:ReturnConsumedCapacity":"TOTAL"}}`)), put(small, "", "TOTAL"), "PutItem", false, true},
		{"ReturnConsumedCapacity StringEquals absent", policy(allowOn("dynamodb:PutItem", `{"StringEquals":{"dynamodb:ReturnConsumedCapacity":"TOTAL"}}`)), put(small, "", ""), "PutItem", false, false},
		{"ReturnConsumedCapacity Null false", policy(allowOn("dynamodb:PutItem", `{"Null":{"dynamodb:ReturnConsumedCapacity":"false"}}`)), put(small, "", "INDEXES"), "PutItem", false, true},
		{"LeadingKeys StringEquals userid", policy(allowOn("dynamodb:GetItem", `{"ForAllValues:StringEquals":{"dynamodb:LeadingKeys":["${aws:userid}"]}}`)), get(""), "GetItem", false, false},
		{"LeadingKeys ForAnyValue:StringLike username", policy(allowOn("dynamodb:GetItem", `{"ForAnyValue:StringLike":{"dynamodb:LeadingKeys":["*${aws:username}*"]}}`)), get(""), "GetItem", false, false},
		{"LeadingKeys StringEquals userid own", policy(allowOn("dynamodb:GetItem", `{"ForAllValues:StringEquals":{"dynamodb:LeadingKeys":["${aws:userid}"]}}`)), getPK(iamTenantA), "GetItem", false, true},
		{"LeadingKeys ForAnyValue:StringLike username own", policy(allowOn("dynamodb:GetItem", `{"ForAnyValue:StringLike":{"dynamodb:LeadingKeys":["user#${aws:username}"]}}`)), getPK("user#tenant-a"), "GetItem", false, true},
		{"LeadingKeys StringLike tag other", policy(allowOn("dynamodb:GetItem", `{"StringLike":{"dynamodb:LeadingKeys":"TENANT#${aws:PrincipalTag/tenant}"}}`)), getPK("TENANT#B"), "GetItem", false, false},
		{"aws:PrincipalTag StringEquals", policy(allowOn("dynamodb:GetItem", `{"StringEquals":{"aws:PrincipalTag/tenant":"A","aws:username":"tenant-a"}}`)), get(""), "GetItem", false, true},
		{"aws:PrincipalTag StringEquals other", policy(allowOn("dynamodb:GetItem", `{"StringEquals":{"aws:PrincipalTag/tenant":"B"}}`)), get(""), "GetItem", false, false},
		{"LeadingKeys StringLike tag", policy(allowOn("dynamodb:GetItem", `{"StringLike":{"dynamodb:LeadingKeys":"TENANT#${aws:PrincipalTag/tenant}"}}`)), get(""), "GetItem", false, true},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			f.setPolicies(t, tc.policy)
			err := tc.run()
			if tc.allowed {
				require.NoError(t, err)
				return
			}
			reason := "because no identity-based policy allows the dynamodb:" + tc.action + " action"
			if tc.explicit {
				reason = "with an explicit deny in an identity-based policy"
			}
			requireDenied(t, err, tc.action, iamTable, reason)
		})
	}
}

// TestIAMResourcePolicy: a table's resource-based policy
// (PutResourcePolicy) allows a principal with no identity policy, and
// its explicit Deny wins over the identity's Allow.
func TestIAMResourcePolicy(t *testing.T) {
	f := newIAMFixture(t)
	get := func() error {
		_, err := f.a.GetItem(ctxBG, &dynamodb.GetItemInput{TableName: aws.String("Orders"), Key: iamKey("TENANT#A")})
		return err
	}
	put := func(doc string) {
		_, err := f.root.PutResourcePolicy(ctxBG, &dynamodb.PutResourcePolicyInput{ResourceArn: aws.String(iamTable), Policy: aws.String(doc)})
		require.NoError(t, err)
	}
	f.setPolicies(t)
	requireDenied(t, get(), "GetItem", iamTable, "because no identity-based policy allows the dynamodb:GetItem action")
	put(policy(`{"Effect":"Allow","Principal":{"AWS":"` + iamUserA + `"},"Action":"dynamodb:GetItem","Resource":"` + iamTable + `"}`))
	require.NoError(t, get(), "the resource policy allows tenant A")

	f.setPolicies(t, policy(`{"Effect":"Allow","Action":"dynamodb:*","Resource":"*"}`))
	put(policy(`{"Effect":"Deny","Principal":{"AWS":"` + iamUserA + `"},"Action":"dynamodb:GetItem","Resource":"` + iamTable + `"}`))
	requireDenied(t, get(), "GetItem", iamTable, "with an explicit deny in a resource-based policy")
	_, err := f.b.GetItem(ctxBG, &dynamodb.GetItemInput{TableName: aws.String("Orders"), Key: iamKey("TENANT#B")})
	requireDeniedFor(t, err, iamUserB, "GetItem")
}

// requireDeniedFor checks an implicit denial of user for action on T.
func requireDeniedFor(t *testing.T, err error, user, action string) {
	t.Helper()
	var ae smithy.APIError
	require.True(t, errors.As(err, &ae), "got %v", err)
	require.Equal(t, "User: "+user+" is not authorized to perform: dynamodb:"+action+" on resource: "+iamTable+
		" because no identity-based policy allows the dynamodb:"+action+" action", ae.ErrorMessage())
}

// TestIAMOptions: the policy mode needs Credentials, known keys and
// policies that parse; SetIAMPolicies needs the mode on.
func TestIAMOptions(t *testing.T) {
	opts := iamOptions(`{"Statement":[{"Effect":"Allow","Action":"*","Resource":"*","Condition":{"NumericLessThan":{"k":"1"}}}]}`)
	require.ErrorContains(t, opts.Validate(), "policy 1")
	opts = iamOptions()
	opts.Credentials = nil
	require.ErrorContains(t, opts.Validate(), "needs Credentials")
	opts = iamOptions()
	opts.IAM.Identities[0].AccessKeyID = "UNKNOWN"
	require.ErrorContains(t, opts.Validate(), "not one of the credentials")
	opts = iamOptions()
	opts.IAM.Identities[0].ARN = "alice"
	require.ErrorContains(t, opts.Validate(), "not an IAM or STS ARN")
	require.ErrorIs(t, newTestEmulator(t, Options{}).SetIAMPolicies(&IAMPolicies{}), ErrIAMOff)

	p, err := ParseIAMPolicies([]byte(`{"identities":[{"accessKeyId":"K","arn":"arn:aws:iam::000000000000:user/k","tags":{"tenant":"A"},"policies":[{"Statement":[]}]}]}`))
	require.NoError(t, err)
	require.Equal(t, "K", p.Identities[0].AccessKeyID)
	_, err = ParseIAMPolicies([]byte(`{"identities":[],"extra":1}`))
	require.Error(t, err)
}

// TestIAMAdmin: GET and PUT adminpath.IAM with an admin token or a key
// without an identity; a key with an identity may not change them; the
// identities put decide the next requests.
func TestIAMAdmin(t *testing.T) {
	opts := iamOptions()
	opts.AdminTokens = []string{"token-0123456789abcdef"}
	e := newIAMEmulator(t, opts)
	_, addr := startServer(t, e, ServerOptions{})
	send := func(method, auth, key, body string) (int, string) {
		req, err := http.NewRequest(method, "http://"+addr+adminpath.IAM, strings.NewReader(body))
		require.NoError(t, err)
		if body != "" {
			req.Header.Set("Content-Type", "application/json")
		}
		if auth != "" {
			req.Header.Set("Authorization", auth)
		} else {
			sum := sha256.Sum256([]byte(body))
			require.NoError(t, v4.NewSigner().SignHTTP(ctxBG, aws.Credentials{AccessKeyID: key, SecretAccessKey: iamSecret},
				req, hex.EncodeToString(sum[:]), "dynamodb", iamRegion, time.Now()))
		}
		res, err := http.DefaultClient.Do(req)
		require.NoError(t, err)
		defer res.Body.Close()
		b, err := io.ReadAll(res.Body)
		require.NoError(t, err)
		return res.StatusCode, string(b)
	}
	token := "Bearer token-0123456789abcdef"
	status, body := send("GET", token, "", "")
	require.Equal(t, 200, status, body)
	require.Contains(t, body, iamUserA)

	doc := `{"identities":[{"accessKeyId":"` + iamTenantA + `","arn":"` + iamUserA + `","policies":[` +
		policy(`{"Effect":"Allow","Action":"dynamodb:ListTables","Resource":"*"}`) + `]}]}`
	status, body = send("PUT", "", iamTenantA, doc)
	require.Equal(t, 400, status, body)
	require.Contains(t, body, "AccessDeniedException")
	status, body = send("PUT", "", iamRoot, doc)
	require.Equal(t, 200, status, body)
	status, body = send("PUT", token, "", `{"identities":[{"accessKeyId":"NOPE","arn":"`+iamUserA+`"}]}`)
	require.Equal(t, 400, status, body)
	require.Contains(t, body, "not one of the credentials")

	// Tenant B has no identity any more: the root's rights.
	_, err := iamClient(addr, iamTenantB).ListTables(ctxBG, &dynamodb.ListTablesInput{})
	require.NoError(t, err)
	status, body = send("GET", "", iamTenantB, "")
	require.Equal(t, 200, status, body)
	require.NotContains(t, body, iamUserB)
}

// FuzzParseIAMPolicies: any file either fails to parse or validate, or
// makes an emulator; never a panic.
func FuzzParseIAMPolicies(f *testing.F) {
	f.Add([]byte(`{"identities":[{"accessKeyId":"` + iamTenantA + `","arn":"` + iamUserA + `","tags":{"tenant":"A"},"policies":[` + tenantPolicy + `]}]}`))
	f.Add([]byte(`{"identities":[{"accessKeyId":"` + iamTenantB + `","arn":"arn:aws:sts::000000000000:assumed-role/r/s","policies":[{"Statement":{"Effect":"Deny","NotAction":"*","NotResource":"*"}}]}]}`))
	f.Add([]byte(`{"identities":null}`))
	f.Add([]byte(`[]`))
	f.Fuzz(func(t *testing.T, data []byte) {
		p, err := ParseIAMPolicies(data)
		if err != nil {
			return
		}
		opts := iamOptions()
		opts.IAM = p
		if opts.Validate() != nil {
			return
		}
		e, err := New(opts)
		if err != nil {
			t.Fatalf("validated options New refuses: %v", err)
		}
		e.Close()
	})
}
