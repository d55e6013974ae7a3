package emulator

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	v4 "github.com/aws/aws-sdk-go-v2/aws/signer/v4"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/aws/smithy-go"
	"github.com/stretchr/testify/require"

	"github.com/dynamoemu/dynamoemu/internal/adminpath"
)

// The admin endpoints under the IAM policy mode (admin_iam.go): every
// admin row of the endpoints table, walked from the table itself, is
// refused to a tenant key that docs/iam.md's tenant policy limits to its
// partitions, and allowed once its action is granted; the issue's
// cross-tenant reproductions are refused.

// adminIAMToken is the admin token of these tests.
const adminIAMToken = "token-0123456789abcdef"

// docsTenantPolicy is docs/iam.md's tenant policy ("Turning it on" and
// the two-tenant example), on the table Orders: the tenant's partitions
// and the common tenant's, never a Scan.
const docsTenantPolicy = `{"Version":"2012-10-17","Statement":[{"Effect":"Allow",
 "Action":["dynamodb:GetItem","dynamodb:PutItem","dynamodb:UpdateItem","dynamodb:DeleteItem","dynamodb:Query",
  "dynamodb:BatchGetItem","dynamodb:BatchWriteItem","dynamodb:ConditionCheckItem"],
 "Resource":"arn:aws:dynamodb:*:*:table/Orders",
 "Condition":{"ForAllValues:StringLike":{"dynamodb:LeadingKeys":["*#${aws:PrincipalTag/tenant}","*#common"]}}}]}`

// tenantIdentities gives tenants A and B the tenant policy, and A the
// policies grants too.
func tenantIdentities(grants ...string) *IAMPolicies {
	a := []json.RawMessage{json.RawMessage(docsTenantPolicy)}
	for _, g := range grants {
		a = append(a, json.RawMessage(g))
	}
	return &IAMPolicies{Identities: []IAMIdentity{
		{AccessKeyID: iamTenantA, ARN: iamUserA, Tags: map[string]string{"tenant": "A"}, Policies: a},
		{AccessKeyID: iamTenantB, ARN: iamUserB, Tags: map[string]string{"tenant": "B"}, Policies: []json.RawMessage{json.RawMessage(docsTenantPolicy)}},
	}}
}

// newAdminIAMServer is a running emulator in the policy mode with every
// handler a row may serve (routeOptions' stand-ins), the root, tenant
// keys A and B and an admin token, and the table Orders (pk, sk; TTL on
// exp) holding B's item TENANT#B/1 (v "1", expiring in 30 days).
func newAdminIAMServer(t *testing.T) (*Emulator, string) {
	t.Helper()
	opts := routeOptions(false)
	base := iamOptions()
	opts.Credentials, opts.IAM, opts.AdminTokens = base.Credentials, tenantIdentities(), []string{adminIAMToken}
	e := newIAMEmulator(t, opts)
	_, addr := startServer(t, e, ServerOptions{})
	root := iamClient(addr, iamRoot)
	_, err := root.CreateTable(ctxBG, &dynamodb.CreateTableInput{TableName: aws.String("Orders"), BillingMode: "PAY_PER_REQUEST",
		AttributeDefinitions: []types.AttributeDefinition{{AttributeName: aws.String("pk"), AttributeType: "S"}, {AttributeName: aws.String("sk"), AttributeType: "S"}},
		KeySchema:            []types.KeySchemaElement{{AttributeName: aws.String("pk"), KeyType: "HASH"}, {AttributeName: aws.String("sk"), KeyType: "RANGE"}}})
	require.NoError(t, err)
	_, err = root.UpdateTimeToLive(ctxBG, &dynamodb.UpdateTimeToLiveInput{TableName: aws.String("Orders"),
		TimeToLiveSpecification: &types.TimeToLiveSpecification{AttributeName: aws.String("exp"), Enabled: aws.Bool(true)}})
	require.NoError(t, err)
	exp := e.Clock().Now().Add(30 * 24 * time.Hour).Unix()
	_, err = iamClient(addr, iamTenantB).PutItem(ctxBG, &dynamodb.PutItemInput{TableName: aws.String("Orders"),
		Item: map[string]types.AttributeValue{"pk": s("TENANT#B"), "sk": s("1"), "v": s("1"),
			"exp": &types.AttributeValueMemberN{Value: strconv.FormatInt(exp, 10)}}})
	require.NoError(t, err)
	return e, addr
}

