package tagging

import (
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/dynamoemu/dynamoemu/emulator/internal/apierr"
	"github.com/dynamoemu/dynamoemu/emulator/internal/service"
	"github.com/dynamoemu/dynamoemu/emulator/internal/service/servicetest"
	"github.com/dynamoemu/dynamoemu/emulator/internal/testkit"
)

// The feature in use in this package's tests, as the emulator uses it.
var testFeatures = []service.Feature{Feature{}}

const (
	tagARN   = "arn:aws:dynamodb:us-east-1:000000000000:table/tagtab"
	hashOnly = `"AttributeDefinitions":[{"AttributeName":"pk","AttributeType":"S"}],"KeySchema":[{"AttributeName":"pk","KeyType":"HASH"}]`
	ppr      = `"BillingMode":"PAY_PER_REQUEST"`
)

// newTagEnv returns a service with the table tagtab, created with the
// tag created=yes.
func newTagEnv(t *testing.T) *servicetest.Env {
	t.Helper()
	e := servicetest.New(t, service.Config{Features: testFeatures})
	e.Must("CreateTable", `{"TableName":"tagtab",`+hashOnly+`,`+ppr+`,"Tags":[{"Key":"created","Value":"yes"}]}`)
	return e
}

// refused sends op and returns its error's type and message, failing
// the test unless it answers 400.
func refused(t *testing.T, e *servicetest.Env, op, body string) (typ, msg string) {
	t.Helper()
	status, out := e.Send(op, body)
	require.Equal(t, 400, status, "%s %s: %s", op, body, out)
	return testkit.ErrorOf(out)
}

func tagsJSON(n int, prefix string) string {
	parts := make([]string, n)
	for i := range parts {
		parts[i] = fmt.Sprintf(`{"Key":"%s%02d","Value":"v"}`, prefix, i)
	}
	return "[" + strings.Join(parts, ",") + "]"
}

func keysJSON(n int) string {
	parts := make([]string, n)
	for i := range parts {
		parts[i] = fmt.Sprintf(`"k%02d"`, i)
	}
	return "[" + strings.Join(parts, ",") + "]"
}

