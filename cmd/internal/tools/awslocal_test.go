package tools

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/dynamoemu/dynamoemu/emulator"
	"github.com/dynamoemu/dynamoemu/emulator/emulatortest"
)

func TestParseAWSCLI(t *testing.T) {
	files := map[string]string{"gsi.json": `[{"IndexName":"byG","KeySchema":[{"AttributeName":"g","KeyType":"HASH"}],"Projection":{"ProjectionType":"ALL"}}]`,
		"in.json": `{"TableName":"fromfile","BillingMode":"PAY_PER_REQUEST"}`}
	readFile := func(p string) ([]byte, error) {
		if s, ok := files[p]; ok {
			return []byte(s), nil
		}
		return nil, os.ErrNotExist
	}
	tests := []struct {
		name    string
		args    string // split on spaces
		want    string // the input as JSON
		op      string
		wantErr string
	}{
		{"create-table in shorthand", "dynamodb create-table --table-name orders --attribute-definitions AttributeName=id,AttributeType=S AttributeName=n,AttributeType=N " +
			"--key-schema AttributeName=id,KeyType=HASH AttributeName=n,KeyType=RANGE --provisioned-throughput ReadCapacityUnits=5,WriteCapacityUnits=5",
			`{"AttributeDefinitions":[{"AttributeName":"id","AttributeType":"S"},{"AttributeName":"n","AttributeType":"N"}],"KeySchema":[{"AttributeName":"id","KeyType":"HASH"},{"AttributeName":"n","KeyType":"RANGE"}],"ProvisionedThroughput":{"ReadCapacityUnits":5,"WriteCapacityUnits":5},"TableName":"orders"}`,
			"CreateTable", ""},
		{"one list element", "--region eu-west-1 dynamodb create-table --table-name t1 --key-schema AttributeName=id,KeyType=HASH --billing-mode PAY_PER_REQUEST --global-secondary-indexes file://gsi.json",
			`{"BillingMode":"PAY_PER_REQUEST","GlobalSecondaryIndexes":[{"IndexName":"byG","KeySchema":[{"AttributeName":"g","KeyType":"HASH"}],"Projection":{"ProjectionType":"ALL"}}],"KeySchema":[{"AttributeName":"id","KeyType":"HASH"}],"TableName":"t1"}`,
			"CreateTable", ""},
		{"nested shorthand", "dynamodb update-table --table-name t1 --stream-specification StreamEnabled=true,StreamViewType=NEW_IMAGE " +
			"--global-secondary-index-updates Create={IndexName=byH,KeySchema=[{AttributeName=h,KeyType=HASH}],Projection={ProjectionType=KEYS_ONLY}}",
			`{"GlobalSecondaryIndexUpdates":[{"Create":{"IndexName":"byH","KeySchema":[{"AttributeName":"h","KeyType":"HASH"}],"Projection":{"ProjectionType":"KEYS_ONLY"}}}],"StreamSpecification":{"StreamEnabled":true,"StreamViewType":"NEW_IMAGE"},"TableName":"t1"}`,
			"UpdateTable", ""},
		{"JSON item and switches", `dynamodb get-item --table-name t1 --key {"id":{"S":"a"}} --consistent-read --no-return-consumed-capacity`,
			`{"ConsistentRead":true,"Key":{"id":{"S":"a"}},"ReturnConsumedCapacity":false,"TableName":"t1"}`, "GetItem", ""},
		{"numbers", "dynamodb scan --table-name 123 --limit 10", `{"Limit":10,"TableName":"123"}`, "Scan", ""},
		{"cli-input-json", "dynamodb create-table --cli-input-json file://in.json --key-schema AttributeName=id,KeyType=HASH",
			`{"BillingMode":"PAY_PER_REQUEST","KeySchema":[{"AttributeName":"id","KeyType":"HASH"}],"TableName":"fromfile"}`, "CreateTable", ""},
		{"list of strings", "dynamodb untag-resource --resource-arn arn:x --tag-keys a b", `{"ResourceArn":"arn:x","TagKeys":["a","b"]}`, "UntagResource", ""},
		{"query", "dynamodb list-tables --query TableNames", "", "", "--query"},
		{"another service", "s3 mb s3://bucket", "", "", "only \"awslocal dynamodb"},
		{"wait", "dynamodb wait table-exists --table-name t", "", "", "dynamodb wait"},
		{"text output", "dynamodb list-tables --output text", "", "", "only json"},
		{"bad shorthand", "dynamodb create-table --key-schema AttributeName=id,KeyType", "", "", "want key=value"},
		{"missing file", "dynamodb create-table --cli-input-json file://nope.json", "", "", "file does not exist"},
		{"bad number", "dynamodb scan --limit ten", "", "", "not a number"},
		{"bad JSON", `dynamodb get-item --key {"id":}`, "", "", "not JSON"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r, err := parseAWSCLI(strings.Split(tt.args, " "), readFile)
			if tt.wantErr != "" {
				require.ErrorContains(t, err, tt.wantErr)
				return
			}
			require.NoError(t, err)
			require.Equal(t, tt.op, r.op)
			require.JSONEq(t, tt.want, string(appendJSON(nil, r.input, "", 0)))
		})
	}
}

