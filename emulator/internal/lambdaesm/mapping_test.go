package lambdaesm

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// A mapping's poller: reading, filtering, batching, lanes, the
// checkpoint and the status ("Lambda parameters for Amazon DynamoDB
// event source mappings" and "Lambda event filtering").

// TestBatchSizeCutsTheStream: records go BatchSize at a time, in order,
// and the status follows (position, last batch, invocations).
func TestBatchSizeCutsTheStream(t *testing.T) {
	e := newESMEnv(t)
	fn := e.fn(nil)
	id := e.create(func(s *Spec) { s.BatchSize = ptr(int64(3)); s.Enabled = ptr(false) })
	st := e.status(id)
	require.Equal(t, "No records processed", st.LastProcessingResult)
	e.puts("a", "b", "c", "d", "e", "f", "g")
	e.enable(id)
	e.drain()
	require.Equal(t, [][]string{{"a", "b", "c"}, {"d", "e", "f"}, {"g"}}, fn.batches())
	st = e.status(id)
	require.EqualValues(t, 3, st.Invocations)
	require.Equal(t, 1, st.LastBatchSize)
	require.Equal(t, "OK", st.LastProcessingResult)
	_, next := e.stream().Bounds(e.Clock.Now())
	require.Equal(t, seqText(next), st.Position, "past every record")
	require.EqualValues(t, 0, st.IteratorAgeSecs, "g was handled the second it was written")
}

// TestFiltersDropRecords: a record no filter matches is dropped, never
// delivered, and counted; BatchSize counts the records that pass.
func TestFiltersDropRecords(t *testing.T) {
	e := newESMEnv(t)
	fn := e.fn(nil)
	id := e.create(func(s *Spec) {
		s.BatchSize = ptr(int64(2))
		s.FilterCriteria = &FilterCriteria{Filters: []Filter{
			{Pattern: ptr(`{"dynamodb":{"NewImage":{"status":{"S":["PAID"]}}}}`)},
			{Pattern: ptr(`{"eventName":["REMOVE"]}`)},
		}}
		s.Enabled = ptr(false)
	})
	e.put("a", `"status":{"S":"PAID"}`)
	e.put("b", `"status":{"S":"OPEN"}`)
	e.put("c", `"status":{"S":"PAID"}`)
	e.put("d", ``)
	e.put("e", `"status":{"S":"PAID"}`)
	e.Must("DeleteItem", `{"TableName":"tbl","Key":{"id":{"S":"b"}}}`)
	e.enable(id)
	e.drain()
	require.Equal(t, [][]string{{"a", "c"}, {"e", "b"}}, fn.batches())
	st := e.status(id)
	require.EqualValues(t, 2, st.Filtered, "b's INSERT and d")
	require.NotNil(t, st.FilterCriteria)
	require.Len(t, st.FilterCriteria.Filters, 2)

	// Filters that match nothing move the checkpoint all the same.
	_, err := e.m.Update(id, &Spec{FilterCriteria: &FilterCriteria{Filters: []Filter{{Pattern: ptr(`{"eventName":["MODIFY"]}`)}}}})
	require.NoError(t, err)
	e.put("f", ``)
	e.drain()
	require.Len(t, fn.batches(), 2)
	require.EqualValues(t, 3, e.status(id).Filtered)
	_, next := e.stream().Bounds(e.Clock.Now())
	require.Equal(t, seqText(next), e.status(id).Position)

	// An empty list of filters removes them.
	_, err = e.m.Update(id, &Spec{FilterCriteria: &FilterCriteria{}})
	require.NoError(t, err)
	require.Nil(t, e.status(id).FilterCriteria)
	e.put("g", ``)
	e.drain()
	require.Equal(t, []string{"g"}, fn.batches()[2])
}

