package iampolicy

import (
	"strings"
	"testing"
)

// FuzzParse: any document either fails to parse or parses into a
// policy that Authorize decides without panicking.
func FuzzParse(f *testing.F) {
	for _, seed := range []string{
		`{"Version":"2012-10-17","Statement":{"Effect":"Allow","Action":"dynamodb:*","Resource":"*"}}`,
		allowWith(`{"ForAllValues:StringLike":{"dynamodb:LeadingKeys":["TENANT#${aws:PrincipalTag/tenant}*"]}}`),
		allowWith(`{"Null":{"dynamodb:Attributes":"true"},"StringEqualsIfExists":{"dynamodb:Select":"COUNT"}}`),
		`{"Statement":[{"Effect":"Deny","Principal":{"AWS":["000000000000"]},"NotAction":"dynamodb:Get*","NotResource":["${aws:username}"]}]}`,
		`{"Statement":[{"Effect":"Allow","Action":"*","Resource":"*","Condition":{"Bool":{"k":true}}}]}`,
		allowWith(`{"ForAnyValue:StringNotLike":{"dynamodb:Attributes":["*${www.amazon.com:user_id}"]},"NotIpAddress":{"aws:SourceIp":["10.0.0.0/8","::1"]}}`),
		`{`, `[]`, `{"Statement":null}`,
	} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, doc string) {
		p, err := Parse([]byte(doc))
		if err != nil {
			return
		}
		for _, k := range p.Keys() {
			if k == "" && !strings.Contains(doc, "${}") && !strings.Contains(doc, `""`) {
				t.Fatalf("an empty key from %q", doc)
			}
		}
		r := &Request{Principal: alice, Action: "dynamodb:GetItem", Resource: table,
			Context: map[string][]string{"dynamodb:leadingkeys": {"TENANT#acme"}, "dynamodb:attributes": {},
				"aws:sourceip": {"127.0.0.1"}, "www.amazon.com:user_id": {"amzn1"}}}
		for _, unbounded := range []bool{false, true} {
			r.Unbounded = map[string]bool{"dynamodb:attributes": unbounded}
			if d := Authorize(r, []*Policy{p}, []*Policy{p}); d > DeniedByResource {
				t.Fatalf("decision %d out of range", d)
			}
		}
	})
}