// FuzzAWSCLIValue reads any option value as the native awslocal does: a
// value that writes as JSON, or an error, never a panic.
func FuzzAWSCLIValue(f *testing.F) {
	for _, s := range []string{"AttributeName=id,AttributeType=S", "Create={IndexName=x,KeySchema=[{AttributeName=h,KeyType=HASH}]}",
		`{"a":1}`, "[1,2]", "K=[a,b,'c,d']", "K=\"x", "a=b=c", "K={", "=", "K=-1.5"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		v, err := awsCLIValue(s, func(string) ([]byte, error) { return nil, os.ErrNotExist }, false)
		if err == nil {
			_, perr := parseJSON(string(appendJSON(nil, v, "", 0)))
			require.NoError(t, perr)
		} else {
			require.True(t, errors.Is(err, errAWSCLIUsage) || errors.Is(err, os.ErrNotExist), "%v", err)
		}
	})
}

// TestReadyScriptAgainstEmulator runs a ready.d script written for
// LocalStack ("#!/bin/bash", "awslocal dynamodb create-table" over
// continued lines) as the image runs it: sh and awslocal are this binary
// (links to the test binary, no AWS CLI on PATH), the endpoint and keys
// those the server's -localstack gives its scripts: the table is made and
// listed, and awslocal's output, errors and exit statuses are the CLI's.
func TestReadyScriptAgainstEmulator(t *testing.T) {
	url, _, _ := emulatortest.NewServerWith(t, emulator.Options{})
	t.Setenv("PATH", linkTools(t, "sh", "bash", "awslocal"))
	t.Setenv("AWS_ENDPOINT_URL", url)
	t.Setenv("AWS_ACCESS_KEY_ID", "test")
	t.Setenv("AWS_DEFAULT_REGION", "us-east-1")
	script := filepath.Join(t.TempDir(), "01-tables.sh")
	require.NoError(t, os.WriteFile(script, []byte(`#!/bin/bash
# made by LocalStack users' init scripts
awslocal dynamodb create-table \
    --table-name orders \
    --attribute-definitions AttributeName=pk,AttributeType=S AttributeName=sk,AttributeType=S \
    --key-schema AttributeName=pk,KeyType=HASH AttributeName=sk,KeyType=RANGE \
    --billing-mode PAY_PER_REQUEST > /dev/null
awslocal dynamodb put-item --table-name orders --item '{"pk":{"S":"o#1"},"sk":{"S":"v1"}}'
awslocal dynamodb list-tables
echo "tables made"
`), 0o644))
	var out, errb bytes.Buffer
	require.Equal(t, 0, runShell([]string{script}, &out, &errb), errb.String())
	require.Equal(t, "{\n    \"TableNames\": [\n        \"orders\"\n    ]\n}\ntables made\n", out.String(), "put-item's {} prints nothing")

	out.Reset()
	require.Equal(t, 0, runAwslocal([]string{"dynamodb", "scan", "--table-name", "orders", "--select", "COUNT"}, &out, &errb))
	require.Contains(t, out.String(), "\"Count\": 1,")
	errb.Reset()
	require.Equal(t, 254, runAwslocal([]string{"dynamodb", "describe-table", "--table-name", "nope"}, &out, &errb))
	require.Equal(t, "\nAn error occurred (ResourceNotFoundException) when calling the DescribeTable operation: Requested resource not found: Table: nope not found\n", errb.String())
	require.Equal(t, 252, runAwslocal([]string{"s3", "ls"}, &out, &errb))
	t.Setenv("AWS_ENDPOINT_URL", "http://127.0.0.1:1")
	require.Equal(t, 255, runAwslocal([]string{"dynamodb", "list-tables"}, &out, &errb))
}