// TestParallelLanesKeepKeyOrder: with a ParallelizationFactor, records
// go to lanes by partition key, each lane's in order; every record is
// delivered once.
func TestParallelLanesKeepKeyOrder(t *testing.T) {
	e := newESMEnv(t)
	var mu sync.Mutex
	seen := map[string][]int{}
	e.m.SetFunction("fn", (&recorder{answer: func(_ int, ev event) ([]byte, error) {
		mu.Lock()
		defer mu.Unlock()
		for _, r := range ev.Records {
			key := r.Dynamodb.Keys["id"]["S"]
			seen[key] = append(seen[key], int(r.Dynamodb.ApproximateCreationDateTime))
		}
		return nil, nil
	}}).call)
	id := e.create(func(s *Spec) {
		s.BatchSize = ptr(int64(2))
		s.ParallelizationFactor = ptr(int64(4))
		s.Enabled = ptr(false)
	})
	for round := range 5 {
		for k := range 6 {
			e.Clock.Advance(time.Second)
			e.put(fmt.Sprintf("k%d", k), fmt.Sprintf(`"round":{"N":"%d"}`, round))
		}
	}
	e.enable(id)
	e.drain()
	require.Len(t, seen, 6)
	for k, ats := range seen {
		require.Len(t, ats, 5, k)
		require.True(t, slices.IsSorted(ats), "%s in order: %v", k, ats)
	}
	require.EqualValues(t, 4, e.status(id).ParallelizationFactor)
}

// TestStartingPosition: LATEST skips the records written before the
// mapping; TRIM_HORIZON starts at the oldest kept.
func TestStartingPosition(t *testing.T) {
	for pos, want := range map[string][]string{posLatest: {"after"}, posTrimHorizon: {"before", "after"}} {
		t.Run(pos, func(t *testing.T) {
			e := newESMEnv(t)
			fn := e.fn(nil)
			e.put("before", "")
			e.create(func(s *Spec) { s.StartingPosition = ptr(pos) })
			e.put("after", "")
			e.drain()
			var got []string
			for _, b := range fn.batches() {
				got = append(got, b...)
			}
			require.Equal(t, want, got)
		})
	}
}

// TestBatchingWindowAndDrain: MaximumBatchingWindowInSeconds holds a
// partial batch back for more records, but a drain does not wait for it.
func TestBatchingWindowAndDrain(t *testing.T) {
	e := newESMEnv(t)
	fn := e.fn(nil)
	e.create(func(s *Spec) { s.BatchSize = ptr(int64(10)); s.MaximumBatchingWindowInSeconds = ptr(int64(300)) })
	e.puts("a", "b")
	start := time.Now()
	e.drain()
	require.Less(t, time.Since(start), scaled(time.Minute), "the drain did not wait out the window")
	require.Equal(t, [][]string{{"a", "b"}}, fn.batches())
}

// TestTableNameMapping: a mapping by table name, made before the table,
// takes its stream once the table is made, and reads it from its start.
func TestTableNameMapping(t *testing.T) {
	e := newESMEnv(t)
	fn := e.fn(nil)
	c, err := e.m.Create(&Spec{TableName: ptr("later"), FunctionName: ptr("fn"), StartingPosition: ptr(posLatest)})
	require.NoError(t, err)
	require.Equal(t, "Creating", c.State)
	require.Empty(t, c.EventSourceArn, "no stream yet")
	require.NoError(t, e.m.Drain(t.Context()), "a mapping without a stream is not waited for")

	e.Must("CreateTable", `{"TableName":"later","BillingMode":"PAY_PER_REQUEST",
		"AttributeDefinitions":[{"AttributeName":"id","AttributeType":"S"}],
		"KeySchema":[{"AttributeName":"id","KeyType":"HASH"}],
		"StreamSpecification":{"StreamEnabled":true,"StreamViewType":"NEW_IMAGE"}}`)
	e.Must("PutItem", `{"TableName":"later","Item":{"id":{"S":"first"}}}`)
	e.drain()
	require.Equal(t, [][]string{{"first"}}, fn.batches())
	got, err := e.m.Get(c.UUID)
	require.NoError(t, err)
	require.True(t, isStreamARN(got.EventSourceArn), got.EventSourceArn)
	require.Contains(t, got.EventSourceArn, ":table/later/stream/")
	require.Equal(t, got.EventSourceArn, e.m.List(got.EventSourceArn, "")[0].EventSourceArn)

}

