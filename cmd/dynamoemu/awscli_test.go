package main

import (
	"encoding/json"
	"errors"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
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
			got, err := json.Marshal(r.input)
			require.NoError(t, err)
			require.JSONEq(t, tt.want, string(got))
		})
	}
}

// FuzzAWSCLIValue reads any option value as the native awslocal does: a
// value or an error, never a panic.
func FuzzAWSCLIValue(f *testing.F) {
	for _, s := range []string{"AttributeName=id,AttributeType=S", "Create={IndexName=x,KeySchema=[{AttributeName=h,KeyType=HASH}]}",
		`{"a":1}`, "[1,2]", "K=[a,b,'c,d']", "K=\"x", "a=b=c", "K={", "=", "K=-1.5"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		v, err := awsCLIValue(s, func(string) ([]byte, error) { return nil, os.ErrNotExist }, false)
		if err == nil {
			_, err = json.Marshal(v)
			require.NoError(t, err)
		} else {
			require.True(t, errors.Is(err, errAWSCLIUsage) || errors.Is(err, os.ErrNotExist), "%v", err)
		}
	})
}

// TestLocalstackScriptWithoutAWSCLI runs a ready.d script written for
// LocalStack ("#!/bin/bash", "awslocal dynamodb create-table" over
// continued lines) as the image runs it: sh, bash and awslocal are the
// binary (here the test binary, a server child by its environment), and no
// AWS CLI is on PATH.
func TestLocalstackScriptWithoutAWSCLI(t *testing.T) {
	bin := t.TempDir()
	self, err := os.Executable()
	require.NoError(t, err)
	for _, n := range []string{"sh", "bash", "awslocal"} {
		require.NoError(t, os.Symlink(self, filepath.Join(bin, n)))
	}
	t.Setenv("PATH", bin)
	t.Setenv(childEnv, "server")
	for _, k := range []string{"AWS_ENDPOINT_URL", "AWS_ACCESS_KEY_ID", "AWS_DEFAULT_REGION", "AWS_REGION"} {
		t.Setenv(k, "")
	}
	dir := t.TempDir()
	script := `#!/bin/bash
# made by LocalStack users' init scripts
awslocal dynamodb create-table \
    --table-name orders \
    --attribute-definitions AttributeName=pk,AttributeType=S AttributeName=sk,AttributeType=S \
    --key-schema AttributeName=pk,KeyType=HASH AttributeName=sk,KeyType=RANGE \
    --billing-mode PAY_PER_REQUEST
awslocal dynamodb put-item --table-name orders --item '{"pk":{"S":"o#1"},"sk":{"S":"v1"}}'
echo "tables made"
`
	require.NoError(t, os.WriteFile(filepath.Join(dir, "01-tables.sh"), []byte(script), 0o644))
	require.NoError(t, os.WriteFile(filepath.Join(dir, "02-bad.sh"), []byte("awslocal dynamodb describe-table --table-name nope\n"), 0o644))

	addr, stdout, _ := startServerOut(t, "-localstack", "-localstackInit", dir)
	deadline := time.Now().Add(hangBound)
	for !strings.Contains(stdout.String(), "Ready.") {
		require.True(t, time.Now().Before(deadline), "no Ready.")
		time.Sleep(10 * time.Millisecond)
	}
	res, err := http.Get("http://" + addr + "/_localstack/init/ready")
	require.NoError(t, err)
	var st struct{ Scripts []initScript }
	require.NoError(t, json.NewDecoder(res.Body).Decode(&st))
	res.Body.Close()
	require.Equal(t, []initScript{{"READY", "01-tables.sh", "SUCCESSFUL"}, {"READY", "02-bad.sh", "ERROR"}}, st.Scripts)

	// The table, seen as the AWS CLI on 4566 sees it (LocalStack's test key).
	var out struct {
		Table struct {
			TableStatus string
			KeySchema   []struct{ AttributeName, KeyType string }
			ItemCount   int
		}
	}
	status := callJSON(t, "http://"+addr, "test", "DescribeTable", `{"TableName":"orders"}`, &out)
	require.Equal(t, http.StatusOK, status)
	require.Equal(t, "ACTIVE", out.Table.TableStatus)
	require.Len(t, out.Table.KeySchema, 2)
	var scan struct{ Count int }
	require.Equal(t, http.StatusOK, callJSON(t, "http://"+addr, "test", "Scan", `{"TableName":"orders"}`, &scan))
	require.Equal(t, 1, scan.Count)
}

// callJSON sends op with body under accessKey (region us-east-1) and
// decodes the answer into out; it returns the status.
func callJSON(t *testing.T, url, accessKey, op, body string, out any) int {
	t.Helper()
	req, err := http.NewRequest(http.MethodPost, url+"/", strings.NewReader(body))
	require.NoError(t, err)
	req.Header.Set("X-Amz-Target", "DynamoDB_20120810."+op)
	req.Header.Set("Content-Type", "application/x-amz-json-1.0")
	req.Header.Set("Authorization", "AWS4-HMAC-SHA256 Credential="+accessKey+"/20260101/us-east-1/dynamodb/aws4_request, SignedHeaders=host, Signature=0")
	res, err := http.DefaultClient.Do(req)
	require.NoError(t, err)
	defer res.Body.Close()
	require.NoError(t, json.NewDecoder(res.Body).Decode(out))
	return res.StatusCode
}
