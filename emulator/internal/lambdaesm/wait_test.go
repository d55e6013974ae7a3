package lambdaesm

import (
	"slices"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// A mapping with nothing to do waits on change signals (mapping.go), so
// it does not wake while nothing is written: these tests count each
// poller's turns (mapping.wakeups).

// turns is the sum of the turns of every mapping of e.
func (e *esmEnv) turns() int64 {
	e.m.mu.Lock()
	defer e.m.mu.Unlock()
	var n int64
	for _, mp := range e.m.maps {
		n += mp.wakeups.Load()
	}
	return n
}

// settle waits until the pollers take no turn for a while (they finish
// what a drain saw them reach: a save, one more look); the bound only
// catches pollers that never settle.
func (e *esmEnv) settle() int64 {
	e.T.Helper()
	deadline := time.Now().Add(scaled(30 * time.Second))
	last := e.turns()
	for time.Now().Before(deadline) {
		time.Sleep(50 * time.Millisecond)
		n := e.turns()
		if n == last {
			return n
		}
		last = n
	}
	e.T.Fatalf("the pollers never settled: %d turns", last)
	return 0
}

func TestIdleMappingsDoNotWake(t *testing.T) {
	e := newESMEnv(t)
	rec := e.fn(nil)
	const bound, waiting, disabled = 30, 10, 5
	for range bound {
		e.create(nil)
	}
	var later []string
	for range waiting { // a table not made yet
		later = append(later, e.create(func(s *Spec) { s.EventSourceArn, s.TableName = nil, ptr("later") }))
	}
	for range disabled {
		e.create(func(s *Spec) { s.Enabled = ptr(false) })
	}
	e.puts("a", "b")
	e.drain()
	require.Len(t, slices.Concat(rec.batches()...), 2*bound, "each bound mapping had both records")

	before := e.settle()
	time.Sleep(300 * time.Millisecond) // the old pollers took 15 turns each in this time
	require.Equal(t, before, e.turns(), "%d idle mappings took turns while nothing was written", bound+waiting+disabled)

	// A write wakes the mappings of its stream, and only them.
	e.put("c", "")
	e.drain()
	require.Len(t, slices.Concat(rec.batches()...), 3*bound)
	after := e.settle()
	require.Greater(t, after, before)
	require.LessOrEqual(t, after-before, int64(bound*4), "a write wakes the mappings of its stream a few times each, not the others")

	// A table made wakes the mappings waiting for it.
	e.Must("CreateTable", `{"TableName":"later","BillingMode":"PAY_PER_REQUEST",
		"AttributeDefinitions":[{"AttributeName":"id","AttributeType":"S"}],
		"KeySchema":[{"AttributeName":"id","KeyType":"HASH"}],
		"StreamSpecification":{"StreamEnabled":true,"StreamViewType":"NEW_IMAGE"}}`)
	require.Eventually(t, func() bool {
		for _, id := range later {
			if e.status(id).Position == "" {
				return false
			}
		}
		return true
	}, scaled(30*time.Second), 10*time.Millisecond, "the mappings waiting for the table found its stream")
	e.Must("PutItem", `{"TableName":"later","Item":{"id":{"S":"x"}}}`)
	e.drain()
	require.Len(t, slices.Concat(rec.batches()...), 3*bound+waiting)
	quiet := e.settle()
	time.Sleep(300 * time.Millisecond)
	require.Equal(t, quiet, e.turns())
}

// TestTableNameMappingFollowsTheTableMadeAgain: a mapping made by
// TableName moves to the table's new stream when the table is deleted and
// made again (a migration run twice), after handling the old stream's
// records; one made by EventSourceArn stays on the stream it names, as
// Lambda's does.
func TestTableNameMappingFollowsTheTableMadeAgain(t *testing.T) {
	e := newESMEnv(t)
	rec := e.fn(nil)
	byName := e.create(func(s *Spec) { s.EventSourceArn, s.TableName = nil, ptr("tbl") })
	byARN := e.create(func(s *Spec) { s.FunctionName = ptr("other") })
	var other [][]string
	otherRec := &recorder{}
	e.m.SetFunction("other", otherRec.call)
	e.put("a", "")
	e.drain()
	old := e.arn
	e.Must("DeleteTable", `{"TableName":"tbl"}`)
	for range 2 { // made again, twice
		e.Must("CreateTable", `{"TableName":"tbl","BillingMode":"PAY_PER_REQUEST",
			"AttributeDefinitions":[{"AttributeName":"id","AttributeType":"S"}],
			"KeySchema":[{"AttributeName":"id","KeyType":"HASH"}],
			"StreamSpecification":{"StreamEnabled":true,"StreamViewType":"NEW_AND_OLD_IMAGES"}}`)
		e.put("b", "")
		e.drain()
		if len(rec.batches()) == 2 {
			e.Must("DeleteTable", `{"TableName":"tbl"}`)
		}
	}
	got := slices.Concat(rec.batches()...)
	require.Equal(t, []string{"a", "b", "b"}, got, "the mapping by name handled each table's records, in order")
	now := e.status(byName).EventSourceArn
	require.NotEqual(t, old, now)
	s, ok := e.m.tableStream("tbl", e.Clock.Now())
	require.True(t, ok)
	require.Equal(t, s.ARN(), now, "it is on the table's latest stream")
	other = otherRec.batches()
	require.Equal(t, [][]string{{"a"}}, other, "the mapping by ARN stayed on its stream")
	require.Equal(t, old, e.status(byARN).EventSourceArn)
}