// adminCall sends method path with body to the server at addr, signed
// by key (as a SigV4 client signs for dynamodb), or with the admin token
// when key is "".
func adminCall(t *testing.T, addr, key, method, path, body string) routeAnswer {
	t.Helper()
	req, err := http.NewRequest(method, "http://"+addr+path, strings.NewReader(body))
	require.NoError(t, err)
	if body == "" {
		req.Body, req.ContentLength = http.NoBody, 0
	}
	if method != http.MethodGet && method != http.MethodHead {
		req.Header.Set("Content-Type", "application/json")
	}
	if key == "" {
		req.Header.Set("Authorization", "Bearer "+adminIAMToken)
	} else {
		sum := sha256.Sum256([]byte(body))
		require.NoError(t, v4.NewSigner().SignHTTP(context.Background(), aws.Credentials{AccessKeyID: key, SecretAccessKey: iamSecret},
			req, hex.EncodeToString(sum[:]), "dynamodb", iamRegion, time.Now()))
	}
	res, err := http.DefaultClient.Do(req)
	require.NoError(t, err)
	defer res.Body.Close()
	b, err := io.ReadAll(res.Body)
	require.NoError(t, err)
	a := routeAnswer{status: res.StatusCode, typ: res.Header.Get("X-Amzn-ErrorType"), body: string(b)}
	var v struct {
		Type    string `json:"__type"`
		Message string `json:"message"`
	}
	if json.Unmarshal(b, &v) == nil && v.Type != "" {
		a.typ = v.Type[strings.LastIndexByte(v.Type, '#')+1:]
	}
	return a
}

// adminDenial is IAM's message for tenant A refused action on resource
// for want of a grant.
func adminDenial(action, resource string) string {
	return "User: " + iamUserA + " is not authorized to perform: dynamoemu:" + action + " on resource: " + resource +
		" because no identity-based policy allows the dynamoemu:" + action + " action"
}

// requireAdminDenied: a is the AccessDeniedException of tenant A refused
// action, its resource matching resource (a regular expression).
func requireAdminDenied(t *testing.T, a routeAnswer, action, resource string) {
	t.Helper()
	require.Equal(t, http.StatusBadRequest, a.status, a.body)
	require.Equal(t, "AccessDeniedException", a.typ, a.body)
	var v struct{ Message string }
	require.NoError(t, json.Unmarshal([]byte(a.body), &v))
	want := "^" + regexp.QuoteMeta(adminDenial(action, "RESOURCE")) + "$"
	want = strings.Replace(want, "RESOURCE", resource, 1)
	require.Regexp(t, want, v.Message)
}

// documentedAction is a row of docs/iam.md's table of admin actions.
type documentedAction struct{ request, resource string }

// adminActionsDocumented reads docs/iam.md's table of admin actions, by
// action (without its dynamoemu: prefix).
func adminActionsDocumented(t *testing.T) map[string]documentedAction {
	t.Helper()
	doc, err := os.ReadFile("../docs/iam.md")
	require.NoError(t, err)
	row := regexp.MustCompile("^\\| `dynamoemu:(\\w+)` \\| `([^`]+)` \\| (.+) \\|$")
	out := map[string]documentedAction{}
	for _, line := range strings.Split(string(doc), "\n") {
		if m := row.FindStringSubmatch(line); m != nil {
			require.NotContains(t, out, m[1], "docs/iam.md lists dynamoemu:%s twice", m[1])
			out[m[1]] = documentedAction{request: m[2], resource: m[3]}
		}
	}
	return out
}

// documentedResource is the resource docs/iam.md gives for a row, as a
// regular expression for the sample request (routeSample): an ARN with
// REGION the test's region and {var} the sample's "x"; a table's ARN for
// a resource the docs describe in words (a body's tables).
func documentedResource(doc string) string {
	if arn, ok := strings.CutPrefix(doc, "`"); ok && strings.HasSuffix(arn, "`") {
		arn = strings.TrimSuffix(arn, "`")
		arn = strings.ReplaceAll(arn, "REGION", iamRegion)
		arn = regexp.MustCompile(`\{[^}]*\}`).ReplaceAllString(arn, "x")
		return regexp.QuoteMeta(arn)
	}
	return regexp.QuoteMeta("arn:aws:dynamodb:"+iamRegion+":000000000000:table/") + `\S+`
}

