package iampolicy

import (
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

const table = "arn:aws:dynamodb:us-east-1:000000000000:table/Orders"

var alice = &Principal{
	ARN: "arn:aws:iam::000000000000:user/alice", UserName: "alice", UserID: "AIDAALICE",
	Tags: map[string]string{"tenant": "acme"},
}

// allowWith is an identity policy allowing GetItem on Orders when the
// condition block cond holds.
func allowWith(cond string) string {
	return fmt.Sprintf(`{"Version":"2012-10-17","Statement":[{"Effect":"Allow","Action":"dynamodb:GetItem",
		"Resource":%q,"Condition":%s}]}`, table, cond)
}

func mustParse(t *testing.T, doc string) *Policy {
	t.Helper()
	p, err := Parse([]byte(doc))
	require.NoError(t, err, doc)
	return p
}

func TestConditions(t *testing.T) {
	type ctx = map[string][]string
	cases := []struct {
		name string
		cond string
		ctx  ctx
		want bool
	}{
		{"StringEquals hit", `{"StringEquals":{"dynamodb:Select":"COUNT"}}`, ctx{"dynamodb:select": {"COUNT"}}, true},
		{"StringEquals miss", `{"StringEquals":{"dynamodb:Select":"COUNT"}}`, ctx{"dynamodb:select": {"ALL_ATTRIBUTES"}}, false},
		{"StringEquals absent", `{"StringEquals":{"dynamodb:Select":"COUNT"}}`, ctx{}, false},
		{"StringEqualsIfExists absent", `{"StringEqualsIfExists":{"dynamodb:Select":"COUNT"}}`, ctx{}, true},
		{"StringEqualsIfExists miss", `{"StringEqualsIfExists":{"dynamodb:Select":"COUNT"}}`, ctx{"dynamodb:select": {"ALL_ATTRIBUTES"}}, false},
		{"StringNotEquals absent", `{"StringNotEquals":{"dynamodb:ReturnValues":"ALL_OLD"}}`, ctx{}, true},
		{"StringNotEquals hit", `{"StringNotEquals":{"dynamodb:ReturnValues":"ALL_OLD"}}`, ctx{"dynamodb:returnvalues": {"ALL_OLD"}}, false},
		{"StringEqualsIgnoreCase", `{"StringEqualsIgnoreCase":{"dynamodb:ReturnConsumedCapacity":"total"}}`, ctx{"dynamodb:returnconsumedcapacity": {"TOTAL"}}, true},
		{"StringLike hit", `{"StringLike":{"dynamodb:LeadingKeys":"TENANT#acme*"}}`, ctx{"dynamodb:leadingkeys": {"TENANT#acme#1"}}, true},
		{"StringLike miss", `{"StringLike":{"dynamodb:LeadingKeys":"TENANT#acme*"}}`, ctx{"dynamodb:leadingkeys": {"TENANT#other"}}, false},
		{"StringLike question mark", `{"StringLike":{"dynamodb:LeadingKeys":"a?c"}}`, ctx{"dynamodb:leadingkeys": {"abc"}}, true},
		{"StringNotLike", `{"StringNotLike":{"dynamodb:LeadingKeys":"TENANT#acme*"}}`, ctx{"dynamodb:leadingkeys": {"TENANT#other"}}, true},
		{"ForAllValues:StringEquals all in", `{"ForAllValues:StringEquals":{"dynamodb:Attributes":["pk","sk","name"]}}`, ctx{"dynamodb:attributes": {"pk", "name"}}, true},
		{"ForAllValues:StringEquals one out", `{"ForAllValues:StringEquals":{"dynamodb:Attributes":["pk","sk","name"]}}`, ctx{"dynamodb:attributes": {"pk", "secret"}}, false},
		{"ForAllValues:StringEquals absent", `{"ForAllValues:StringEquals":{"dynamodb:Attributes":["pk"]}}`, ctx{}, true},
		{"ForAllValues:StringLike", `{"ForAllValues:StringLike":{"dynamodb:LeadingKeys":["acme#*"]}}`, ctx{"dynamodb:leadingkeys": {"acme#1", "acme#2"}}, true},
		{"ForAllValues:StringLike one out", `{"ForAllValues:StringLike":{"dynamodb:LeadingKeys":["acme#*"]}}`, ctx{"dynamodb:leadingkeys": {"acme#1", "beta#2"}}, false},
		{"ForAnyValue:StringEquals hit", `{"ForAnyValue:StringEquals":{"dynamodb:Attributes":["name"]}}`, ctx{"dynamodb:attributes": {"pk", "name"}}, true},
		{"ForAnyValue:StringEquals absent", `{"ForAnyValue:StringEquals":{"dynamodb:Attributes":["name"]}}`, ctx{}, false},
		{"ForAnyValue:StringLike miss", `{"ForAnyValue:StringLike":{"dynamodb:Attributes":["sec*"]}}`, ctx{"dynamodb:attributes": {"pk", "name"}}, false},
		{"ForAnyValue:StringNotEquals", `{"ForAnyValue:StringNotEquals":{"dynamodb:Attributes":["pk"]}}`, ctx{"dynamodb:attributes": {"pk", "name"}}, true},
		{"Null true absent", `{"Null":{"dynamodb:Attributes":"true"}}`, ctx{}, true},
		{"Null true present", `{"Null":{"dynamodb:Attributes":"true"}}`, ctx{"dynamodb:attributes": {"pk"}}, false},
		{"Null false present", `{"Null":{"dynamodb:Attributes":false}}`, ctx{"dynamodb:attributes": {"pk"}}, true},
		{"Null false absent", `{"Null":{"dynamodb:Attributes":false}}`, ctx{}, false},
		{"two keys both hold", `{"StringEquals":{"dynamodb:Select":"COUNT","dynamodb:ReturnConsumedCapacity":"NONE"}}`,
			ctx{"dynamodb:select": {"COUNT"}, "dynamodb:returnconsumedcapacity": {"NONE"}}, true},
		{"two keys one fails", `{"StringEquals":{"dynamodb:Select":"COUNT","dynamodb:ReturnConsumedCapacity":"NONE"}}`,
			ctx{"dynamodb:select": {"COUNT"}, "dynamodb:returnconsumedcapacity": {"TOTAL"}}, false},
		{"key case-insensitive", `{"StringEquals":{"DynamoDB:select":"COUNT"}}`, ctx{"dynamodb:select": {"COUNT"}}, true},
		{"variable username", `{"ForAllValues:StringEquals":{"dynamodb:LeadingKeys":["${aws:username}"]}}`, ctx{"dynamodb:leadingkeys": {"alice"}}, true},
		{"variable userid", `{"ForAllValues:StringEquals":{"dynamodb:LeadingKeys":["${aws:userid}"]}}`, ctx{"dynamodb:leadingkeys": {"AIDAALICE"}}, true},
		{"variable principal tag", `{"ForAllValues:StringLike":{"dynamodb:LeadingKeys":["TENANT#${aws:PrincipalTag/tenant}*"]}}`, ctx{"dynamodb:leadingkeys": {"TENANT#acme"}}, true},
		{"variable principal tag other", `{"ForAllValues:StringLike":{"dynamodb:LeadingKeys":["TENANT#${aws:PrincipalTag/tenant}*"]}}`, ctx{"dynamodb:leadingkeys": {"TENANT#beta"}}, false},
		{"variable missing tag", `{"ForAllValues:StringEquals":{"dynamodb:LeadingKeys":["${aws:PrincipalTag/none}"]}}`, ctx{"dynamodb:leadingkeys": {""}}, false},
		{"escaped star is literal", `{"StringLike":{"dynamodb:LeadingKeys":"a${*}"}}`, ctx{"dynamodb:leadingkeys": {"ab"}}, false},
		{"escaped star matches itself", `{"StringLike":{"dynamodb:LeadingKeys":"a${*}"}}`, ctx{"dynamodb:leadingkeys": {"a*"}}, true},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			p := mustParse(t, allowWith(tc.cond))
			r := &Request{Principal: alice, Action: "dynamodb:GetItem", Resource: table, Context: tc.ctx}
			got := Authorize(r, []*Policy{p}, nil) == Allowed
			require.Equal(t, tc.want, got, "got allowed=%v, want %v", got, tc.want)
		})
	}
}

