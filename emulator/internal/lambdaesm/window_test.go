package lambdaesm

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// Tumbling windows ("Implementing stateful DynamoDB stream processing in
// Lambda"): "Tumbling windows are distinct time windows that open and
// close at regular intervals"; "Each invocation receives a state";
// "your Lambda function response must contain a state property. If the
// response does not contain a state property, Lambda considers this a
// failed invocation"; at the window's end Lambda invokes the function
// once more with isFinalInvokeForWindow; "Your state can be a maximum of
// 1 MB per shard. If it exceeds that size, Lambda terminates the window
// early."

// TestWindowOf: windows are the length's multiples from the epoch, on
// either side of it.
func TestWindowOf(t *testing.T) {
	for _, tc := range []struct{ at, w, want int64 }{
		{0, 60, 0}, {59, 60, 0}, {60, 60, 60}, {61, 60, 60}, {1_800_000_123, 900, 1_800_000_000}, {1_800_000_899, 900, 1_800_000_000}, {1_800_000_900, 900, 1_800_000_900},
		{-1, 60, -60}, {-60, 60, -60}, {-61, 60, -120}, {7, 1, 7},
	} {
		require.Equal(t, tc.want, windowOf(tc.at, tc.w), "windowOf(%d, %d)", tc.at, tc.w)
	}
}

// TestWindowState: a window's answer must hold a state that is an
// object.
func TestWindowState(t *testing.T) {
	for body, want := range map[string]string{
		`{"state":{"n":1}}`:                            `{"n":1}`,
		`{"state": {} , "batchItemFailures": []}`:      `{}`,
		`{"state":{"nested":{"list":[1,2]}},"x":true}`: `{"nested":{"list":[1,2]}}`,
	} {
		got, ok := windowState([]byte(body))
		require.True(t, ok, body)
		require.JSONEq(t, want, string(got))
	}
	for _, body := range []string{``, `null`, `{}`, `{"state":null}`, `{"state":[1]}`, `{"state":"s"}`, `{"state":1}`, `not json`, `[]`} {
		_, ok := windowState([]byte(body))
		require.False(t, ok, body)
	}
}

// windowAnswer answers a window's invocation with a state counting the
// records seen in it.
func windowAnswer(_ int, ev event) ([]byte, error) {
	var st struct{ N int }
	_ = json.Unmarshal(ev.State, &st)
	return []byte(fmt.Sprintf(`{"state":{"N":%d},"batchItemFailures":[]}`, st.N+len(ev.Records))), nil
}

// TestTumblingWindowState: each invocation of a window gets the state
// the last answered, {} at first; the window's end (a record of the next
// window) brings a final invocation with no records and the last state;
// the next window starts from {} again.
func TestTumblingWindowState(t *testing.T) {
	e := newESMEnv(t)
	fn := e.fn(windowAnswer)
	id := e.create(func(s *Spec) {
		s.BatchSize = ptr(int64(1))
		s.TumblingWindowInSeconds = ptr(int64(60))
		s.Enabled = ptr(false)
	})
	e.puts("a", "b", "c") // 12:00:01-03, the window 12:00-12:01
	e.Clock.Advance(time.Minute)
	e.put("d", "") // 12:01:03, the next window
	e.enable(id)
	e.drain()
	evs := fn.all()
	require.Len(t, evs, 5)
	want := []struct {
		ids   []string
		state string
		final bool
		start string
	}{
		{[]string{"a"}, `{}`, false, "2026-11-22T12:00:00Z"},
		{[]string{"b"}, `{"N":1}`, false, "2026-11-22T12:00:00Z"},
		{[]string{"c"}, `{"N":2}`, false, "2026-11-22T12:00:00Z"},
		{[]string{}, `{"N":3}`, true, "2026-11-22T12:00:00Z"},
		{[]string{"d"}, `{}`, false, "2026-11-22T12:01:00Z"},
	}
	for i, w := range want {
		ev := evs[i]
		require.Equal(t, w.ids, ev.ids(), "invocation %d", i)
		require.JSONEq(t, w.state, string(ev.State), "invocation %d", i)
		require.Equal(t, w.final, ev.Final, "invocation %d", i)
		require.False(t, ev.Early)
		require.NotNil(t, ev.Window)
		require.Equal(t, w.start, ev.Window.Start, "invocation %d", i)
		st, err := time.Parse(time.RFC3339, ev.Window.Start)
		require.NoError(t, err)
		end, err := time.Parse(time.RFC3339, ev.Window.End)
		require.NoError(t, err)
		require.Equal(t, time.Minute, end.Sub(st))
		require.Equal(t, e.stream().ShardID(), ev.ShardID)
	}
	require.Equal(t, "OK", e.status(id).LastProcessingResult)
}