// TestAdminEndpointsUnderIAM walks every row of the emulator's own
// endpoints (routes.go's table, so a new row is walked too): an admin
// row names an action that docs/iam.md lists with its request and
// resource; a tenant key limited to its partitions by docs/iam.md's
// tenant policy is refused it with IAM's AccessDeniedException naming
// that action and resource, and nothing changes; granted the action, it
// passes. A row without an action serves nothing but an error, to the
// admin token too. The MCP endpoint refuses the key (its own token), the
// origin-checked rows need no key (routes_test.go). Each refusal is one
// subtest.
func TestAdminEndpointsUnderIAM(t *testing.T) {
	e, addr := newAdminIAMServer(t)
	docs := adminActionsDocumented(t)
	rows := ownEndpoints()
	body := func(method string) string {
		if method == http.MethodPost || method == http.MethodPut {
			return "{}"
		}
		return ""
	}
	state := func() string {
		var b strings.Builder
		for _, p := range []string{adminpath.Snapshots, adminpath.Branches, adminpath.Faults, adminpath.Lag, adminpath.IAM} {
			b.WriteString(p + ": " + adminCall(t, addr, "", http.MethodGet, p, "").body + "\n")
		}
		b.WriteString(fmt.Sprint("clock offset: ", time.Until(e.Clock().Now()).Round(time.Hour)))
		return b.String()
	}
	before := state()
	listed := map[string]bool{}
	for i := range rows {
		row := &rows[i]
		method, path := routeSample(row)
		t.Run("refused "+rowName(row), func(t *testing.T) {
			tenant := adminCall(t, addr, iamTenantA, method, path, body(method))
			switch {
			case row.guard == guardOrigin || row.guard == guardNone:
				require.NotEmpty(t, row.why, "no credentials, and no reason")
			case row.guard == guardMCP:
				require.Equal(t, http.StatusUnauthorized, tenant.status, "a tenant's key on the MCP endpoint: %s", tenant.body)
			case row.guard != guardAdmin:
				t.Fatalf("guard %q", row.guard)
			case row.action == "":
				require.Nil(t, row.resource, "a resource and no action")
				op := adminCall(t, addr, "", method, path, body(method))
				require.Contains(t, []int{http.StatusNotFound, http.StatusMethodNotAllowed}, op.status,
					"a row without an action serves the admin token: give it an action (routes.go) and list it in docs/iam.md")
				require.Equal(t, op.status, tenant.status, tenant.body)
			default:
				require.NotNil(t, row.resource, "an action and no resource")
				doc, ok := docs[row.action]
				require.True(t, ok, "docs/iam.md lists no dynamoemu:%s", row.action)
				listed[row.action] = true
				require.Equal(t, method+" "+row.path, doc.request, "docs/iam.md's request of dynamoemu:%s", row.action)
				requireAdminDenied(t, tenant, row.action, documentedResource(doc.resource))
			}
		})
	}
	require.Equal(t, before, state(), "a refused request changed something")
	for action := range docs {
		require.True(t, listed[action], "docs/iam.md lists dynamoemu:%s, which no row has", action)
	}

	for i := range rows {
		row := &rows[i]
		if row.guard != guardAdmin || row.action == "" {
			continue
		}
		method, path := routeSample(row)
		t.Run("granted "+rowName(row), func(t *testing.T) {
			grant := policy(`{"Effect":"Allow","Action":"dynamoemu:` + row.action + `","Resource":"*"}`)
			require.NoError(t, e.SetIAMPolicies(tenantIdentities(grant)))
			t.Cleanup(func() { require.NoError(t, e.SetIAMPolicies(tenantIdentities())) })
			a := adminCall(t, addr, iamTenantA, method, path, body(method))
			require.NotEqual(t, "AccessDeniedException", a.typ, a.body)
			require.NotContains(t, []int{http.StatusUnauthorized, http.StatusForbidden}, a.status, a.body)

			other := policy(`{"Effect":"Allow","Action":"dynamoemu:NotThis` + row.action + `","Resource":"*"}`)
			require.NoError(t, e.SetIAMPolicies(tenantIdentities(other)))
			requireAdminDenied(t, adminCall(t, addr, iamTenantA, method, path, body(method)), row.action, `\S+`)
		})
	}
}