func TestAuthorize(t *testing.T) {
	allowAll := `{"Version":"2012-10-17","Statement":{"Effect":"Allow","Action":"dynamodb:*","Resource":"*"}}`
	denyGet := `{"Version":"2012-10-17","Statement":[{"Effect":"Deny","Action":["dynamodb:GetItem"],"Resource":"arn:aws:dynamodb:*:*:table/Orders"}]}`
	notAction := `{"Version":"2012-10-17","Statement":[{"Effect":"Allow","NotAction":"dynamodb:DeleteItem","Resource":"*"}]}`
	notResource := `{"Version":"2012-10-17","Statement":[{"Effect":"Allow","Action":"dynamodb:*","NotResource":"arn:aws:dynamodb:*:*:table/Orders"}]}`
	index := `{"Version":"2012-10-17","Statement":[{"Effect":"Allow","Action":"dynamodb:Query","Resource":"arn:aws:dynamodb:*:*:table/Orders/index/*"}]}`
	ownTable := `{"Version":"2012-10-17","Statement":[{"Effect":"Allow","Action":"dynamodb:GetItem","Resource":"arn:aws:dynamodb:*:*:table/${aws:username}-*"}]}`
	resAllow := `{"Version":"2012-10-17","Statement":[{"Effect":"Allow","Principal":{"AWS":"arn:aws:iam::000000000000:user/alice"},"Action":"dynamodb:GetItem","Resource":"*"}]}`
	resAllowBob := `{"Version":"2012-10-17","Statement":[{"Effect":"Allow","Principal":{"AWS":["arn:aws:iam::000000000000:user/bob"]},"Action":"dynamodb:GetItem","Resource":"*"}]}`
	resDenyAccount := `{"Version":"2012-10-17","Statement":[{"Effect":"Deny","Principal":{"AWS":"000000000000"},"Action":"dynamodb:GetItem","Resource":"*"}]}`
	resDenyStar := `{"Version":"2012-10-17","Statement":[{"Effect":"Deny","Principal":"*","Action":"dynamodb:*","Resource":"*"}]}`

	cases := []struct {
		name               string
		identity, resource []string
		action, resourceAR string
		want               Decision
	}{
		{"no policy", nil, nil, "dynamodb:GetItem", table, ImplicitDeny},
		{"allow", []string{allowAll}, nil, "dynamodb:GetItem", table, Allowed},
		{"action case-insensitive", []string{allowAll}, nil, "DynamoDB:GetItem", table, Allowed},
		{"explicit deny over allow", []string{allowAll, denyGet}, nil, "dynamodb:GetItem", table, DeniedByIdentity},
		{"deny of another action", []string{allowAll, denyGet}, nil, "dynamodb:PutItem", table, Allowed},
		{"NotAction allows others", []string{notAction}, nil, "dynamodb:GetItem", table, Allowed},
		{"NotAction leaves it", []string{notAction}, nil, "dynamodb:DeleteItem", table, ImplicitDeny},
		{"NotResource", []string{notResource}, nil, "dynamodb:GetItem", table, ImplicitDeny},
		{"NotResource other table", []string{notResource}, nil, "dynamodb:GetItem", strings.Replace(table, "Orders", "Users", 1), Allowed},
		{"index resource", []string{index}, nil, "dynamodb:Query", table + "/index/byDate", Allowed},
		{"index policy not the table", []string{index}, nil, "dynamodb:Query", table, ImplicitDeny},
		{"resource variable", []string{ownTable}, nil, "dynamodb:GetItem", strings.Replace(table, "Orders", "alice-notes", 1), Allowed},
		{"resource variable other", []string{ownTable}, nil, "dynamodb:GetItem", strings.Replace(table, "Orders", "bob-notes", 1), ImplicitDeny},
		{"resource policy allows", nil, []string{resAllow}, "dynamodb:GetItem", table, Allowed},
		{"resource policy for another", nil, []string{resAllowBob}, "dynamodb:GetItem", table, ImplicitDeny},
		{"resource deny of the account", []string{allowAll}, []string{resDenyAccount}, "dynamodb:GetItem", table, DeniedByResource},
		{"resource deny of anyone", []string{allowAll}, []string{resDenyStar}, "dynamodb:PutItem", table, DeniedByResource},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			var id, res []*Policy
			for _, d := range tc.identity {
				id = append(id, mustParse(t, d))
			}
			for _, d := range tc.resource {
				res = append(res, mustParse(t, d))
			}
			got := Authorize(&Request{Principal: alice, Action: tc.action, Resource: tc.resourceAR}, id, res)
			require.Equal(t, tc.want, got, "got %v, want %v", got, tc.want)
		})
	}
}