func TestTaggingErrors(t *testing.T) {
	arn := `"ResourceArn":"` + tagARN + `"`
	cases := []struct {
		name, op, body string
		typ, msg       string
	}{
		{"tag: no arn", "TagResource", `{"Tags":[{"Key":"a","Value":"b"}]}`, "ValidationException", "Invalid TableArn"},
		{"tag: empty arn", "TagResource", `{"ResourceArn":"","Tags":[{"Key":"a","Value":"b"}]}`, "ValidationException",
			"1 validation error detected: Value '' at 'resourceArn' failed to satisfy constraint: Member must have length greater than or equal to 1"},
		{"tag: no tags", "TagResource", `{` + arn + `}`, "ValidationException",
			"1 validation error detected: Value null at 'tags' failed to satisfy constraint: Member must not be null"},
		{"tag: empty tags", "TagResource", `{` + arn + `,"Tags":[]}`, "ValidationException", "Atleast one Tag needs to be provided as Input."},
		{"tag: bare name", "TagResource", `{"ResourceArn":"tagtab","Tags":[{"Key":"a","Value":"b"}]}`, "ValidationException",
			"One or more parameter values were invalid: ARNs must start with 'arn:': tagtab"},
		{"tag: short arn", "TagResource", `{"ResourceArn":"arn:not/a/good/format","Tags":[{"Key":"a","Value":"b"}]}`, "ValidationException",
			"Invalid TableArn: Invalid ResourceArn provided as input arn:not/a/good/format"},
		{"tag: other service", "TagResource", `{"ResourceArn":"arn:aws:s3:us-east-1:000000000000:table/tagtab","Tags":[{"Key":"a","Value":"b"}]}`, "ValidationException",
			"One or more parameter values were invalid: Provided Arn is not a DynamoDB resource arn: arn:aws:s3:us-east-1:000000000000:table/tagtab"},
		{"tag: other region", "TagResource", `{"ResourceArn":"arn:aws:dynamodb:eu-west-1:000000000000:table/tagtab","Tags":[{"Key":"a","Value":"b"}]}`, "ValidationException",
			"Invalid TableArn: Invalid ResourceArn provided as input arn:aws:dynamodb:eu-west-1:000000000000:table/tagtab"},
		{"tag: other account", "TagResource", `{"ResourceArn":"arn:aws:dynamodb:us-east-1:123456789012:table/tagtab","Tags":[{"Key":"a","Value":"b"}]}`,
			"AccessDeniedException", "Access is denied"},
		{"tag: index arn", "TagResource", `{"ResourceArn":"` + tagARN + `/index/gsi","Tags":[{"Key":"a","Value":"b"}]}`, "ValidationException",
			"One or more parameter values were invalid: Invalid resource arn provided, only table or stream is accepted. Provided resource arn: " + tagARN + "/index/gsi"},
		{"tag: backup arn", "TagResource", `{"ResourceArn":"arn:aws:dynamodb:us-east-1:000000000000:backup/x","Tags":[{"Key":"a","Value":"b"}]}`, "ValidationException",
			"One or more parameter values were invalid: Invalid resource arn provided, only table or stream is accepted. Provided resource arn: arn:aws:dynamodb:us-east-1:000000000000:backup/x"},
		{"tag: missing table", "TagResource", `{"ResourceArn":"arn:aws:dynamodb:us-east-1:000000000000:table/nosuch","Tags":[{"Key":"a","Value":"b"}]}`,
			"ResourceNotFoundException", "Requested resource not found: ResourceArn: arn:aws:dynamodb:us-east-1:000000000000:table/nosuch not found"},
		{"tag: key missing", "TagResource", `{` + arn + `,"Tags":[{"Value":"b"}]}`, "ValidationException", "The Tag Key provided is invalid, Key: null"},
		{"tag: value missing", "TagResource", `{` + arn + `,"Tags":[{"Key":"a"}]}`, "ValidationException", "The Tag Value provided is invalid, Value: null"},
		{"tag: empty key", "TagResource", `{` + arn + `,"Tags":[{"Key":"","Value":"b"}]}`, "ValidationException", "The Tag Key provided is invalid, Key: "},
		{"tag: key 129", "TagResource", `{` + arn + `,"Tags":[{"Key":"` + strings.Repeat("k", 129) + `","Value":"b"}]}`, "ValidationException",
			"The Tag Key provided is invalid, Key: " + strings.Repeat("k", 129)},
		{"tag: value 257", "TagResource", `{` + arn + `,"Tags":[{"Key":"a","Value":"` + strings.Repeat("v", 257) + `"}]}`, "ValidationException",
			"The Tag Value provided is invalid, Value: " + strings.Repeat("v", 257)},
		{"tag: key with !", "TagResource", `{` + arn + `,"Tags":[{"Key":"hi!","Value":"b"}]}`, "ValidationException", "The Tag Key provided is invalid, Key: hi!"},
		{"tag: value with %", "TagResource", `{` + arn + `,"Tags":[{"Key":"a","Value":"100%"}]}`, "ValidationException", "The Tag Value provided is invalid, Value: 100%"},
		{"tag: value with emoji", "TagResource", `{` + arn + `,"Tags":[{"Key":"a","Value":"🔑"}]}`, "ValidationException", "The Tag Value provided is invalid, Value: 🔑"},
		{"tag: key with tab", "TagResource", `{` + arn + `,"Tags":[{"Key":"a\tb","Value":"x"}]}`, "ValidationException", "The Tag Key provided is invalid, Key: a\tb"},
		{"tag: aws prefix", "TagResource", `{` + arn + `,"Tags":[{"Key":"ok","Value":"b"},{"Key":"aws:zzz","Value":"b"}]}`, "ValidationException",
			"Tag Key cannot be prefixed with aws:, Key: aws:zzz"},
		{"tag: duplicate", "TagResource", `{` + arn + `,"Tags":[{"Key":"dup","Value":"1"},{"Key":"dup","Value":"2"}]}`, "ValidationException",
			"Duplicate Tag Keys provided as input: Duplicate Tag Key found dup"},
		{"tag: 50 new beside 1", "TagResource", `{` + arn + `,"Tags":` + tagsJSON(50, "k") + `}`, "ValidationException",
			"Number of Tags exceed the current limit for the provided ResourceArn"},
		{"tag: 51 in one call", "TagResource", `{"ResourceArn":"arn:aws:dynamodb:us-east-1:000000000000:table/tagtab","Tags":` + tagsJSON(51, "k") + `}`, "ValidationException",
			"Number of Tags exceed the current limit for the provided ResourceArn"},

		{"untag: no arn", "UntagResource", `{"TagKeys":["a"]}`, "ValidationException", "Invalid TableArn"},
		{"untag: no keys", "UntagResource", `{` + arn + `}`, "ValidationException",
			"1 validation error detected: Value null at 'tagKeys' failed to satisfy constraint: Member must not be null"},
		{"untag: empty keys", "UntagResource", `{` + arn + `,"TagKeys":[]}`, "ValidationException", "Atleast one Tag Key needs to be provided as Input."},
		{"untag: empty key", "UntagResource", `{` + arn + `,"TagKeys":[""]}`, "ValidationException", "The Tag Key provided is invalid, Key: "},
		{"untag: key 129", "UntagResource", `{` + arn + `,"TagKeys":["` + strings.Repeat("k", 129) + `"]}`, "ValidationException",
			"The Tag Key provided is invalid, Key: " + strings.Repeat("k", 129)},
		{"untag: 51 keys", "UntagResource", `{` + arn + `,"TagKeys":` + keysJSON(51) + `}`, "ValidationException",
			"Number of Tags exceed the current limit for the provided ResourceArn"},
		{"untag: bare name", "UntagResource", `{"ResourceArn":"tagtab","TagKeys":["a"]}`, "ValidationException",
			"One or more parameter values were invalid: ARNs must start with 'arn:': tagtab"},
		{"untag: missing table", "UntagResource", `{"ResourceArn":"arn:aws:dynamodb:us-east-1:000000000000:table/nosuch","TagKeys":["a"]}`,
			"ResourceNotFoundException", "Requested resource not found: ResourceArn: arn:aws:dynamodb:us-east-1:000000000000:table/nosuch not found"},

		{"list: no arn", "ListTagsOfResource", `{}`, "ValidationException", "Invalid TableArn"},
		{"list: bare name", "ListTagsOfResource", `{"ResourceArn":"not-an-arn"}`, "ValidationException",
			"One or more parameter values were invalid: ARNs must start with 'arn:': not-an-arn"},
		{"list: stream arn", "ListTagsOfResource", `{"ResourceArn":"` + tagARN + `/stream/2026-01-01T00:00:00.000"}`, "ResourceNotFoundException",
			"Requested resource not found: ResourceArn: " + tagARN + "/stream/2026-01-01T00:00:00.000 not found"},
		{"list: missing table", "ListTagsOfResource", `{"ResourceArn":"arn:aws:dynamodb:us-east-1:000000000000:table/nosuch"}`,
			"ResourceNotFoundException", "Requested resource not found: ResourceArn: arn:aws:dynamodb:us-east-1:000000000000:table/nosuch not found"},
		{"list: arn too long", "ListTagsOfResource", `{"ResourceArn":"arn:` + strings.Repeat("x", 1280) + `"}`, "ValidationException",
			"1 validation error detected: Value 'arn:" + strings.Repeat("x", 1280) + "' at 'resourceArn' failed to satisfy constraint: Member must have length less than or equal to 1283"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			e := newTagEnv(t)
			typ, msg := refused(t, e, tc.op, tc.body)
			require.Equal(t, tc.typ, typ)
			require.Equal(t, tc.msg, msg)
			// A refused request changes nothing.
			require.Equal(t, `{"Tags":[{"Key":"created","Value":"yes"}]}`, e.Must("ListTagsOfResource", `{"ResourceArn":"`+tagARN+`"}`),
				"tags after a refused %s", tc.op)
		})
	}
}