// TestUpdateAndDisable: an update changes the settings the next batch
// uses; a disabled mapping delivers nothing and a drain does not wait for
// it; enabled again, it goes on from its checkpoint.
func TestUpdateAndDisable(t *testing.T) {
	e := newESMEnv(t)
	fn := e.fn(nil)
	id := e.create(nil)
	e.puts("a")
	e.drain()
	c, err := e.m.Update(id, &Spec{Enabled: ptr(false), BatchSize: ptr(int64(1))})
	require.NoError(t, err)
	require.Equal(t, "Updating", c.State)
	got, err := e.m.Get(id)
	require.NoError(t, err)
	require.Equal(t, "Disabled", got.State)
	require.EqualValues(t, 1, got.BatchSize)
	e.puts("b", "c")
	e.drain()
	require.Equal(t, [][]string{{"a"}}, fn.batches())
	e.enable(id)
	e.drain()
	require.Equal(t, [][]string{{"a"}, {"b"}, {"c"}}, fn.batches())

	_, err = e.m.Update(id, &Spec{StartingPosition: ptr(posLatest)})
	require.EqualError(t, err, "InvalidParameterValueException: StartingPosition cannot be updated")
	_, err = e.m.Update("no-such-uuid", &Spec{Enabled: ptr(true)})
	status, typ := ErrorStatus(err)
	require.Equal(t, 404, status)
	require.Equal(t, "ResourceNotFoundException", typ)
}

// TestListAndGet: mappings are listed in creation order, by stream and
// by function (a name or an ARN); each configuration is Lambda's.
func TestListAndGet(t *testing.T) {
	e := newESMEnv(t)
	a := e.create(func(s *Spec) { s.FunctionName = ptr("one") })
	b := e.create(func(s *Spec) { s.FunctionName = ptr("two") })
	c := e.create(func(s *Spec) { s.FunctionName = ptr("arn:aws:lambda:us-east-1:000000000000:function:one") })
	ids := func(cs []Configuration) []string {
		var out []string
		for _, c := range cs {
			out = append(out, c.UUID)
		}
		return out
	}
	require.Equal(t, []string{a, b, c}, ids(e.m.List("", "")))
	require.Equal(t, []string{a, c}, ids(e.m.List("", "one")))
	require.Equal(t, []string{a, c}, ids(e.m.List(e.arn, "arn:aws:lambda:us-east-1:000000000000:function:one")))
	require.Empty(t, e.m.List("arn:aws:dynamodb:us-east-1:000000000000:table/x/stream/y", ""))
	got, err := e.m.Get(b)
	require.NoError(t, err)
	account := strings.Split(e.arn, ":")[4]
	require.Equal(t, "arn:aws:lambda:us-east-1:"+account+":function:two", got.FunctionArn)
	require.Equal(t, "arn:aws:lambda:us-east-1:"+account+":event-source-mapping:"+b, got.EventSourceMappingArn)
	require.Equal(t, e.arn, got.EventSourceArn)
	require.EqualValues(t, defaultBatchSize, got.BatchSize)
	require.EqualValues(t, -1, got.MaximumRetryAttempts)
	require.EqualValues(t, -1, got.MaximumRecordAgeInSeconds)
	require.EqualValues(t, 1, got.ParallelizationFactor)
	require.Equal(t, posTrimHorizon, got.StartingPosition)
	require.Equal(t, "Enabled", got.State)
	require.Equal(t, "User action", got.StateTransitionReason)
	require.Nil(t, got.FunctionResponseTypes)
	b2, err := json.Marshal(got)
	require.NoError(t, err)
	require.NotContains(t, string(b2), "FunctionResponseTypes", "omitted when unset, as Lambda answers")

	_, err = e.m.Delete(b)
	require.NoError(t, err)
	require.Equal(t, []string{a, c}, ids(e.m.List("", "")))
	_, err = e.m.Delete(b)
	require.Error(t, err)
}

// TestCreateWithAUUIDTwice: a UUID (the mappings file's) is the
// mapping's; a second mapping of the same UUID is refused.
func TestCreateWithAUUIDTwice(t *testing.T) {
	e := newESMEnv(t)
	id := e.create(func(s *Spec) { s.UUID = ptr("11111111-2222-4333-8444-555555555555") })
	require.Equal(t, "11111111-2222-4333-8444-555555555555", id)
	_, err := e.m.Create(e.spec(func(s *Spec) { s.UUID = ptr(id) }))
	status, typ := ErrorStatus(err)
	require.Equal(t, 409, status)
	require.Equal(t, "ResourceConflictException", typ)
	require.Len(t, e.m.List("", ""), 1)
	e.m.Close()
	_, err = e.m.Create(e.spec(nil))
	require.Error(t, err, "a closed Manager makes no mapping")
}