// TestTumblingWindowEndsWithTheClock: a window whose end the clock
// passed with no record after it gets its final invocation, and a drain
// waits for it.
func TestTumblingWindowEndsWithTheClock(t *testing.T) {
	e := newESMEnv(t)
	fn := e.fn(windowAnswer)
	e.create(func(s *Spec) { s.TumblingWindowInSeconds = ptr(int64(30)) })
	e.puts("a", "b")
	e.drain()
	require.NotEmpty(t, fn.all())
	for _, ev := range fn.all() {
		require.False(t, ev.Final, "the window is still open")
	}
	e.Clock.Advance(time.Minute)
	e.drain()
	evs := fn.all()
	last := evs[len(evs)-1]
	require.True(t, last.Final)
	require.Empty(t, last.Records)
	require.JSONEq(t, `{"N":2}`, string(last.State))
}

// TestTumblingWindowNeedsAState: an answer without a state is a failed
// invocation, retried with the same state.
func TestTumblingWindowNeedsAState(t *testing.T) {
	e := newESMEnv(t)
	fn := e.fn(func(n int, ev event) ([]byte, error) {
		if n == 0 {
			return []byte(`{"batchItemFailures":[]}`), nil
		}
		return windowAnswer(n, ev)
	})
	id := e.create(func(s *Spec) { s.TumblingWindowInSeconds = ptr(int64(60)); s.Enabled = ptr(false) })
	e.puts("a")
	e.enable(id)
	e.drain()
	evs := fn.all()
	require.GreaterOrEqual(t, len(evs), 2)
	require.Equal(t, []string{"a"}, evs[1].ids(), "retried")
	require.JSONEq(t, `{}`, string(evs[1].State))
	require.EqualValues(t, 1, e.status(id).FunctionErrors)
}

// TestTumblingWindowTooLarge: a state over 1 MB ends the window early:
// its final invocation says so, and the window goes on from {}.
func TestTumblingWindowTooLarge(t *testing.T) {
	e := newESMEnv(t)
	fn := e.fn(func(n int, ev event) ([]byte, error) {
		if ev.Final || len(ev.Records) == 0 || ev.ids()[0] != "a" {
			return windowAnswer(n, ev)
		}
		return []byte(`{"state":{"pad":"` + strings.Repeat("x", maxWindowState) + `"}}`), nil
	})
	id := e.create(func(s *Spec) {
		s.BatchSize = ptr(int64(1))
		s.TumblingWindowInSeconds = ptr(int64(60))
		s.Enabled = ptr(false)
	})
	e.puts("a", "b")
	e.enable(id)
	e.drain()
	evs := fn.all()
	require.GreaterOrEqual(t, len(evs), 3)
	require.Equal(t, []string{"a"}, evs[0].ids())
	require.True(t, evs[1].Final)
	require.True(t, evs[1].Early)
	require.Greater(t, len(evs[1].State), maxWindowState)
	require.Equal(t, []string{"b"}, evs[2].ids())
	require.JSONEq(t, `{}`, string(evs[2].State))
}

// TestTumblingWindowPartialFailure: a report in a window is read as in
// any batch; the retried records get the state the failed invocation
// answered (Lambda keeps the window's last state).
func TestTumblingWindowPartialFailure(t *testing.T) {
	e := newESMEnv(t)
	fn := e.fn(func(n int, ev event) ([]byte, error) {
		if n == 0 {
			return []byte(`{"state":{"N":1},"batchItemFailures":[{"itemIdentifier":"` + ev.seq("b") + `"}]}`), nil
		}
		return windowAnswer(n, ev)
	})
	id := e.create(func(s *Spec) {
		s.TumblingWindowInSeconds = ptr(int64(60))
		reportItems(s)
		s.Enabled = ptr(false)
	})
	e.puts("a", "b", "c")
	e.enable(id)
	e.drain()
	evs := fn.all()
	require.Equal(t, []string{"a", "b", "c"}, evs[0].ids())
	require.Equal(t, []string{"b", "c"}, evs[1].ids())
	require.JSONEq(t, `{"N":1}`, string(evs[1].State))
}
