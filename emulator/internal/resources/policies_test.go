package resources

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/dynamoemu/dynamoemu/emulator/internal/apierr"
	"github.com/dynamoemu/dynamoemu/emulator/internal/service"
	"github.com/dynamoemu/dynamoemu/emulator/internal/service/servicetest"
	"github.com/dynamoemu/dynamoemu/emulator/internal/testkit"
)

// The features in use in this package's tests, as the emulator uses it.
var testFeatures = []service.Feature{
	Policies{},
	KinesisDestinations{},
}

const onDemand = `"BillingMode":"PAY_PER_REQUEST"`

const testPolicy = `{"Version":"2012-10-17","Statement":[{"Effect":"Allow","Principal":{"AWS":"arn:aws:iam::111122223333:root"},"Action":"dynamodb:GetItem","Resource":"*"}]}`

// TestResourcePolicies: put, get, delete on a table and its stream, the
// revision ids and ExpectedRevisionId, and the checks of the document.
func TestResourcePolicies(t *testing.T) {
	e := servicetest.New(t, service.Config{Features: testFeatures})
	e.Must("CreateTable", `{"TableName":"pol",`+onDemand+`,"StreamSpecification":{"StreamEnabled":true,"StreamViewType":"KEYS_ONLY"},
		"AttributeDefinitions":[{"AttributeName":"pk","AttributeType":"S"}],"KeySchema":[{"AttributeName":"pk","KeyType":"HASH"}]}`)
	var d struct {
		Table struct{ TableArn, LatestStreamArn string }
	}
	testkit.MustUnmarshal(t, e.Must("DescribeTable", `{"TableName":"pol"}`), &d)
	arn, sarn := d.Table.TableArn, d.Table.LatestStreamArn
	q := func(s string) string { return `"` + strings.ReplaceAll(s, `"`, `\"`) + `"` }

	e.Refused("GetResourcePolicy", `{"ResourceArn":"`+arn+`"}`, "PolicyNotFoundException")
	e.Refused("DeleteResourcePolicy", `{"ResourceArn":"`+arn+`"}`, "PolicyNotFoundException")
	e.Refused("PutResourcePolicy", `{"ResourceArn":"`+arn+`","Policy":`+q(testPolicy)+`,"ExpectedRevisionId":"123"}`, "PolicyNotFoundException")

	var put struct{ RevisionId string }
	testkit.MustUnmarshal(t, e.Must("PutResourcePolicy", `{"ResourceArn":"`+arn+`","Policy":`+q(testPolicy)+`,"ExpectedRevisionId":"NO_POLICY"}`), &put)
	if put.RevisionId != "1795348800000" {
		t.Errorf("got RevisionId %q, want the clock's epoch milliseconds 1795348800000", put.RevisionId)
	}
	// The same document again: the same revision (idempotent).
	var again struct{ RevisionId string }
	testkit.MustUnmarshal(t, e.Must("PutResourcePolicy", `{"ResourceArn":"`+arn+`","Policy":`+q(testPolicy)+`}`), &again)
	if again.RevisionId != put.RevisionId {
		t.Errorf("same document: got RevisionId %q, want %q", again.RevisionId, put.RevisionId)
	}
	e.Refused("PutResourcePolicy", `{"ResourceArn":"`+arn+`","Policy":`+q(testPolicy)+`,"ExpectedRevisionId":"NO_POLICY"}`, "PolicyNotFoundException")
	var got struct{ Policy, RevisionId string }
	testkit.MustUnmarshal(t, e.Must("GetResourcePolicy", `{"ResourceArn":"`+arn+`"}`), &got)
	if got.Policy != testPolicy || got.RevisionId != put.RevisionId {
		t.Errorf("got %q %q, want the policy put, revision %q", got.Policy, got.RevisionId, put.RevisionId)
	}
	// The stream's policy is its own.
	e.Refused("GetResourcePolicy", `{"ResourceArn":"`+sarn+`"}`, "PolicyNotFoundException")
	e.Must("PutResourcePolicy", `{"ResourceArn":"`+sarn+`","Policy":`+q(testPolicy)+`}`)
	e.Must("GetResourcePolicy", `{"ResourceArn":"`+sarn+`"}`)
	e.Refused("GetResourcePolicy", `{"ResourceArn":"`+arn+`/stream/2020-01-01T00:00:00.000"}`, "ResourceNotFoundException")

	// A changed document: a new revision; a stale ExpectedRevisionId fails.
	other := strings.Replace(testPolicy, "GetItem", "Query", 1)
	e.Clock.Advance(1)
	var put2 struct{ RevisionId string }
	testkit.MustUnmarshal(t, e.Must("PutResourcePolicy", `{"ResourceArn":"`+arn+`","Policy":`+q(other)+`,"ExpectedRevisionId":"`+put.RevisionId+`"}`), &put2)
	if put2.RevisionId == put.RevisionId {
		t.Errorf("changed document: got the same RevisionId %q", put2.RevisionId)
	}
	e.Refused("DeleteResourcePolicy", `{"ResourceArn":"`+arn+`","ExpectedRevisionId":"`+put.RevisionId+`"}`, "PolicyNotFoundException")
	var del struct{ RevisionId string }
	testkit.MustUnmarshal(t, e.Must("DeleteResourcePolicy", `{"ResourceArn":"`+arn+`","ExpectedRevisionId":"`+put2.RevisionId+`"}`), &del)
	if del.RevisionId != put2.RevisionId {
		t.Errorf("delete: got RevisionId %q, want %q", del.RevisionId, put2.RevisionId)
	}
	e.Refused("GetResourcePolicy", `{"ResourceArn":"`+arn+`"}`, "PolicyNotFoundException")

	for _, c := range []struct{ name, arn, policy, want string }{
		{"no ARN", "", testPolicy, "ValidationException"},
		{"no table", strings.Replace(arn, "table/pol", "table/nope", 1), testPolicy, "ResourceNotFoundException"},
		{"other region", strings.Replace(arn, "us-east-1", "eu-west-1", 1), testPolicy, "ResourceNotFoundException"},
		{"not JSON", arn, "{", "ValidationException"},
		{"no statement", arn, `{"Version":"2012-10-17"}`, "ValidationException"},
		{"bad effect", arn, strings.Replace(testPolicy, "Allow", "Maybe", 1), "ValidationException"},
		{"no principal", arn, `{"Statement":{"Effect":"Deny","Action":"*"}}`, "ValidationException"},
		{"bad version", arn, strings.Replace(testPolicy, "2012-10-17", "2020-01-01", 1), "ValidationException"},
		{"over 20 KB", arn, testPolicy[:len(testPolicy)-1] + `,"Id":"` + strings.Repeat("x", 20*1024) + `"}`, "ValidationException"},
	} {
		body := `{"Policy":` + q(c.policy) + `}`
		if c.arn != "" {
			body = `{"ResourceArn":"` + c.arn + `","Policy":` + q(c.policy) + `}`
		}
		e.Refused("PutResourcePolicy", body, c.want)
	}
}

// TestPoliciesSlot: the slot holds the policies as a JSON list; an
// empty slot is no policy, and a slot that is not a list is an error.
func TestPoliciesSlot(t *testing.T) {
	ps, err := policiesOf(nil)
	require.NoError(t, err)
	require.Empty(t, ps)
	want := []resourcePolicy{{Document: testPolicy, Revision: "7"}, {Stream: "2026-11-22T12:00:00.000", Document: testPolicy, Revision: "8"}}
	b, err := json.Marshal(want)
	require.NoError(t, err)
	ps, err = policiesOf(b)
	require.NoError(t, err)
	require.Equal(t, want, ps)
	_, err = policiesOf(json.RawMessage(`{}`))
	require.Error(t, err)
}

// FuzzPolicyDocument: any document is accepted or refused with a
// ValidationException, never a panic.
func FuzzPolicyDocument(f *testing.F) {
	f.Add(testPolicy)
	f.Add(`{"Statement":[]}`)
	f.Add(`[]`)
	f.Fuzz(func(t *testing.T, doc string) {
		if err := validatePolicyDocument(doc); err != nil && !errors.Is(err, apierr.ErrValidation) {
			t.Fatal(err)
		}
	})
}
