package lambdaesm

import (
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// Lambda's REST API for the mappings, as the AWS CLI and the SDKs'
// Lambda clients send it (API version 2015-03-31).

// apiCall sends method path body to the Manager's API and returns the
// status, the X-Amzn-ErrorType and the body.
func apiCall(t *testing.T, url, method, path, body string) (int, string, string) {
	t.Helper()
	req, err := http.NewRequest(method, url+path, strings.NewReader(body))
	require.NoError(t, err)
	req.Header.Set("Content-Type", "application/json")
	resp, err := http.DefaultClient.Do(req)
	require.NoError(t, err)
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	require.NoError(t, err)
	return resp.StatusCode, resp.Header.Get("X-Amzn-ErrorType"), string(b)
}

// TestAPILifecycle: create (202, Creating), get, list, update (202,
// Updating), delete (202, Deleting), then 404.
func TestAPILifecycle(t *testing.T) {
	e := newESMEnv(t)
	srv := httptest.NewServer(e.m)
	t.Cleanup(srv.Close)

	status, _, body := apiCall(t, srv.URL, http.MethodPost, APIPrefix+"/", `{"EventSourceArn":"`+e.arn+`","FunctionName":"fn",
		"StartingPosition":"TRIM_HORIZON","BatchSize":1,"FunctionResponseTypes":["ReportBatchItemFailures"],"MaximumRetryAttempts":2,
		"DestinationConfig":{"OnFailure":{"Destination":"arn:aws:sqs:us-east-1:000000000000:dlq"}},"UUID":"ignored"}`)
	require.Equal(t, http.StatusAccepted, status, body)
	var c Configuration
	require.NoError(t, json.Unmarshal([]byte(body), &c))
	require.Equal(t, "Creating", c.State)
	require.NotEqual(t, "ignored", c.UUID, "the API makes the UUID")
	require.Regexp(t, uuidPattern, c.UUID)
	require.Equal(t, []string{reportBatchItemFailures}, c.FunctionResponseTypes)
	require.Equal(t, "arn:aws:sqs:us-east-1:000000000000:dlq", *c.DestinationConfig.OnFailure.Destination)

	status, _, body = apiCall(t, srv.URL, http.MethodGet, APIPrefix+"/"+c.UUID, "")
	require.Equal(t, http.StatusOK, status)
	var got Configuration
	require.NoError(t, json.Unmarshal([]byte(body), &got))
	require.Equal(t, "Enabled", got.State)
	require.EqualValues(t, 2, got.MaximumRetryAttempts)

	status, _, body = apiCall(t, srv.URL, http.MethodPut, APIPrefix+"/"+c.UUID, `{"BatchSize":5,"Enabled":false}`)
	require.Equal(t, http.StatusAccepted, status, body)
	require.NoError(t, json.Unmarshal([]byte(body), &got))
	require.Equal(t, "Updating", got.State)
	require.EqualValues(t, 5, got.BatchSize)

	status, _, body = apiCall(t, srv.URL, http.MethodDelete, APIPrefix+"/"+c.UUID, "")
	require.Equal(t, http.StatusAccepted, status, body)
	require.NoError(t, json.Unmarshal([]byte(body), &got))
	require.Equal(t, "Deleting", got.State)

	status, typ, body := apiCall(t, srv.URL, http.MethodGet, APIPrefix+"/"+c.UUID, "")
	require.Equal(t, http.StatusNotFound, status)
	require.Equal(t, "ResourceNotFoundException", typ)
	require.JSONEq(t, `{"Type":"User","Message":"The resource you requested does not exist."}`, body)
}

// TestAPIListPages: ListEventSourceMappings filters by stream and
// function and pages with Marker and MaxItems.
func TestAPIListPages(t *testing.T) {
	e := newESMEnv(t)
	srv := httptest.NewServer(e.m)
	t.Cleanup(srv.Close)
	var ids []string
	for _, fn := range []string{"a", "b", "a", "a"} {
		ids = append(ids, e.create(func(s *Spec) { s.FunctionName = ptr(fn) }))
	}
	type page struct {
		EventSourceMappings []Configuration
		NextMarker          string
	}
	list := func(query string) page {
		status, _, body := apiCall(t, srv.URL, http.MethodGet, APIPrefix+"/?"+query, "")
		require.Equal(t, http.StatusOK, status, body)
		var p page
		require.NoError(t, json.Unmarshal([]byte(body), &p))
		return p
	}
	p := list("FunctionName=a&MaxItems=2")
	require.Len(t, p.EventSourceMappings, 2)
	require.Equal(t, ids[0], p.EventSourceMappings[0].UUID)
	require.Equal(t, ids[2], p.EventSourceMappings[1].UUID)
	require.NotEmpty(t, p.NextMarker)
	p = list("FunctionName=a&MaxItems=2&Marker=" + p.NextMarker)
	require.Len(t, p.EventSourceMappings, 1)
	require.Equal(t, ids[3], p.EventSourceMappings[0].UUID)
	require.Empty(t, p.NextMarker)
	require.Len(t, list("EventSourceArn="+e.arn).EventSourceMappings, 4)
	require.Empty(t, list("FunctionName=c").EventSourceMappings)

	for _, q := range []string{"Marker=x", "Marker=-1", "Marker=99", "MaxItems=0", "MaxItems=10001", "MaxItems=x"} {
		status, typ, _ := apiCall(t, srv.URL, http.MethodGet, APIPrefix+"/?"+q, "")
		require.Equal(t, http.StatusBadRequest, status, q)
		require.Equal(t, "InvalidParameterValueException", typ, q)
	}
}

// TestAPIErrors: Lambda's REST errors: the status, X-Amzn-ErrorType and
// {"Type":"User","Message":...}; AWS's request validation's
// ValidationException {"message":...}; a body over MaxAPIBody 413
// RequestEntityTooLargeException {"Message":...}.
func TestAPIErrors(t *testing.T) {
	e := newESMEnv(t)
	srv := httptest.NewServer(e.m)
	t.Cleanup(srv.Close)
	cases := []struct {
		method, path, body string
		status             int
		typ                string
	}{
		{http.MethodPost, APIPrefix, `{"FunctionName":`, 400, "SerializationException"},
		{http.MethodPost, APIPrefix, `{"EventSourceArn":"` + e.arn + `","FunctionName":"fn","StartingPosition":"LATEST","BatchSize":0}`, 400, "ValidationException"},
		{http.MethodPost, APIPrefix, `{"FunctionName":"fn","StartingPosition":"LATEST"}`, 400, "InvalidParameterValueException"},
		{http.MethodPost, APIPrefix, ``, 400, "InvalidParameterValueException"},
		{http.MethodPost, APIPrefix, `{"x":"` + strings.Repeat("y", MaxAPIBody) + `"}`, 413, "RequestEntityTooLargeException"},
		{http.MethodPut, APIPrefix + "/nope", `{"BatchSize":1}`, 404, "ResourceNotFoundException"},
		{http.MethodDelete, APIPrefix + "/nope", ``, 404, "ResourceNotFoundException"},
		{http.MethodPatch, APIPrefix + "/nope", ``, 404, "UnknownOperationException"},
		{http.MethodGet, APIPrefix + "/a/b", ``, 404, "UnknownOperationException"},
		{http.MethodDelete, APIPrefix, ``, 404, "UnknownOperationException"},
	}
	for _, tc := range cases {
		status, typ, body := apiCall(t, srv.URL, tc.method, tc.path, tc.body)
		require.Equal(t, tc.status, status, "%s %s: %s", tc.method, tc.path, body)
		require.Equal(t, tc.typ, typ, "%s %s", tc.method, tc.path)
		var doc map[string]string
		require.NoError(t, json.Unmarshal([]byte(body), &doc), body)
		switch tc.typ {
		case "ValidationException":
			require.NotEmpty(t, doc["message"], body)
			require.Len(t, doc, 1, body)
		case "RequestEntityTooLargeException":
			require.Equal(t, map[string]string{"Message": "Request must be smaller than 262144 bytes for the CreateEventSourceMapping operation"}, doc)
		default:
			require.Equal(t, "User", doc["Type"], body)
			require.NotEmpty(t, doc["Message"], body)
		}
	}
	require.Empty(t, e.m.List("", ""), "no mapping made")
}