func TestParseErrors(t *testing.T) {
	cases := []struct {
		name, doc string
		want      error
	}{
		{"not JSON", `{`, ErrSyntax},
		{"no statement", `{"Version":"2012-10-17"}`, ErrSyntax},
		{"bad effect", `{"Statement":[{"Effect":"Maybe","Action":"*","Resource":"*"}]}`, ErrSyntax},
		{"no action", `{"Statement":[{"Effect":"Allow","Resource":"*"}]}`, ErrSyntax},
		{"action and not action", `{"Statement":[{"Effect":"Allow","Action":"*","NotAction":"*","Resource":"*"}]}`, ErrSyntax},
		{"no resource", `{"Statement":[{"Effect":"Allow","Action":"*"}]}`, ErrSyntax},
		{"empty action list", `{"Statement":[{"Effect":"Allow","Action":[],"Resource":"*"}]}`, ErrSyntax},
		{"numeric operator", `{"Statement":[{"Effect":"Allow","Action":"*","Resource":"*","Condition":{"NumericLessThan":{"k":"1"}}}]}`, ErrUnsupported},
		{"unknown qualifier", `{"Statement":[{"Effect":"Allow","Action":"*","Resource":"*","Condition":{"Some:StringEquals":{"k":"1"}}}]}`, ErrUnsupported},
		{"NotPrincipal", `{"Statement":[{"Effect":"Deny","NotPrincipal":{"AWS":"*"},"Action":"*","Resource":"*"}]}`, ErrUnsupported},
		{"service principal", `{"Statement":[{"Effect":"Allow","Principal":{"Service":"x"},"Action":"*","Resource":"*"}]}`, ErrUnsupported},
		{"null not boolean", `{"Statement":[{"Effect":"Allow","Action":"*","Resource":"*","Condition":{"Null":{"k":"maybe"}}}]}`, ErrSyntax},
		{"condition object value", `{"Statement":[{"Effect":"Allow","Action":"*","Resource":"*","Condition":{"StringEquals":{"k":{"a":1}}}}]}`, ErrSyntax},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Parse([]byte(tc.doc))
			require.ErrorIs(t, err, tc.want)
		})
	}
}