// TestAdminTenantReproductions: keys A and B, each limited to its own
// partitions (docs/iam.md's tenant policy), as a hostile tenant would
// try: A may not take and restore a snapshot over B's writes, set a
// fault on B's reads, move the clock and sweep B's items away, or read
// every identity's policies; each refusal names its action; B's data is
// untouched. Granted, the same calls pass, a grant on one table does not
// reach another's faults, and the operator (a key without an identity,
// an admin token) keeps every endpoint.
func TestAdminTenantReproductions(t *testing.T) {
	e, addr := newAdminIAMServer(t)
	b := iamClient(addr, iamTenantB)
	readB := func() (string, error) {
		out, err := b.GetItem(ctxBG, &dynamodb.GetItemInput{TableName: aws.String("Orders"), Key: iamKey("TENANT#B")})
		if err != nil || out.Item == nil {
			return "", err
		}
		return out.Item["v"].(*types.AttributeValueMemberS).Value, nil
	}
	writeB := func(v string) {
		_, err := b.UpdateItem(ctxBG, &dynamodb.UpdateItemInput{TableName: aws.String("Orders"), Key: iamKey("TENANT#B"),
			UpdateExpression: aws.String("SET v = :v"), ExpressionAttributeValues: map[string]types.AttributeValue{":v": s(v)}})
		require.NoError(t, err)
	}
	const region = "arn:aws:dynamoemu:us-east-1:000000000000:"
	allTablesARN := regexp.QuoteMeta("arn:aws:dynamodb:us-east-1:000000000000:table/*")

	// T1 snapshot, T2 writes v2, T1 restore.
	requireAdminDenied(t, adminCall(t, addr, iamTenantA, "POST", adminpath.Snapshots, "{}"), "CreateSnapshot", regexp.QuoteMeta(region+"snapshot/*"))
	snap := adminCall(t, addr, iamRoot, "POST", adminpath.Snapshots, "{}")
	require.Equal(t, http.StatusOK, snap.status, snap.body)
	var taken struct{ ID string }
	require.NoError(t, json.Unmarshal([]byte(snap.body), &taken))
	writeB("2")
	restore := adminpath.Snapshots + "/" + taken.ID + "/restore"
	requireAdminDenied(t, adminCall(t, addr, iamTenantA, "POST", restore, "{}"), "RestoreSnapshot", regexp.QuoteMeta(region+"snapshot/"+taken.ID))
	v, err := readB()
	require.NoError(t, err)
	require.Equal(t, "2", v, "B's write survives A's restore")

	// T1 sets a fault on GetItem of the table.
	fault := `{"rules":[{"table":"Orders","operations":["GetItem"],"fault":"InternalServerError"}]}`
	requireAdminDenied(t, adminCall(t, addr, iamTenantA, "PUT", adminpath.Faults, fault), "PutFaults",
		regexp.QuoteMeta("arn:aws:dynamodb:us-east-1:000000000000:table/Orders"))
	_, err = readB()
	require.NoError(t, err, "B's GetItem meets no fault")

	// T1 moves the clock 60 days and sweeps TTL.
	now := e.Clock().Now()
	requireAdminDenied(t, adminCall(t, addr, iamTenantA, "POST", adminpath.Clock, `{"advance":"1440h"}`), "SetClock", regexp.QuoteMeta(region+"clock"))
	requireAdminDenied(t, adminCall(t, addr, iamTenantA, "POST", adminpath.Sweep, "{}"), "SweepTimeToLive", allTablesARN)
	require.WithinDuration(t, now, e.Clock().Now(), time.Hour, "the clock did not move 60 days")
	v, err = readB()
	require.NoError(t, err)
	require.Equal(t, "2", v, "B's item is not swept")

	// T1 reads every identity's policy.
	iamAns := adminCall(t, addr, iamTenantA, "GET", adminpath.IAM, "")
	requireAdminDenied(t, iamAns, "GetIAMPolicies", regexp.QuoteMeta(region+"iam"))
	require.NotContains(t, iamAns.body, iamUserB)

	// The operator keeps every endpoint: a token reads the identities.
	got := adminCall(t, addr, "", "GET", adminpath.IAM, "")
	require.Equal(t, http.StatusOK, got.status, got.body)
	require.Contains(t, got.body, iamUserB)

	// Granted, A's calls pass.
	require.NoError(t, e.SetIAMPolicies(tenantIdentities(policy(
		`{"Effect":"Allow","Action":["dynamoemu:CreateSnapshot","dynamoemu:RestoreSnapshot"],"Resource":"arn:aws:dynamoemu:*:*:snapshot/*"}`,
		`{"Effect":"Allow","Action":"dynamoemu:PutFaults","Resource":"arn:aws:dynamodb:*:*:table/Other"}`,
		`{"Effect":"Allow","Action":"dynamoemu:GetIAMPolicies","Resource":"arn:aws:dynamoemu:*:*:iam"}`))))
	snap = adminCall(t, addr, iamTenantA, "POST", adminpath.Snapshots, "{}")
	require.Equal(t, http.StatusOK, snap.status, snap.body)
	require.NoError(t, json.Unmarshal([]byte(snap.body), &taken))
	writeB("3")
	ok := adminCall(t, addr, iamTenantA, "POST", adminpath.Snapshots+"/"+taken.ID+"/restore", "{}")
	require.Equal(t, http.StatusOK, ok.status, ok.body)
	v, err = readB()
	require.NoError(t, err)
	require.Equal(t, "2", v, "a granted restore restores")
	got = adminCall(t, addr, iamTenantA, "GET", adminpath.IAM, "")
	require.Equal(t, http.StatusOK, got.status, got.body)

	// A grant on table Other sets Other's faults, not Orders'.
	requireAdminDenied(t, adminCall(t, addr, iamTenantA, "PUT", adminpath.Faults, fault), "PutFaults",
		regexp.QuoteMeta("arn:aws:dynamodb:us-east-1:000000000000:table/Orders"))
	other := `{"rules":[{"table":"Other","operations":["GetItem"],"fault":"InternalServerError"}]}`
	ok = adminCall(t, addr, iamTenantA, "PUT", adminpath.Faults, other)
	require.Equal(t, http.StatusOK, ok.status, ok.body)
	// Replacing Other's rule with one on every table acts on every table.
	everyTable := `{"rules":[{"operations":["GetItem"],"fault":"InternalServerError"}]}`
	requireAdminDenied(t, adminCall(t, addr, iamTenantA, "PUT", adminpath.Faults, everyTable), "PutFaults", allTablesARN)
	ok = adminCall(t, addr, iamRoot, "DELETE", adminpath.Faults, "")
	require.Equal(t, http.StatusOK, ok.status, ok.body)
}

