package doccheck

import (
	"net/http"
	"net/http/httptest"
	"reflect"
	"regexp"
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodbstreams"
	"github.com/stretchr/testify/require"

	"github.com/dynamoemu/dynamoemu/emulator"
)

// sdkOperations returns the operation names of an aws-sdk-go-v2 client:
// its methods taking a *<Op>Input.
func sdkOperations(client any) []string {
	var names []string
	typ := reflect.TypeOf(client)
	for i := range typ.NumMethod() {
		m := typ.Method(i)
		if m.Type.NumIn() == 4 && m.Type.In(2).Kind() == reflect.Pointer && m.Type.In(2).Elem().Name() == m.Name+"Input" {
			names = append(names, m.Name)
		}
	}
	return names
}

// answers reports whether the emulator has a handler for target: any
// answer but UnknownOperationException (an empty body mostly gets a
// validation error, which is an answer).
func answers(t *testing.T, h http.Handler, target string) bool {
	t.Helper()
	req := httptest.NewRequest(http.MethodPost, "/", strings.NewReader("{}"))
	req.Header.Set("X-Amz-Target", target)
	req.Header.Set("Content-Type", "application/x-amz-json-1.0")
	req.Header.Set("Authorization", "AWS4-HMAC-SHA256 Credential=doccheck/20260101/us-east-1/dynamodb/aws4_request, SignedHeaders=host, Signature=0")
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	return !strings.Contains(rec.Body.String(), "UnknownOperationException")
}

// compatibilityNames returns the operation names the first column of
// docs/compatibility.md's table names, with its shorthand expanded:
// "Enable/Disable/DescribeKinesisStreamingDestination" names three.
func compatibilityNames(table string) map[string]string {
	out := map[string]string{}
	word := regexp.MustCompile(`[A-Z][A-Za-z/]+`)
	verb := regexp.MustCompile(`^([A-Z][a-z]+)(.*)$`)
	for _, l := range strings.Split(table, "\n") {
		cells := strings.Split(l, "|")
		if len(cells) < 3 {
			continue
		}
		first, status := cells[1], cells[2]
		for _, w := range word.FindAllString(first, -1) {
			parts := strings.Split(w, "/")
			last := parts[len(parts)-1]
			rest := ""
			if m := verb.FindStringSubmatch(last); m != nil && len(parts) > 1 {
				rest = m[2]
			}
			for i, p := range parts {
				if i < len(parts)-1 {
					p += rest
				}
				out[p] = status
			}
		}
		// The Streams row names its operations in the status column.
		if strings.Contains(first, "Streams") {
			for _, w := range word.FindAllString(status, -1) {
				out[w] = status
			}
		}
	}
	return out
}

// TestCompatibilityTable: docs/compatibility.md names every operation of
// the SDK's DynamoDB and DynamoDB Streams clients, and says "not yet" of
// none the emulator answers (and of every one it does not).
func TestCompatibilityTable(t *testing.T) {
	e, err := emulator.New(emulator.Options{})
	require.NoError(t, err)
	t.Cleanup(func() { e.Close() })
	h := e.Handler()
	names := compatibilityNames(read(t, "docs/compatibility.md"))
	var unnamed []string
	check := func(op, target string) {
		status, ok := names[op]
		if !ok {
			unnamed = append(unnamed, op)
			return
		}
		notYet := strings.Contains(status, "not yet") || strings.Contains(status, "UnknownOperationException")
		if answers(t, h, target) {
			require.False(t, notYet, "docs/compatibility.md says %s is not implemented, but the emulator answers it", op)
		} else {
			require.True(t, notYet, "the emulator does not answer %s, but docs/compatibility.md does not say so", op)
		}
	}
	ddb := sdkOperations(&dynamodb.Client{})
	require.Greater(t, len(ddb), 50)
	for _, op := range ddb {
		check(op, "DynamoDB_20120810."+op)
	}
	for _, op := range sdkOperations(&dynamodbstreams.Client{}) {
		check(op, "DynamoDBStreams_20120810."+op)
	}
	require.Empty(t, unnamed, "docs/compatibility.md names none of these operations")
}
