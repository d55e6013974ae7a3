package conventionscheck

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	v4 "github.com/aws/aws-sdk-go-v2/aws/signer/v4"
	"github.com/stretchr/testify/require"

	"github.com/dynamoemu/dynamoemu/emulator"
	"github.com/dynamoemu/dynamoemu/emulator/emulatortest"
	"github.com/dynamoemu/dynamoemu/internal/storage"
)

// TestSignV4MatchesSDK signs requests as the AWS SDK for Go's signer does
// (the SDK is the reference here; the check's binary does not link it).
func TestSignV4MatchesSDK(t *testing.T) {
	at := time.Date(2026, 11, 26, 9, 30, 5, 0, time.UTC)
	tests := []struct {
		name, url string
		keys      awsKeys
		region    string
	}{
		{"local", "http://127.0.0.1:8000", awsKeys{accessKey: "AKIDEXAMPLE", secretKey: "secret"}, "us-east-1"},
		{"aws with a session token", "https://dynamodb.eu-west-1.amazonaws.com/", awsKeys{accessKey: "ASIA1", secretKey: "s/+x", sessionToken: "tok=="}, "eu-west-1"},
		{"a path", "http://localhost:4566/some/path", awsKeys{accessKey: "k", secretKey: "s"}, "ap-northeast-1"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			body := []byte(`{"TableName":"t","ConsistentRead":true}`)
			mk := func() *http.Request {
				req, err := http.NewRequest(http.MethodPost, tt.url, bytes.NewReader(body))
				require.NoError(t, err)
				req.Header.Set("Content-Type", "application/x-amz-json-1.0")
				req.Header.Set("X-Amz-Target", "DynamoDB_20120810.Scan")
				return req
			}
			got := mk()
			signV4(got, body, tt.keys, tt.region, "dynamodb", at)
			want := mk()
			if tt.keys.sessionToken != "" {
				want.Header.Set("X-Amz-Security-Token", tt.keys.sessionToken)
			}
			sum := sha256Hex(body)
			err := v4.NewSigner().SignHTTP(context.Background(), aws.Credentials{AccessKeyID: tt.keys.accessKey,
				SecretAccessKey: tt.keys.secretKey, SessionToken: tt.keys.sessionToken}, want, sum, "dynamodb", tt.region, at)
			require.NoError(t, err)
			require.Equal(t, want.Header.Get("Authorization"), got.Header.Get("Authorization"))
			require.Equal(t, want.Header.Get("X-Amz-Date"), got.Header.Get("X-Amz-Date"))
		})
	}
}

// TestCheckVerifiedSignatures runs the check against an emulator that
// verifies every signature (Options.Credentials): the right secret passes,
// a wrong one is refused with the emulator's signature error.
func TestCheckVerifiedSignatures(t *testing.T) {
	url, _, _ := emulatortest.NewServerWith(t, emulator.Options{SharedDB: true,
		Credentials: []emulator.Credential{{AccessKeyID: "AKIDCHECK", SecretAccessKey: "s3cret/key+x"}}})
	db, err := newClient(url, "us-east-1", "AKIDCHECK", "s3cret/key+x", func(string) string { return "" })
	require.NoError(t, err)
	ctx := context.Background()
	var created map[string]any
	require.NoError(t, db.call(ctx, "CreateTable", map[string]any{"TableName": "app-x-command",
		"AttributeDefinitions": []map[string]string{{"AttributeName": "pk", "AttributeType": "S"}, {"AttributeName": "sk", "AttributeType": "S"}},
		"KeySchema":            []map[string]string{{"AttributeName": "pk", "KeyType": "HASH"}, {"AttributeName": "sk", "KeyType": "RANGE"}},
		"BillingMode":          "PAY_PER_REQUEST"}, &created))
	for i := range 3 {
		var out map[string]any
		require.NoError(t, db.call(ctx, "PutItem", map[string]any{"TableName": "app-x-command", "Item": map[string]any{
			"pk": map[string]string{"S": "X#t"}, "sk": map[string]string{"S": "X#1@" + string(rune('1'+i))},
			"version": map[string]string{"N": string(rune('1' + i))}, "tags": map[string][]string{"SS": {"a", "b"}}}}, &out))
	}
	dir := t.TempDir()
	cfg := filepath.Join(dir, "c.json")
	require.NoError(t, os.WriteFile(cfg, []byte(`{"tables":[{"match":"*-command","role":"command"}]}`), 0o600))
	var out, errOut bytes.Buffer
	err = Run(ctx, []string{"check", "--endpoint", url, "--config", cfg, "--accessKey", "AKIDCHECK", "--secretKey", "s3cret/key+x"}, &out, &errOut)
	require.NoError(t, err, "stdout %s stderr %s", out.String(), errOut.String())
	require.Equal(t, "0 violations in 1 tables: 0 errors, 0 warnings\n", out.String())

	err = Run(ctx, []string{"check", "--endpoint", url, "--config", cfg, "--accessKey", "AKIDCHECK", "--secretKey", "wrong"}, &out, &errOut)
	require.Error(t, err)
	require.Equal(t, ExitError, ExitCode(err))
	require.Contains(t, err.Error(), "InvalidSignatureException")
}

