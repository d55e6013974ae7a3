package emulator_test

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/stretchr/testify/require"

	"github.com/dynamoemu/dynamoemu/emulator"
)

// countState is a tumbling window's function: it counts the window's
// records in its state ("n") and answers it; the final invocation gets
// the count.
func countState(pad int) func(int, invocation) reply {
	return func(_ int, iv invocation) reply {
		n := 0.0
		if v, ok := iv.State["n"].(float64); ok {
			n = v
		}
		n += float64(len(iv.Records))
		return reply{body: fmt.Sprintf(`{"state":{"n":%v,"pad":%q},"batchItemFailures":[]}`, n, strings.Repeat("x", pad))}
	}
}

// TestStreamHandlerTumblingWindow: with TumblingWindowInSeconds, the
// records of one window come in batches that carry the window, the
// state the function answered last and the shard; when the clock passes
// the window's end the function is invoked once more with no records,
// isFinalInvokeForWindow and the window's whole state, and a record of
// the next window starts a new state.
func TestStreamHandlerTumblingWindow(t *testing.T) {
	start := time.Date(2026, 11, 26, 9, 0, 10, 0, time.UTC)
	env := newHandlerEnvWith(t, emulator.Options{Clock: func() time.Time { return start }}, countState(0))
	id := env.mapping(t, func(m *emulator.EventSourceMapping) {
		m.TumblingWindowInSeconds = aws.Int64(60)
		m.BatchSize = aws.Int64(2)
		m.Enabled = aws.Bool(false) // the three records read at once
	})
	for _, id := range []string{"a", "b", "c"} {
		env.put(t, id, nil)
	}
	require.NoError(t, env.e.Streams().UpdateMapping(id, emulator.EventSourceMapping{Enabled: aws.Bool(true)}))
	env.drain(t)
	ivs := env.h.invocations()
	require.Len(t, ivs, 2, "three records of one window in batches of two")
	require.Equal(t, []string{"a", "b"}, ivs[0].ids())
	require.Equal(t, []string{"c"}, ivs[1].ids())
	require.NotNil(t, ivs[0].Window)
	require.Equal(t, "2026-11-26T09:00:00Z", ivs[0].Window.Start)
	require.Equal(t, "2026-11-26T09:01:00Z", ivs[0].Window.End)
	require.Empty(t, ivs[0].State, "the window's first invocation: an empty state")
	require.Equal(t, 2.0, ivs[1].State["n"], "the state the function answered")
	require.NotEmpty(t, ivs[0].ShardID)
	require.False(t, ivs[1].Final)

	_, err := env.e.Clock().Advance(time.Minute) // the window's end passes
	require.NoError(t, err)
	env.drain(t)
	ivs = env.h.invocations()
	require.Len(t, ivs, 3)
	require.True(t, ivs[2].Final)
	require.False(t, ivs[2].Early)
	require.Empty(t, ivs[2].Records)
	require.Equal(t, 3.0, ivs[2].State["n"], "the final invocation gets the window's whole state")

	env.put(t, "d", nil) // the next window: a new state
	env.drain(t)
	ivs = env.h.invocations()
	require.Len(t, ivs, 4)
	require.Equal(t, "2026-11-26T09:01:00Z", ivs[3].Window.Start)
	require.Empty(t, ivs[3].State)
}

// TestStreamHandlerTumblingWindowNextRecord: a record of a later window
// ends the open one (its final invocation comes first) even before the
// clock is read for the end alone; a function whose answer has no state
// failed, and its batch is retried.
func TestStreamHandlerTumblingWindowNextRecord(t *testing.T) {
	start := time.Date(2026, 11, 26, 9, 0, 10, 0, time.UTC)
	noState := true
	env := newHandlerEnvWith(t, emulator.Options{Clock: func() time.Time { return start }}, func(n int, iv invocation) reply {
		if n == 0 && noState {
			return reply{body: `{"batchItemFailures":[]}`}
		}
		return countState(0)(n, iv)
	})
	id := env.mapping(t, func(m *emulator.EventSourceMapping) {
		m.TumblingWindowInSeconds = aws.Int64(30)
		m.Enabled = aws.Bool(false)
	})
	env.put(t, "a", nil)
	_, err := env.e.Clock().Advance(45 * time.Second)
	require.NoError(t, err)
	env.put(t, "b", nil)
	require.NoError(t, env.e.Streams().UpdateMapping(id, emulator.EventSourceMapping{Enabled: aws.Bool(true)}))
	env.drain(t)
	ivs := env.h.invocations()
	require.Len(t, ivs, 4, "a without a state, a again, the first window's end, b")
	require.Equal(t, []string{"a"}, ivs[0].ids())
	require.Equal(t, []string{"a"}, ivs[1].ids(), "an answer without a state is a failure: retried")
	require.True(t, ivs[2].Final)
	require.Equal(t, 1.0, ivs[2].State["n"])
	require.Equal(t, "2026-11-26T09:00:00Z", ivs[2].Window.Start)
	require.Equal(t, []string{"b"}, ivs[3].ids())
	require.Equal(t, "2026-11-26T09:00:30Z", ivs[3].Window.Start)
}

// TestStreamHandlerTumblingWindowTooLarge: a state over 1 MB ends the
// window early: the final invocation says so, and the window goes on
// with a new state.
func TestStreamHandlerTumblingWindowTooLarge(t *testing.T) {
	start := time.Date(2026, 11, 26, 9, 0, 10, 0, time.UTC)
	env := newHandlerEnvWith(t, emulator.Options{Clock: func() time.Time { return start }}, countState(1<<20))
	env.mapping(t, func(m *emulator.EventSourceMapping) {
		m.TumblingWindowInSeconds = aws.Int64(60)
		m.BatchSize = aws.Int64(1)
	})
	env.put(t, "a", nil)
	env.put(t, "b", nil)
	env.drain(t)
	ivs := env.h.invocations()
	require.GreaterOrEqual(t, len(ivs), 3)
	require.Equal(t, []string{"a"}, ivs[0].ids())
	require.True(t, ivs[1].Final)
	require.True(t, ivs[1].Early)
	require.Equal(t, 1.0, ivs[1].State["n"])
	require.Equal(t, []string{"b"}, ivs[2].ids())
	require.Empty(t, ivs[2].State, "the window goes on with a new state")
	require.Equal(t, ivs[0].Window.Start, ivs[2].Window.Start)
	b, err := json.Marshal(ivs[2].Window)
	require.NoError(t, err)
	require.Contains(t, string(b), "09:00:00Z")
}