func TestWildMatch(t *testing.T) {
	cases := []struct {
		pattern, s string
		want       bool
	}{
		{"*", "", true}, {"a*b", "ab", true}, {"a*b", "axxb", true}, {"a*b", "axxc", false},
		{"a?c", "abc", true}, {"a?c", "ac", false}, {"*a*a*a*b", strings.Repeat("a", 40), false},
		{"table/*/index/*", "table/T/index/I", true},
	}
	for _, tc := range cases {
		require.Equal(t, tc.want, wildMatch(tc.pattern, tc.s), "wildMatch(%q, %q)", tc.pattern, tc.s)
	}
}

// TestUnbounded: a key whose values are every value (the attributes of
// a whole-item read) fails an allow list, passes a deny list's test of
// any name, and passes only a pattern that matches anything.
func TestUnbounded(t *testing.T) {
	cases := []struct {
		name string
		cond string
		want bool
	}{
		{"ForAllValues:StringEquals allow list", `{"ForAllValues:StringEquals":{"dynamodb:Attributes":["pk","title"]}}`, false},
		{"ForAllValues:StringLike some", `{"ForAllValues:StringLike":{"dynamodb:Attributes":["t*"]}}`, false},
		{"ForAllValues:StringLike anything", `{"ForAllValues:StringLike":{"dynamodb:Attributes":["*"]}}`, true},
		{"ForAllValues:StringNotLike", `{"ForAllValues:StringNotLike":{"dynamodb:Attributes":["secret"]}}`, false},
		{"ForAnyValue:StringEquals", `{"ForAnyValue:StringEquals":{"dynamodb:Attributes":["secret"]}}`, true},
		{"ForAnyValue:StringNotEquals", `{"ForAnyValue:StringNotEquals":{"dynamodb:Attributes":["pk"]}}`, true},
		{"ForAnyValue:StringNotLike anything", `{"ForAnyValue:StringNotLike":{"dynamodb:Attributes":["**"]}}`, false},
		{"StringEquals", `{"StringEquals":{"dynamodb:Attributes":"secret"}}`, true},
		{"StringNotEquals", `{"StringNotEquals":{"dynamodb:Attributes":"secret"}}`, false},
		{"Null true", `{"Null":{"dynamodb:Attributes":"true"}}`, false},
		{"Null false", `{"Null":{"dynamodb:Attributes":"false"}}`, true},
		{"IfExists allow list", `{"ForAllValues:StringEqualsIfExists":{"dynamodb:Attributes":["pk"]}}`, false},
		{"missing variable", `{"ForAnyValue:StringEquals":{"dynamodb:Attributes":["${aws:PrincipalTag/none}"]}}`, false},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			p := mustParse(t, allowWith(tc.cond))
			r := &Request{Principal: alice, Action: "dynamodb:GetItem", Resource: table,
				Context: map[string][]string{"dynamodb:attributes": {"pk"}}, Unbounded: map[string]bool{"dynamodb:attributes": true}}
			require.Equal(t, tc.want, Authorize(r, []*Policy{p}, nil) == Allowed)
		})
	}
}

