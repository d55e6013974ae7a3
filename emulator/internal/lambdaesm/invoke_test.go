package lambdaesm

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// The Invoke API (POST /2015-03-31/functions/NAME/invocations, as
// serverless-offline's lambda port serves it): what the mapping sends,
// and how it reads the answer.

// invokeServer is a function behind the Invoke API: it records each
// request and answers as answer says.
type invokeServer struct {
	url    string
	answer func(n int, r *http.Request, ev event) (status int, funcError, body string)

	mu   sync.Mutex
	reqs []invokeReq
}

type invokeReq struct {
	method, path, contentType, invocationType string
	ev                                        event
}

func newInvokeServer(t *testing.T, answer func(n int, r *http.Request, ev event) (int, string, string)) *invokeServer {
	s := &invokeServer{answer: answer}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		var ev event
		_ = json.Unmarshal(b, &ev)
		s.mu.Lock()
		n := len(s.reqs)
		s.reqs = append(s.reqs, invokeReq{r.Method, r.URL.Path, r.Header.Get("Content-Type"), r.Header.Get("X-Amz-Invocation-Type"), ev})
		s.mu.Unlock()
		status, fe, body := 200, "", ""
		if s.answer != nil {
			status, fe, body = s.answer(n, r, ev)
		}
		if fe != "" {
			w.Header().Set("X-Amz-Function-Error", fe)
		}
		w.WriteHeader(status)
		_, _ = io.WriteString(w, body)
	}))
	t.Cleanup(srv.Close)
	s.url = srv.URL
	return s
}

func (s *invokeServer) requests() []invokeReq {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]invokeReq(nil), s.reqs...)
}

// TestInvokeAPIRequest: each batch is a synchronous Invoke of the
// function by name, the event as the body.
func TestInvokeAPIRequest(t *testing.T) {
	e := newESMEnv(t)
	srv := newInvokeServer(t, nil)
	e.m.SetEndpoint(srv.url + "/")
	id := e.create(func(s *Spec) {
		s.FunctionName = ptr("arn:aws:lambda:us-east-1:000000000000:function:my-fn_1")
		s.Enabled = ptr(false)
	})
	e.puts("a", "b")
	e.enable(id)
	e.drain()
	reqs := srv.requests()
	require.Len(t, reqs, 1)
	r := reqs[0]
	require.Equal(t, http.MethodPost, r.method)
	require.Equal(t, "/2015-03-31/functions/my-fn_1/invocations", r.path)
	require.Equal(t, "application/json", r.contentType)
	require.Equal(t, "RequestResponse", r.invocationType)
	require.Equal(t, []string{"a", "b"}, r.ev.ids())
	for _, rec := range r.ev.Records {
		require.Equal(t, "INSERT", rec.EventName)
		require.Equal(t, e.arn, rec.EventSourceARN)
	}
}

// TestInvokeAPIAnswers: a 2xx answer without X-Amz-Function-Error is the
// function's return, read for batchItemFailures; X-Amz-Function-Error
// or a status outside 2xx is a function error, retried, and its answer
// is not read for a report.
func TestInvokeAPIAnswers(t *testing.T) {
	cases := []struct {
		name      string
		status    int
		funcError string
		body      string
		calls     int
		lastErr   string
	}{
		{"200", 200, "", `null`, 1, ""},
		{"202, an empty body", 202, "", ``, 1, ""},
		{"a function error", 200, "Unhandled", `{"errorMessage":"boom","errorType":"Error"}`, 2, `function error (Unhandled): {"errorMessage":"boom"`},
		{"a function error with a report", 200, "Unhandled", `{"batchItemFailures":[]}`, 2, "function error (Unhandled)"},
		{"HTTP 500", 500, "", `oops`, 2, "HTTP 500: oops"},
		{"HTTP 404", 404, "", `no such function`, 2, "HTTP 404"},
		{"a report of the first record", 200, "", `REPORT_FIRST`, 2, "the function reported batch item failures"},
		{"an empty itemIdentifier", 200, "", `{"batchItemFailures":[{"itemIdentifier":""}]}`, 2, "an itemIdentifier is empty"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			e := newESMEnv(t)
			srv := newInvokeServer(t, func(n int, _ *http.Request, ev event) (int, string, string) {
				if n > 0 {
					return 200, "", ""
				}
				if tc.body == "REPORT_FIRST" {
					return tc.status, tc.funcError, string(report(ev, ev.ids()[0]))
				}
				return tc.status, tc.funcError, tc.body
			})
			id := e.create(func(s *Spec) {
				s.Endpoint = ptr(srv.url)
				s.MaximumRetryAttempts = ptr(int64(0))
				reportItems(s)
				s.Enabled = ptr(false)
			})
			e.puts("a")
			e.enable(id)
			e.drain()
			// A retry of 0: a failure is given up on at once; the first
			// answer decides whether it was one.
			require.Len(t, srv.requests(), 1)
			st := e.status(id)
			if tc.calls == 1 {
				require.EqualValues(t, 0, st.Discarded)
				require.Equal(t, "OK", st.LastProcessingResult)
				return
			}
			require.EqualValues(t, 1, st.Discarded)
			require.Equal(t, "PROBLEM: Function call failed", st.LastProcessingResult)
			require.Contains(t, st.LastError, tc.lastErr)
			docs := e.failures(id)
			require.Len(t, docs, 1)
			require.Equal(t, tc.status, docs[0].ResponseContext.StatusCode)
		})
	}
}