func TestScanAllPages(t *testing.T) {
	url, _, _ := emulatortest.NewServerWith(t, emulator.Options{})
	db, err := newClient(url, "us-east-1", "AKIDPAGES", "x", func(string) string { return "" })
	require.NoError(t, err)
	ctx := context.Background()
	var o map[string]any
	require.NoError(t, db.call(ctx, "CreateTable", map[string]any{"TableName": "pages",
		"AttributeDefinitions": []map[string]string{{"AttributeName": "pk", "AttributeType": "S"}},
		"KeySchema":            []map[string]string{{"AttributeName": "pk", "KeyType": "HASH"}},
		"BillingMode":          "PAY_PER_REQUEST"}, &o))
	pad := strings.Repeat("x", 300<<10) // four items of 300 KB: more than one 1 MB page
	for _, k := range []string{"a", "b", "c", "d"} {
		require.NoError(t, db.call(ctx, "PutItem", map[string]any{"TableName": "pages", "Item": map[string]any{
			"pk": map[string]string{"S": k}, "pad": map[string]string{"S": pad},
			"m": map[string]any{"M": map[string]any{"l": map[string]any{"L": []any{map[string]bool{"BOOL": true}, map[string]bool{"NULL": true}}},
				"b": map[string]string{"B": "AAE="}, "ns": map[string][]string{"NS": {"1", "2.5"}}}}}}, &o))
	}
	items, err := db.scanAll(ctx, "pages")
	require.NoError(t, err)
	require.Len(t, items, 4)
	m := items[0]["m"]
	require.Equal(t, storage.KindM, m.Kind())
	require.Equal(t, storage.KindL, m.Map()["l"].Kind())
	require.Equal(t, []byte{0, 1}, m.Map()["b"].Bytes())
	require.Equal(t, storage.KindNS, m.Map()["ns"].Kind())
	names, err := db.listTables(ctx)
	require.NoError(t, err)
	require.Equal(t, []string{"pages"}, names)
}

func TestResolveCredentials(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "credentials")
	require.NoError(t, os.WriteFile(file, []byte("[default]\naws_access_key_id = AKDEF\naws_secret_access_key=sdef\n\n[dev]\naws_access_key_id=AKDEV\naws_secret_access_key = sdev\naws_session_token = tdev\n"), 0o600))
	env := func(kv ...string) func(string) string {
		m := map[string]string{}
		for i := 0; i+1 < len(kv); i += 2 {
			m[kv[i]] = kv[i+1]
		}
		return func(k string) string { return m[k] }
	}
	tests := []struct {
		name      string
		local     bool
		accessKey string
		getenv    func(string) string
		want      awsKeys
		wantErr   string
	}{
		{"flags win", false, "AKFLAG", env("AWS_ACCESS_KEY_ID", "AKENV"), awsKeys{accessKey: "AKFLAG", secretKey: "flagsecret"}, ""},
		{"environment", true, "", env("AWS_ACCESS_KEY_ID", "AKENV", "AWS_SECRET_ACCESS_KEY", "senv", "AWS_SESSION_TOKEN", "tenv"), awsKeys{"AKENV", "senv", "tenv"}, ""},
		{"local default", true, "", env("AWS_SHARED_CREDENTIALS_FILE", file), awsKeys{accessKey: "dynamoemu", secretKey: "flagsecret"}, ""},
		{"default profile for AWS", false, "", env("AWS_SHARED_CREDENTIALS_FILE", file), awsKeys{"AKDEF", "sdef", ""}, ""},
		{"named profile", true, "", env("AWS_SHARED_CREDENTIALS_FILE", file, "AWS_PROFILE", "dev"), awsKeys{"AKDEV", "sdev", "tdev"}, ""},
		{"missing profile", true, "", env("AWS_SHARED_CREDENTIALS_FILE", file, "AWS_PROFILE", "nope"), awsKeys{}, `AWS_PROFILE "nope"`},
		{"nothing for AWS", false, "", env("HOME", dir), awsKeys{}, "no credentials for AWS"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := resolveCredentials(tt.local, tt.accessKey, "flagsecret", tt.getenv)
			if tt.wantErr != "" {
				require.ErrorContains(t, err, tt.wantErr)
				return
			}
			require.NoError(t, err)
			require.Equal(t, tt.want, got)
		})
	}
}

func TestErrorOf(t *testing.T) {
	tests := []struct {
		name   string
		status int
		body   string
		want   apiError
	}{
		{"namespaced type", 400, `{"__type":"com.amazonaws.dynamodb.v20120810#ResourceNotFoundException","message":"Requested resource not found"}`,
			apiError{400, "ResourceNotFoundException", "Requested resource not found"}},
		{"Message", 400, `{"__type":"com.amazon.coral.service#UnrecognizedClientException","Message":"The security token included in the request is invalid."}`,
			apiError{400, "UnrecognizedClientException", "The security token included in the request is invalid."}},
		{"not JSON", 502, `<html>bad gateway</html>`, apiError{502, "Bad Gateway", "<html>bad gateway</html>"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			require.Equal(t, tt.want, *errorOf(tt.status, []byte(tt.body)))
		})
	}
	require.True(t, (&apiError{Status: 400, Type: "ThrottlingException"}).retryable())
	require.False(t, (&apiError{Status: 400, Type: "ValidationException"}).retryable())
}

// FuzzAttributeValue decodes any JSON as an item of a Scan answer: it is
// refused or becomes storage values, never a panic.
func FuzzAttributeValue(f *testing.F) {
	for _, s := range []string{`{"a":{"S":"x"}}`, `{"a":{"N":"1e3"}}`, `{"a":{"M":{"b":{"L":[{"NULL":true},{"BS":["AA=="]}]}}}}`,
		`{"a":{"NS":["x"]}}`, `{"a":{}}`, `{"a":{"B":"!"}}`, `{"a":{"SS":[]}}`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		var it map[string]attributeValue
		if json.Unmarshal(data, &it) != nil {
			return
		}
		for _, v := range it {
			_ = v.value().Kind()
		}
	})
}

func sha256Hex(b []byte) string { return hashHex(b) }
