package iampolicy

import (
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
		`{`, `[]`, `{"Statement":null}`,
	} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, doc string) {
		p, err := Parse([]byte(doc))
		if err != nil {
			return
		}
		r := &Request{Principal: alice, Action: "dynamodb:GetItem", Resource: table,
			Context: map[string][]string{"dynamodb:leadingkeys": {"TENANT#acme"}, "dynamodb:attributes": {}}}
		d := Authorize(r, []*Policy{p}, []*Policy{p})
		if d > DeniedByResource {
			t.Fatalf("decision %d out of range", d)
		}
	})
}
