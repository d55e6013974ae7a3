package iam

import (
	"testing"

	"github.com/dynamoemu/dynamoemu/emulator/internal/service"
	"github.com/dynamoemu/dynamoemu/internal/iampolicy"
	"github.com/dynamoemu/dynamoemu/internal/insights"
	"github.com/dynamoemu/dynamoemu/internal/partiql"
	"github.com/dynamoemu/dynamoemu/internal/storage"
	"github.com/stretchr/testify/require"
)

func TestActionOf(t *testing.T) {
	cases := []struct {
		op     string
		access insights.Access
		want   string
	}{
		{"GetItem", insights.Get, "GetItem"},
		{"Query", insights.Query, "Query"},
		{"BatchWriteItem", insights.Delete, "BatchWriteItem"},
		{"TransactGetItems", insights.Get, "GetItem"},
		{"TransactWriteItems", insights.Put, "PutItem"},
		{"TransactWriteItems", insights.Update, "UpdateItem"},
		{"TransactWriteItems", insights.Delete, "DeleteItem"},
		{"TransactWriteItems", insights.Get, "ConditionCheckItem"},
		{"ExecuteStatement", insights.Scan, "PartiQLSelect"},
		{"BatchExecuteStatement", insights.Put, "PartiQLInsert"},
		{"ExecuteTransaction", insights.Update, "PartiQLUpdate"},
		{"ExecuteTransaction", insights.Delete, "PartiQLDelete"},
	}
	for _, tc := range cases {
		require.Equal(t, tc.want, actionOf(tc.op, tc.access), "actionOf(%s, %v)", tc.op, tc.access)
	}
}

// TestAttrs: the names of projections, conditions, updates and items,
// each once, #placeholders resolved; function arguments and operands
// count.
func TestAttrs(t *testing.T) {
	str := func(s string) *string { return &s }
	names := map[string]string{"#t": "title", "#s": "secret"}
	var a attrs
	require.True(t, a.projection(str("#t, b.c, d[1]"), nil, names))
	require.Equal(t, []string{"title", "b", "d"}, a.list)

	a = attrs{}
	require.False(t, a.projection(nil, nil, names), "no projection")
	require.True(t, a.projection(nil, []string{"x", "y"}, names))
	require.Equal(t, []string{"x", "y"}, a.list)

	a = attrs{}
	a.condition("ConditionExpression", str("attribute_exists(#s) AND (size(l) > :n OR NOT c BETWEEN e AND :hi) AND f IN (:a, g)"), names)
	require.Equal(t, []string{"secret", "l", "c", "e", "f", "g"}, a.list)

	a = attrs{}
	a.update(str("SET #t = if_not_exists(#t, :d) + other, m = list_append(m, :l) REMOVE old ADD n :one DELETE s :x"), names)
	require.Equal(t, []string{"title", "other", "m", "old", "n", "s"}, a.list)

	a = attrs{}
	a.item(map[string]storage.Value{"pk": storage.S("1"), "b": storage.S("2")})
	require.Equal(t, []string{"b", "pk"}, a.list)
	a.condition("ConditionExpression", nil, names)
	a.update(nil, names)
	require.Equal(t, []string{"b", "pk"}, a.list, "no expression names nothing")
}

// TestPartiQLNames: a statement's names are its paths' first names.
func TestPartiQLNames(t *testing.T) {
	st, err := partiql.Parse(`UPDATE "T" SET a.b = c + 1, "d"[0] = ? REMOVE e WHERE pk = 'x' AND f > 3 RETURNING MODIFIED OLD *`)
	require.NoError(t, err)
	f := &useFacts{}
	u := st.(*partiql.Update)
	for _, act := range u.Actions {
		f.partiqlNames(act.Path)
		f.partiqlNames(act.Value)
	}
	f.partiqlNames(u.Where)
	require.Equal(t, []string{"a", "c", "d", "e", "pk", "f"}, f.a.list)
	require.Equal(t, "UPDATED_OLD", returning(u.Returning))
	require.Equal(t, "NONE", returning(nil))
	st, err = partiql.Parse(`DELETE FROM "T" WHERE pk = 'x' RETURNING ALL OLD *`)
	require.NoError(t, err)
	require.Equal(t, "ALL_OLD", returning(st.(*partiql.Delete).Returning))
}

func TestPrincipalType(t *testing.T) {
	require.Equal(t, "User", principalType("arn:aws:iam::000000000000:user/alice"))
	require.Equal(t, "AssumedRole", principalType("arn:aws:sts::000000000000:assumed-role/r/s"))
	require.Equal(t, "AssumedRole", principalType("arn:aws:iam::000000000000:role/r"))
	require.Equal(t, "FederatedUser", principalType("arn:aws:sts::000000000000:federated-user/f"))
	require.Equal(t, "Account", principalType("arn:aws:iam::000000000000:root"))
	require.Empty(t, principalType("alice"))
}