// TestInvokeTargets: a Go function of the name wins over an endpoint;
// the mapping's endpoint over the Manager's; with neither, the batch
// fails (and is retried) with an error that says what to set.
func TestInvokeTargets(t *testing.T) {
	e := newESMEnv(t)
	mine := newInvokeServer(t, nil)
	other := newInvokeServer(t, nil)
	e.m.SetEndpoint(other.url)
	id := e.create(func(s *Spec) { s.Endpoint = ptr(mine.url + "//"); s.Enabled = ptr(false) })
	e.puts("a")
	e.enable(id)
	e.drain()
	require.Len(t, mine.requests(), 1)
	require.Empty(t, other.requests())

	fn := e.fn(nil)
	e.puts("b")
	e.drain()
	require.Equal(t, [][]string{{"b"}}, fn.batches())
	require.Len(t, mine.requests(), 1)

	e.m.SetFunction("fn", nil)
	e.puts("c")
	e.drain()
	require.Len(t, mine.requests(), 2, "back to the endpoint")

	e2 := newESMEnv(t)
	id2 := e2.create(func(s *Spec) { s.MaximumRetryAttempts = ptr(int64(1)); s.Enabled = ptr(false) })
	e2.puts("a")
	e2.enable(id2)
	e2.drain()
	st := e2.status(id2)
	require.EqualValues(t, 1, st.Discarded)
	require.Contains(t, st.LastError, "no target for function fn: set a Lambda endpoint")
	require.EqualValues(t, 2, st.Invocations)
}

// TestDeleteStopsACall: deleting a mapping cancels the invocation it is
// waiting on, and its retries.
func TestDeleteStopsACall(t *testing.T) {
	e := newESMEnv(t)
	started := make(chan struct{}, 1)
	e.m.SetFunction("fn", func(ctx context.Context, _ []byte) ([]byte, error) {
		started <- struct{}{}
		<-ctx.Done()
		return nil, ctx.Err()
	})
	id := e.create(nil)
	e.puts("a")
	select {
	case <-started:
	case <-time.After(scaled(time.Minute)):
		t.Fatal("the function was not called")
	}
	_, err := e.m.Delete(id)
	require.NoError(t, err)
	_, err = e.m.Get(id)
	require.Error(t, err)
	status, typ := ErrorStatus(err)
	require.Equal(t, 404, status)
	require.Equal(t, "ResourceNotFoundException", typ)
	require.NoError(t, e.m.Drain(context.Background()), "no mapping left to wait for")
}

// TestDrainNamesAStuckMapping: a drain that ends before a mapping caught
// up says which, where it is and its last error.
func TestDrainNamesAStuckMapping(t *testing.T) {
	e := newESMEnv(t)
	failed := make(chan struct{}, 1)
	e.fn(func(int, event) ([]byte, error) {
		select {
		case failed <- struct{}{}:
		default:
		}
		return nil, errors.New("always")
	})
	id := e.create(nil) // retried until the records expire
	e.puts("a")
	select {
	case <-failed:
	case <-time.After(scaled(time.Minute)):
		t.Fatal("the function was not called")
	}
	ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
	defer cancel()
	err := e.m.Drain(ctx)
	var de *DrainError
	require.ErrorAs(t, err, &de)
	require.ErrorIs(t, err, context.DeadlineExceeded)
	require.Len(t, de.Stuck, 1)
	require.Contains(t, de.Stuck[0], "mapping "+id+" (function fn, stream "+e.arn+")")
	require.Contains(t, de.Stuck[0], "last error: always")
	require.True(t, strings.HasPrefix(err.Error(), "streams not drained: mapping "+id))
}