func TestTaggingLifecycle(t *testing.T) {
	e := newTagEnv(t)
	list := func() string {
		t.Helper()
		return e.Must("ListTagsOfResource", `{"ResourceArn":"`+tagARN+`"}`)
	}
	steps := []struct {
		name, op, body string
		want           string // ListTagsOfResource afterwards
	}{
		{"created with", "", "", `{"Tags":[{"Key":"created","Value":"yes"}]}`},
		{"add two", "TagResource", `{"ResourceArn":"` + tagARN + `","Tags":[{"Key":"team","Value":"db"},{"Key":"Team","Value":""}]}`,
			`{"Tags":[{"Key":"created","Value":"yes"},{"Key":"team","Value":"db"},{"Key":"Team","Value":""}]}`},
		{"overwrite in place", "TagResource", `{"ResourceArn":"` + tagARN + `","Tags":[{"Key":"created","Value":"no"}]}`,
			`{"Tags":[{"Key":"created","Value":"no"},{"Key":"team","Value":"db"},{"Key":"Team","Value":""}]}`},
		{"allowed characters", "TagResource", `{"ResourceArn":"` + tagARN + `","Tags":[{"Key":"ключ 表","Value":"a+b-c=d.e_f:g/h@i café"}]}`,
			`{"Tags":[{"Key":"created","Value":"no"},{"Key":"team","Value":"db"},{"Key":"Team","Value":""},{"Key":"ключ 表","Value":"a+b-c=d.e_f:g/h@i café"}]}`},
		{"untag present and absent", "UntagResource", `{"ResourceArn":"` + tagARN + `","TagKeys":["team","absent","ключ 表"]}`,
			`{"Tags":[{"Key":"created","Value":"no"},{"Key":"Team","Value":""}]}`},
		{"untag all", "UntagResource", `{"ResourceArn":"` + tagARN + `","TagKeys":["created","Team"]}`, `{"Tags":[]}`},
		{"128 and 256 characters", "TagResource", `{"ResourceArn":"` + tagARN + `","Tags":[{"Key":"` + strings.Repeat("א", 128) + `","Value":"` + strings.Repeat("v", 256) + `"}]}`,
			`{"Tags":[{"Key":"` + strings.Repeat("א", 128) + `","Value":"` + strings.Repeat("v", 256) + `"}]}`},
	}
	for _, s := range steps {
		if s.op != "" {
			require.Empty(t, e.Must(s.op, s.body), "%s: %s's answer (an empty body)", s.name, s.op)
		}
		require.Equal(t, s.want, list(), "%s: tags", s.name)
	}

	// A NextToken is accepted and ignored: every tag is on one page.
	require.Equal(t, list(), e.Must("ListTagsOfResource", `{"ResourceArn":"`+tagARN+`","NextToken":"x"}`), "with NextToken")

	// Tags go with the table: a table created again under the name has none.
	e.Must("DeleteTable", `{"TableName":"tagtab"}`)
	e.Must("CreateTable", `{"TableName":"tagtab",`+hashOnly+`,`+ppr+`}`)
	require.Equal(t, `{"Tags":[]}`, list(), "re-created table: tags")
}

