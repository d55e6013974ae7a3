package conformance

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	v4 "github.com/aws/aws-sdk-go-v2/aws/signer/v4"
)

// rawResult is rawResponse with the response headers.
type rawResult struct {
	rawResponse
	Header http.Header
}

// rawSend is rawCall with a binary body and extra request headers (a
// Content-Encoding, say), returning the response headers too.
func rawSend(t testing.TB, op string, body []byte, headers map[string]string) rawResult {
	t.Helper()
	tg := target(t)
	if tg.URL == "" {
		t.Skip("raw requests need DYNAMODB_ENDPOINT")
	}
	req, err := http.NewRequest(http.MethodPost, tg.URL+"/", bytes.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/x-amz-json-1.0")
	if op != "" {
		req.Header.Set("X-Amz-Target", "DynamoDB_20120810."+op)
	}
	for k, v := range headers {
		req.Header.Set(k, v)
	}
	sum := sha256.Sum256(body)
	creds := aws.Credentials{AccessKeyID: defaultAccessKey, SecretAccessKey: "fakesecret"}
	if err := v4.NewSigner().SignHTTP(ctx(t), creds, req, hex.EncodeToString(sum[:]), "dynamodb", defaultRegion, time.Now()); err != nil {
		t.Fatal(err)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatalf("%s: %v", op, err)
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	r := rawResult{rawResponse: rawResponse{Status: resp.StatusCode, Body: data}, Header: resp.Header}
	var e struct {
		Type     string `json:"__type"`
		Message  string `json:"message"`
		MessageU string `json:"Message"`
	}
	if json.Unmarshal(bytes.TrimSpace(data), &e) == nil {
		r.Type = e.Type[strings.LastIndex(e.Type, "#")+1:]
		r.Message = e.Message + e.MessageU
	}
	return r
}