// TestIAMPolicyVariablesAsIAM: policy variables resolve as IAM resolves
// them (IAM User Guide, "IAM policy elements: Variables and tags"): a
// role's session has no aws:username, so a Resource naming
// ${aws:username} matches nothing for it, while an IAM user's name
// matches; ${key, 'default'} stands for the default when the key is
// absent, and for the key's value when present.
func TestIAMPolicyVariablesAsIAM(t *testing.T) {
	f := newIAMFixture(t)
	get := func() error {
		_, err := f.a.GetItem(ctxBG, &dynamodb.GetItemInput{TableName: aws.String("Orders"), Key: iamKey("TENANT#A")})
		return err
	}
	set := func(arn string, tags map[string]string, doc string) {
		t.Helper()
		require.NoError(t, f.e.SetIAMPolicies(&IAMPolicies{Identities: []IAMIdentity{
			{AccessKeyID: iamTenantA, ARN: arn, Tags: tags, Policies: []json.RawMessage{json.RawMessage(doc)}}}}))
	}
	byName := policy(`{"Effect":"Allow","Action":"dynamodb:GetItem","Resource":"arn:aws:dynamodb:*:*:table/${aws:username}"}`)

	set("arn:aws:iam::000000000000:user/Orders", nil, byName)
	require.NoError(t, get(), "an IAM user's name is aws:username")
	for _, arn := range []string{"arn:aws:sts::000000000000:assumed-role/app-role/Orders", "arn:aws:sts::000000000000:federated-user/Orders"} {
		set(arn, nil, byName)
		var ae smithy.APIError
		require.ErrorAs(t, get(), &ae, arn)
		require.Equal(t, "AccessDeniedException", ae.ErrorCode(), arn)
	}

	byTeam := policy(`{"Effect":"Allow","Action":"dynamodb:GetItem","Resource":"arn:aws:dynamodb:*:*:table/${aws:PrincipalTag/team, 'Orders'}"}`)
	set(iamUserA, nil, byTeam)
	require.NoError(t, get(), "no team tag: the default names the table")
	set(iamUserA, map[string]string{"team": "Other"}, byTeam)
	require.Error(t, get(), "a team tag: its value, not the default")
	set(iamUserA, map[string]string{"team": "Orders"}, byTeam)
	require.NoError(t, get())
}
