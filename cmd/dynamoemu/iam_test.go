package main

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	v4 "github.com/aws/aws-sdk-go-v2/aws/signer/v4"
	"github.com/stretchr/testify/require"

	"github.com/dynamoemu/dynamoemu/emulator"
)

// iamJSON gives AKIAME an identity allowed nothing on the data plane.
const iamJSON = `{"identities": [{"accessKeyId": "AKIAME", "arn": "arn:aws:iam::000000000000:user/me",
  "policies": [{"Version": "2012-10-17", "Statement": [{"Effect": "Allow", "Action": ["dynamodb:Query", "dynamodb:CreateTable"], "Resource": "*"}]}]}]}`

// TestLoadIAMPolicies: the file goes into Options.IAM; without
// -credentials, or with a key they do not list, a policy that does not
// parse or one naming a condition key the emulator does not set, it is
// refused.
func TestLoadIAMPolicies(t *testing.T) {
	dir := t.TempDir()
	write := func(name, data string) string {
		f := filepath.Join(dir, name)
		require.NoError(t, os.WriteFile(f, []byte(data), 0o600))
		return f
	}
	creds, tokens, err := parseCredentials([]byte(credentialsJSON))
	require.NoError(t, err)
	opts := emulator.Options{Credentials: creds, AdminTokens: tokens}
	require.NoError(t, loadIAMPolicies(write("ok.json", iamJSON), &opts))
	require.Equal(t, "AKIAME", opts.IAM.Identities[0].AccessKeyID)
	require.NoError(t, loadIAMPolicies("", &emulator.Options{}), "off")

	require.ErrorContains(t, loadIAMPolicies(write("x.json", iamJSON), &emulator.Options{}), "needs -credentials")
	bad := []struct{ name, file, want string }{
		{"not JSON", `identities`, "not the JSON"},
		{"unknown key", `{"identities": [{"accessKeyId": "AKIAOTHER", "arn": "arn:aws:iam::000000000000:user/o"}]}`, "not one of the credentials"},
		{"bad policy", `{"identities": [{"accessKeyId": "AKIAME", "arn": "arn:aws:iam::000000000000:user/me", "policies": [{"Statement": "x"}]}]}`, "policy 1"},
		{"unknown condition key", `{"identities": [{"accessKeyId": "AKIAME", "arn": "arn:aws:iam::000000000000:user/me", "policies": [{"Statement":
			[{"Effect": "Allow", "Action": "dynamodb:*", "Resource": "*", "Condition": {"StringEquals": {"aws:SourceVpce": "vpce-1"}}}]}]}]}`, `condition key "aws:SourceVpce"`},
	}
	for _, tt := range bad {
		o := emulator.Options{Credentials: creds}
		require.ErrorContains(t, loadIAMPolicies(write(tt.name+".json", tt.file), &o), tt.want, tt.name)
	}
	require.ErrorContains(t, loadIAMPolicies(filepath.Join(dir, "missing.json"), &emulator.Options{Credentials: creds}), "-iamPolicies")
}

// TestRunIAMPolicies: dynamoemu -credentials FILE -iamPolicies FILE
// decides the requests of a key with an identity: its policy allows
// CreateTable and Query; its DescribeTable and GetItem are
// AccessDeniedException.
func TestRunIAMPolicies(t *testing.T) {
	dir := t.TempDir()
	credFile, iamFile := filepath.Join(dir, "credentials.json"), filepath.Join(dir, "iam.json")
	require.NoError(t, os.WriteFile(credFile, []byte(credentialsJSON), 0o600))
	require.NoError(t, os.WriteFile(iamFile, []byte(iamJSON), 0o600))
	ready := make(chan string, 1)
	done := make(chan error, 1)
	go func() {
		done <- run([]string{"-port", "0", "-credentials", credFile, "-iamPolicies", iamFile, "-console=false"}, io.Discard, io.Discard, ready)
	}()
	var addr string
	select {
	case addr = <-ready:
	case err := <-done:
		t.Fatalf("run: %v", err)
	case <-time.After(hangBound):
		t.Fatal("server did not start")
	}
	call := func(key, secret, target, body string) (int, string) {
		req, err := http.NewRequest(http.MethodPost, "http://"+addr+"/", bytes.NewReader([]byte(body)))
		require.NoError(t, err)
		req.Header.Set("Content-Type", "application/x-amz-json-1.0")
		req.Header.Set("X-Amz-Target", "DynamoDB_20120810."+target)
		sum := sha256.Sum256([]byte(body))
		require.NoError(t, v4.NewSigner().SignHTTP(context.Background(), aws.Credentials{AccessKeyID: key, SecretAccessKey: secret},
			req, hex.EncodeToString(sum[:]), "dynamodb", "us-east-1", time.Now()))
		res, err := http.DefaultClient.Do(req)
		require.NoError(t, err)
		defer res.Body.Close()
		out, err := io.ReadAll(res.Body)
		require.NoError(t, err)
		return res.StatusCode, string(out)
	}
	// AKIAME has no namespace: its own database. Its policy lets it
	// create a table and query it, not describe it or read an item.
	status, body := call("AKIAME", "my-secret", "CreateTable", `{"TableName":"tbl","BillingMode":"PAY_PER_REQUEST",
		"AttributeDefinitions":[{"AttributeName":"pk","AttributeType":"S"}],"KeySchema":[{"AttributeName":"pk","KeyType":"HASH"}]}`)
	require.Equal(t, 200, status, body)
	status, body = call("AKIAME", "my-secret", "DescribeTable", `{"TableName":"tbl"}`)
	require.Equal(t, 400, status, body)
	require.Contains(t, body, "is not authorized to perform: dynamodb:DescribeTable on resource: arn:aws:dynamodb:us-east-1:000000000000:table/tbl")
	status, body = call("AKIAME", "my-secret", "GetItem", `{"TableName":"tbl","Key":{"pk":{"S":"a"}}}`)
	require.Equal(t, 400, status, body)
	require.Contains(t, body, "AccessDeniedException")
	require.Contains(t, body, "User: arn:aws:iam::000000000000:user/me is not authorized to perform: dynamodb:GetItem on resource: arn:aws:dynamodb:us-east-1:000000000000:table/tbl because no identity-based policy allows the dynamodb:GetItem action")
	status, body = call("AKIAME", "my-secret", "Query", `{"TableName":"tbl","KeyConditionExpression":"pk = :p","ExpressionAttributeValues":{":p":{"S":"a"}}}`)
	require.Equal(t, 200, status, body)

	require.NoError(t, syscall.Kill(syscall.Getpid(), syscall.SIGTERM))
	select {
	case err := <-done:
		require.NoError(t, err)
	case <-time.After(hangBound):
		t.Fatal("server did not stop on SIGTERM")
	}
}