// TestIPAddress: IpAddress and NotIpAddress test an address against
// addresses and CIDR blocks, IPv4 and IPv6.
func TestIPAddress(t *testing.T) {
	cases := []struct {
		cond, ip string
		want     bool
	}{
		{`{"IpAddress":{"aws:SourceIp":"192.0.2.0/24"}}`, "192.0.2.7", true},
		{`{"IpAddress":{"aws:SourceIp":["203.0.113.0/24","192.0.2.7"]}}`, "192.0.2.7", true},
		{`{"IpAddress":{"aws:SourceIp":"192.0.2.0/24"}}`, "198.51.100.1", false},
		{`{"NotIpAddress":{"aws:SourceIp":"192.0.2.0/24"}}`, "198.51.100.1", true},
		{`{"NotIpAddress":{"aws:SourceIp":"192.0.2.0/24"}}`, "192.0.2.1", false},
		{`{"IpAddress":{"aws:SourceIp":"2001:db8::/32"}}`, "2001:db8::1", true},
		{`{"IpAddress":{"aws:SourceIp":"127.0.0.1"}}`, "::ffff:127.0.0.1", true},
		{`{"IpAddress":{"aws:SourceIp":"127.0.0.1/32"}}`, "not an address", false},
	}
	for _, tc := range cases {
		p := mustParse(t, allowWith(tc.cond))
		r := &Request{Principal: alice, Action: "dynamodb:GetItem", Resource: table, Context: map[string][]string{"aws:sourceip": {tc.ip}}}
		require.Equal(t, tc.want, Authorize(r, []*Policy{p}, nil) == Allowed, "%s for %s", tc.cond, tc.ip)
	}
	_, err := Parse([]byte(allowWith(`{"IpAddress":{"aws:SourceIp":"192.0.2.300"}}`)))
	require.ErrorIs(t, err, ErrSyntax)
}

// TestContextVariables: a policy variable stands for the request's
// single-valued key of its name (a web identity's user id, given by
// the caller), before the principal's fields.
func TestContextVariables(t *testing.T) {
	p := mustParse(t, allowWith(`{"ForAllValues:StringEquals":{"dynamodb:LeadingKeys":["${www.amazon.com:user_id}"]}}`))
	r := &Request{Principal: alice, Action: "dynamodb:GetItem", Resource: table, Context: map[string][]string{
		"www.amazon.com:user_id": {"amzn1.account.A"}, "dynamodb:leadingkeys": {"amzn1.account.A"}}}
	require.Equal(t, Allowed, Authorize(r, []*Policy{p}, nil))
	r.Context["dynamodb:leadingkeys"] = []string{"amzn1.account.B"}
	require.Equal(t, ImplicitDeny, Authorize(r, []*Policy{p}, nil))
	delete(r.Context, "www.amazon.com:user_id")
	r.Context["dynamodb:leadingkeys"] = []string{""}
	require.Equal(t, ImplicitDeny, Authorize(r, []*Policy{p}, nil), "no value: the element matches nothing")
	// A multivalued key is no variable.
	r.Context["www.amazon.com:user_id"] = []string{"a", "b"}
	r.Context["dynamodb:leadingkeys"] = []string{"a"}
	require.Equal(t, ImplicitDeny, Authorize(r, []*Policy{p}, nil))
}

// TestKeys: the keys and variables a policy names, each once, as it
// spells them first; the escapes are none.
func TestKeys(t *testing.T) {
	p := mustParse(t, `{"Version":"2012-10-17","Statement":[
		{"Effect":"Allow","Action":"dynamodb:*","Resource":"arn:aws:dynamodb:*:*:table/${aws:username}-${*}",
		 "Condition":{"ForAllValues:StringEquals":{"dynamodb:LeadingKeys":["${www.amazon.com:user_id}","x${$}"]}}},
		{"Effect":"Deny","Action":"dynamodb:*","Resource":"*","Condition":{"Bool":{"aws:SecureTransport":"false"},"StringEquals":{"DynamoDB:LeadingKeys":"${AWS:Username}"}}}]}`)
	got := p.Keys()
	require.ElementsMatch(t, []string{"aws:username", "dynamodb:LeadingKeys", "www.amazon.com:user_id", "aws:SecureTransport"}, got)
}
