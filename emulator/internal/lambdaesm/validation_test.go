package lambdaesm

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/require"
)

// The API's validation as Lambda's API reference gives it, over the REST
// API as the AWS CLI sends it: the stream an EventSourceArn names must
// exist, FunctionName takes each of its name formats (its qualifier kept
// in FunctionArn), TumblingWindowInSeconds takes 0 to 900, and a mapping
// takes at most the filter quota (5 by default).

// filters is a FilterCriteria of n patterns.
func filters(n int) string {
	parts := make([]string, n)
	for i := range parts {
		parts[i] = `{"Pattern":"{\"eventName\":[\"E` + strconv.Itoa(i) + `\"]}"}`
	}
	return `{"Filters":[` + strings.Join(parts, ",") + `]}`
}

func TestAPIValidation(t *testing.T) {
	e := newESMEnv(t)
	srv := httptest.NewServer(e.m)
	t.Cleanup(srv.Close)
	create := func(extra string) (int, string, string) {
		return apiCall(t, srv.URL, http.MethodPost, APIPrefix+"/",
			`{"EventSourceArn":"`+e.arn+`","FunctionName":"fn","StartingPosition":"LATEST"`+extra+`}`)
	}
	config := func(body string) Configuration {
		var c Configuration
		require.NoError(t, json.Unmarshal([]byte(body), &c), body)
		return c
	}

	t.Run("a stream that does not exist", func(t *testing.T) {
		missing := "arn:aws:dynamodb:us-east-1:000000000000:table/nope/stream/2026-11-27T00:00:00.000"
		status, typ, body := apiCall(t, srv.URL, http.MethodPost, APIPrefix+"/",
			`{"EventSourceArn":"`+missing+`","FunctionName":"fn","StartingPosition":"LATEST"}`)
		require.Equal(t, http.StatusBadRequest, status)
		require.Equal(t, "InvalidParameterValueException", typ)
		require.JSONEq(t, `{"Type":"User","Message":"Stream not found: `+missing+`"}`, body)
		// The emulator's TableName waits for a table made later, as before.
		status, _, body = apiCall(t, srv.URL, http.MethodPost, APIPrefix+"/", `{"TableName":"nope","FunctionName":"fn","StartingPosition":"LATEST"}`)
		require.Equal(t, http.StatusAccepted, status, body)
	})

	t.Run("function name formats", func(t *testing.T) {
		for _, tc := range []struct{ name, arn string }{
			{"fn", "arn:aws:lambda:us-east-1:000000000000:function:fn"},
			{"fn:live", "arn:aws:lambda:us-east-1:000000000000:function:fn:live"},
			{"fn:$LATEST", "arn:aws:lambda:us-east-1:000000000000:function:fn:$LATEST"},
			{"123456789012:function:fn", "arn:aws:lambda:us-east-1:123456789012:function:fn"},
			{"arn:aws:lambda:eu-west-1:123456789012:function:fn:7", "arn:aws:lambda:eu-west-1:123456789012:function:fn:7"},
			{"arn:aws-us-gov:lambda:us-gov-west-1:123456789012:function:fn", "arn:aws:lambda:us-gov-west-1:123456789012:function:fn"},
		} {
			status, _, body := apiCall(t, srv.URL, http.MethodPost, APIPrefix+"/",
				`{"EventSourceArn":"`+e.arn+`","FunctionName":`+strconv.Quote(tc.name)+`,"StartingPosition":"LATEST"}`)
			require.Equal(t, http.StatusAccepted, status, body)
			c := config(body)
			require.Equal(t, tc.arn, c.FunctionArn, tc.name)
			_, _, body = apiCall(t, srv.URL, http.MethodGet, APIPrefix+"/"+c.UUID, "")
			require.Equal(t, tc.arn, config(body).FunctionArn, "Get keeps it: %s", tc.name)
		}
		for _, bad := range []string{"arn:aws:lambda:us-east-1:1:function:x", "my fn", "fn:live:again", strings.Repeat("f", 141)} {
			status, typ, body := apiCall(t, srv.URL, http.MethodPost, APIPrefix+"/",
				`{"EventSourceArn":"`+e.arn+`","FunctionName":`+strconv.Quote(bad)+`,"StartingPosition":"LATEST"}`)
			require.Equal(t, http.StatusBadRequest, status, bad)
			require.Equal(t, "ValidationException", typ, bad)
			require.Contains(t, body, "at 'functionName' failed to satisfy constraint", bad)
		}
		// ListEventSourceMappings by a qualified name lists that alias's.
		status, _, body := apiCall(t, srv.URL, http.MethodGet, APIPrefix+"/?FunctionName=fn:live", "")
		require.Equal(t, http.StatusOK, status)
		var list struct{ EventSourceMappings []Configuration }
		require.NoError(t, json.Unmarshal([]byte(body), &list))
		require.Len(t, list.EventSourceMappings, 1)
	})

	t.Run("tumbling window range", func(t *testing.T) {
		for _, w := range []int{0, 900} {
			status, _, body := create(`,"TumblingWindowInSeconds":` + strconv.Itoa(w))
			require.Equal(t, http.StatusAccepted, status, body)
			require.EqualValues(t, w, config(body).TumblingWindowInSeconds)
		}
		for _, w := range []int{-1, 901} {
			status, typ, _ := create(`,"TumblingWindowInSeconds":` + strconv.Itoa(w))
			require.Equal(t, http.StatusBadRequest, status)
			require.Equal(t, "ValidationException", typ)
		}
	})

	t.Run("filter quota", func(t *testing.T) {
		status, _, body := create(`,"FilterCriteria":` + filters(DefaultFilterQuota))
		require.Equal(t, http.StatusAccepted, status, body)
		id := config(body).UUID
		status, typ, body := create(`,"FilterCriteria":` + filters(DefaultFilterQuota+1))
		require.Equal(t, http.StatusBadRequest, status, body)
		require.Equal(t, "InvalidParameterValueException", typ)
		require.Contains(t, body, "quota of 5 filters")
		status, _, _ = apiCall(t, srv.URL, http.MethodPut, APIPrefix+"/"+id, `{"FilterCriteria":`+filters(6)+`}`)
		require.Equal(t, http.StatusBadRequest, status, "an update is held to the quota too")
		e.m.SetFilterQuota(MaxFilterQuota) // a quota increase
		status, _, body = create(`,"FilterCriteria":` + filters(MaxFilterQuota))
		require.Equal(t, http.StatusAccepted, status, body)
		status, _, _ = create(`,"FilterCriteria":` + filters(MaxFilterQuota+1))
		require.Equal(t, http.StatusBadRequest, status)
	})
}

// TestQualifiedFunctionInvoked: a mapping of fn:live invokes the Invoke
// API with Qualifier=live, and one of a Go function by its name.
func TestQualifiedFunctionInvoked(t *testing.T) {
	e := newESMEnv(t)
	var mu sync.Mutex
	var got []string
	lambda := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		got = append(got, r.URL.Path+"?"+r.URL.RawQuery)
		mu.Unlock()
		w.WriteHeader(http.StatusOK)
	}))
	t.Cleanup(lambda.Close)
	e.m.SetEndpoint(lambda.URL)
	e.create(func(s *Spec) { s.FunctionName = ptr("arn:aws:lambda:us-east-1:123456789012:function:sync:live") })
	e.put("a", "")
	e.drain()
	mu.Lock()
	defer mu.Unlock()
	require.Equal(t, []string{"/2015-03-31/functions/sync/invocations?Qualifier=live"}, got)
}