// TestTagLimit fills a table to 50 tags: overwriting all 50 is fine, a
// 51st key is refused even beside an overwrite, and nothing is applied.
func TestTagLimit(t *testing.T) {
	e := servicetest.New(t, service.Config{Features: testFeatures})
	e.Must("CreateTable", `{"TableName":"tagtab",`+hashOnly+`,`+ppr+`,"Tags":`+tagsJSON(50, "k")+`}`)
	e.Must("TagResource", `{"ResourceArn":"`+tagARN+`","Tags":`+tagsJSON(50, "k")+`}`)
	typ, msg := refused(t, e, "TagResource", `{"ResourceArn":"`+tagARN+`","Tags":[{"Key":"k00","Value":"new"},{"Key":"k50","Value":"v"}]}`)
	require.Equal(t, "ValidationException", typ, "51st tag")
	require.Equal(t, apierr.MsgTagLimit, msg, "51st tag")
	got := e.Must("ListTagsOfResource", `{"ResourceArn":"`+tagARN+`"}`)
	require.Equal(t, 50, strings.Count(got, `"Key"`), "after a refused 51st tag: %s", got)
	require.NotContains(t, got, "new")
	require.NotContains(t, got, "NextToken")
	e.Must("UntagResource", `{"ResourceArn":"`+tagARN+`","TagKeys":["k00"]}`)
	e.Must("TagResource", `{"ResourceArn":"`+tagARN+`","Tags":[{"Key":"k50","Value":"v"}]}`)
}