// TestCheckKeys: a policy naming a key the stage does not set is
// refused with the key's name, unless the identity gives it.
func TestCheckKeys(t *testing.T) {
	parse := func(cond string) *iampolicy.Policy {
		p, err := iampolicy.Parse([]byte(`{"Version":"2012-10-17","Statement":[{"Effect":"Allow","Action":"dynamodb:GetItem","Resource":"*","Condition":` + cond + `}]}`))
		require.NoError(t, err)
		return p
	}
	for _, ok := range []string{
		`{"ForAllValues:StringEquals":{"dynamodb:LeadingKeys":["${aws:username}"],"dynamodb:Attributes":["a"]}}`,
		`{"StringEqualsIfExists":{"dynamodb:Select":"SPECIFIC_ATTRIBUTES","dynamodb:ReturnValues":"NONE"}}`,
		`{"Bool":{"dynamodb:FullTableScan":"true","aws:SecureTransport":"true"}}`,
		`{"StringEquals":{"dynamodb:EnclosingOperation":"ExecuteTransaction","DynamoDB:ReturnConsumedCapacity":"NONE"}}`,
		`{"StringEquals":{"aws:ResourceTag/env":"staging","aws:PrincipalTag/team":"${aws:PrincipalTag/team}"}}`,
		`{"IpAddress":{"aws:SourceIp":"127.0.0.0/8"},"StringEquals":{"aws:RequestedRegion":"us-east-1","aws:PrincipalType":"User"}}`,
	} {
		require.NoError(t, CheckKeys(parse(ok), nil), ok)
	}
	require.ErrorContains(t, CheckKeys(parse(`{"StringEquals":{"aws:SourceVpce":"vpce-1"}}`), nil), `"aws:SourceVpce"`)
	require.ErrorContains(t, CheckKeys(parse(`{"StringEquals":{"aws:ResourceTag/":"x"}}`), nil), `"aws:ResourceTag/"`)
	guide := parse(`{"ForAllValues:StringEquals":{"dynamodb:LeadingKeys":["${www.amazon.com:user_id}"]}}`)
	require.ErrorContains(t, CheckKeys(guide, nil), `"www.amazon.com:user_id"`)
	require.NoError(t, CheckKeys(guide, map[string]string{"www.amazon.com:user_id": "amzn1.account.A"}))
	// Another service's key is absent from DynamoDB's requests, as on
	// AWS, and set by that service's decider.
	require.NoError(t, CheckKeys(parse(`{"StringEquals":{"lambda:FunctionArn":"arn:aws:lambda:us-east-1:000000000000:function:f"}}`), nil))
	require.ErrorContains(t, CheckKeys(parse(`{"StringEquals":{"dynamodb:FirstPartitionKeyValues":"x"}}`), nil), "FirstPartitionKeyValues")
	require.ErrorContains(t, CheckKeys(parse(`{"StringEquals":{"accounts.google.com:sub":"x"}}`), nil), "accounts.google.com:sub")
	require.True(t, Sets("AWS:SourceIp"))
	require.False(t, Sets("aws:CurrentTime"))
}

// TestEnable: the stage is on while an emulator has the mode on, and
// a second disable does nothing.
func TestEnable(t *testing.T) {
	before := enabled.Load()
	off := Enable()
	require.True(t, Stage{}.On(service.Table{}))
	off()
	off()
	require.Equal(t, before, enabled.Load())
}

// TestRequestTags: a call's Tags are aws:RequestTag/KEY and
// aws:TagKeys, its TagKeys aws:TagKeys; a call with neither sets none.
func TestRequestTags(t *testing.T) {
	str := func(s string) *string { return &s }
	ctx := map[string][]string{}
	requestTags(ctx, &service.CreateTableInput{Tags: []service.Tag{{Key: str("CostCenter"), Value: str("12345")}, {Key: str("team"), Value: str("a")}}})
	require.Equal(t, map[string][]string{"aws:requesttag/costcenter": {"12345"}, "aws:requesttag/team": {"a"}, "aws:tagkeys": {"CostCenter", "team"}}, ctx)
	ctx = map[string][]string{}
	requestTags(ctx, &struct{ TagKeys []string }{TagKeys: []string{"team"}})
	require.Equal(t, map[string][]string{"aws:tagkeys": {"team"}}, ctx)
	ctx = map[string][]string{}
	requestTags(ctx, &service.CreateTableInput{})
	requestTags(ctx, nil)
	require.Empty(t, ctx)
}
