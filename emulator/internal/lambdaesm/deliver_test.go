package lambdaesm

import (
	"errors"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// TestRetryBackoff: the wait before each retry of a failed batch
// doubles from the first (1 s by default, or the one set) up to 60
// times the first.
func TestRetryBackoff(t *testing.T) {
	var got []time.Duration
	for r := int64(1); r <= 9; r++ {
		got = append(got, backoffFor(0, r))
	}
	s := time.Second
	require.Equal(t, []time.Duration{s, 2 * s, 4 * s, 8 * s, 16 * s, 32 * s, 60 * s, 60 * s, 60 * s}, got)
	require.Equal(t, 60*time.Second, backoffFor(0, 10000))
	require.Equal(t, time.Millisecond, backoffFor(time.Millisecond, 1))
	require.Equal(t, 4*time.Millisecond, backoffFor(time.Millisecond, 3))
	require.Equal(t, 60*time.Millisecond, backoffFor(time.Millisecond, 50))

	m := &Manager{}
	require.Equal(t, 2*time.Second, m.retryWait(2), "the default")
	m.SetRetryBackoff(10 * time.Millisecond)
	require.Equal(t, 20*time.Millisecond, m.retryWait(2))
}

// reportItems turns ReportBatchItemFailures on.
func reportItems(s *Spec) { s.FunctionResponseTypes = []string{reportBatchItemFailures} }

// TestFirstRecordReportedIsRetried: with BatchSize 1 a report always
// names the batch's first record; the record is retried, from its own
// sequence number, until the function stops reporting it ("Lambda then
// retries all records starting from that checkpoint").
func TestFirstRecordReportedIsRetried(t *testing.T) {
	e := newESMEnv(t)
	fn := e.fn(func(n int, ev event) ([]byte, error) {
		if ev.ids()[0] == "a" && n < 2 {
			return report(ev, "a"), nil
		}
		return []byte(`{"batchItemFailures":[]}`), nil
	})
	id := e.create(func(s *Spec) { s.BatchSize = ptr(int64(1)); reportItems(s); s.Enabled = ptr(false) })
	e.puts("a", "b")
	e.enable(id)
	e.drain()
	require.Equal(t, [][]string{{"a"}, {"a"}, {"a"}, {"b"}}, fn.batches())
	st := e.status(id)
	require.EqualValues(t, 0, st.Discarded)
	require.EqualValues(t, 4, st.Invocations)
	require.EqualValues(t, 2, st.FunctionErrors, "the two invocations that reported a failure")
	require.Equal(t, "OK", st.LastProcessingResult)
	require.Empty(t, e.failures(id))
}

// TestFirstRecordReportedUntilRetriesRunOut: a record reported on every
// try is retried MaximumRetryAttempts times, then its batch's invocation
// record goes to the on-failure destination, the mapping says so, and the
// next record is delivered.
func TestFirstRecordReportedUntilRetriesRunOut(t *testing.T) {
	e := newESMEnv(t)
	fn := e.fn(func(_ int, ev event) ([]byte, error) {
		if ev.ids()[0] == "a" {
			return report(ev, "a"), nil
		}
		return nil, nil
	})
	var heard [][]byte
	e.m.OnFailure(func(rec []byte) { heard = append(heard, rec) })
	id := e.create(func(s *Spec) {
		s.BatchSize = ptr(int64(1))
		s.MaximumRetryAttempts = ptr(int64(2))
		reportItems(s)
		s.Enabled = ptr(false)
	})
	e.puts("a", "b")
	e.enable(id)
	e.drain()
	require.Equal(t, [][]string{{"a"}, {"a"}, {"a"}, {"b"}}, fn.batches())
	seqA := fn.all()[0].seq("a")

	docs := e.failures(id)
	require.Len(t, docs, 1)
	require.Len(t, heard, 1, "the Go sink hears it too")
	d := docs[0]
	require.Equal(t, "RetryAttemptsExhausted", d.RequestContext.Condition)
	require.Equal(t, 3, d.RequestContext.ApproximateInvokeCount)
	require.NotNil(t, d.ResponseContext)
	require.Equal(t, 200, d.ResponseContext.StatusCode)
	require.Nil(t, d.ResponseContext.FunctionError, "a reported failure is no function error: null, as AWS sends it")
	require.Equal(t, 1, d.DDBStreamBatchInfo.BatchSize)
	require.Equal(t, seqA, d.DDBStreamBatchInfo.StartSequenceNumber)
	require.Equal(t, seqA, d.DDBStreamBatchInfo.EndSequenceNumber)

	st := e.status(id)
	require.EqualValues(t, 1, st.Discarded)
	require.Contains(t, st.LastError, "1 records discarded (RetryAttemptsExhausted after 3 invocations)")
	require.Contains(t, st.LastError, seqA)
	require.Equal(t, "OK", st.LastProcessingResult, "b was delivered after")
}

// TestRetriedBatchReportsItsFirstRecord: a batch retried from the record
// its function reported, which reports that record again (now the retried
// batch's first), is retried again: each report counts against
// MaximumRetryAttempts, and the records given up on are the retried ones.
// The invocation count holds the first, larger batch's invocation too, as
// AWS counts it (4 invocations with MaximumRetryAttempts 3).
func TestRetriedBatchReportsItsFirstRecord(t *testing.T) {
	e := newESMEnv(t)
	fn := e.fn(func(_ int, ev event) ([]byte, error) {
		if ev.seq("b") != "" {
			return report(ev, "b"), nil
		}
		return nil, nil
	})
	id := e.create(func(s *Spec) {
		s.BatchSize = ptr(int64(3))
		s.MaximumRetryAttempts = ptr(int64(3))
		reportItems(s)
		s.Enabled = ptr(false)
	})
	e.puts("a", "b", "c", "d")
	e.enable(id)
	e.drain()
	require.Equal(t, [][]string{{"a", "b", "c"}, {"b", "c"}, {"b", "c"}, {"b", "c"}, {"d"}}, fn.batches())
	docs := e.failures(id)
	require.Len(t, docs, 1)
	evs := fn.all()
	require.Equal(t, 4, docs[0].RequestContext.ApproximateInvokeCount)
	require.Equal(t, 2, docs[0].DDBStreamBatchInfo.BatchSize)
	require.Equal(t, evs[0].seq("b"), docs[0].DDBStreamBatchInfo.StartSequenceNumber)
	require.Equal(t, evs[0].seq("c"), docs[0].DDBStreamBatchInfo.EndSequenceNumber)
	require.EqualValues(t, 2, e.status(id).Discarded)
}

// TestReportedRecordUntilItsAgeRunsOut: with retries unbounded, a record
// reported on every try is given up on once it is older than
// MaximumRecordAgeInSeconds (each try here takes 25 s of the clock); a
// record past the age before its first try is discarded unsent, its
// invocation record without a responseContext.
func TestReportedRecordUntilItsAgeRunsOut(t *testing.T) {
	e := newESMEnv(t)
	fn := e.fn(func(_ int, ev event) ([]byte, error) {
		e.Clock.Advance(25 * time.Second)
		return report(ev, ev.ids()[0]), nil
	})
	id := e.create(func(s *Spec) {
		s.BatchSize = ptr(int64(1))
		s.MaximumRecordAgeInSeconds = ptr(int64(60))
		reportItems(s)
		s.Enabled = ptr(false)
	})
	e.puts("a", "b")
	e.enable(id)
	e.drain()
	// a is 1 s old at its first try, 26 s at the second, 51 s at the
	// third and 76 s after it: given up on; b is then 75 s old.
	require.Equal(t, [][]string{{"a"}, {"a"}, {"a"}}, fn.batches())
	docs := e.failures(id)
	require.Len(t, docs, 2)
	require.Equal(t, "RecordAgeExceeded", docs[0].RequestContext.Condition)
	require.Equal(t, 3, docs[0].RequestContext.ApproximateInvokeCount)
	require.Nil(t, docs[0].ResponseContext.FunctionError)
	require.Equal(t, "RecordAgeExceeded", docs[1].RequestContext.Condition)
	require.Equal(t, 0, docs[1].RequestContext.ApproximateInvokeCount)
	require.Nil(t, docs[1].ResponseContext, "never invoked")
	require.EqualValues(t, 2, e.status(id).Discarded)
}

// TestReportNeedsTheSetting: "Even when your function code returns
// partial batch failure responses, these responses will not be processed
// by Lambda unless the ReportBatchItemFailures feature is explicitly
// turned on for your event source mapping."
func TestReportNeedsTheSetting(t *testing.T) {
	e := newESMEnv(t)
	fn := e.fn(func(_ int, ev event) ([]byte, error) { return report(ev, ev.ids()[0]), nil })
	id := e.create(func(s *Spec) { s.Enabled = ptr(false) })
	e.puts("a", "b")
	e.enable(id)
	e.drain()
	require.Equal(t, [][]string{{"a", "b"}}, fn.batches())
	require.Equal(t, "OK", e.status(id).LastProcessingResult)
}

// TestReportsEndToEnd: each kind of answer through a mapping (BatchSize
// 3, one retry): a success is delivered once, a complete failure retried
// whole, a partial failure retried from the record it names.
func TestReportsEndToEnd(t *testing.T) {
	cases := []struct {
		name   string
		answer func(ev event) []byte
		want   [][]string
		discar int
	}{
		{"an empty list", func(event) []byte { return []byte(`{"batchItemFailures":[]}`) }, [][]string{{"a", "b", "c"}}, 0},
		{"null", func(event) []byte { return []byte(`null`) }, [][]string{{"a", "b", "c"}}, 0},
		{"no answer", func(event) []byte { return nil }, [][]string{{"a", "b", "c"}}, 0},
		{"an empty itemIdentifier", func(event) []byte { return []byte(`{"batchItemFailures":[{"itemIdentifier":""}]}`) },
			[][]string{{"a", "b", "c"}, {"a", "b", "c"}}, 3},
		{"an unknown itemIdentifier", func(event) []byte { return []byte(`{"batchItemFailures":[{"itemIdentifier":"1"}]}`) },
			[][]string{{"a", "b", "c"}, {"a", "b", "c"}}, 3},
		{"not JSON", func(event) []byte { return []byte(`done`) }, [][]string{{"a", "b", "c"}, {"a", "b", "c"}}, 3},
		{"the first record", func(ev event) []byte { return report(ev, ev.ids()[0]) }, [][]string{{"a", "b", "c"}, {"a", "b", "c"}}, 3},
		{"the last record", func(ev event) []byte { return report(ev, "c") }, [][]string{{"a", "b", "c"}, {"c"}}, 1},
		{"every record", func(ev event) []byte { return report(ev, ev.ids()...) }, [][]string{{"a", "b", "c"}, {"a", "b", "c"}}, 3},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			e := newESMEnv(t)
			fn := e.fn(func(_ int, ev event) ([]byte, error) { return tc.answer(ev), nil })
			id := e.create(func(s *Spec) {
				s.BatchSize = ptr(int64(3))
				s.MaximumRetryAttempts = ptr(int64(1))
				reportItems(s)
				s.Enabled = ptr(false)
			})
			e.puts("a", "b", "c")
			e.enable(id)
			e.drain()
			require.Equal(t, tc.want, fn.batches())
			require.EqualValues(t, tc.discar, e.status(id).Discarded)
			if tc.discar > 0 {
				require.Contains(t, e.status(id).LastError, "RetryAttemptsExhausted")
			}
		})
	}
}

// TestBisectWithReports: "If your invocation fails and
// BisectBatchOnFunctionError is turned on, the batch is bisected
// regardless of your ReportBatchItemFailures setting. When a partial
// batch success response is received and both BisectBatchOnFunctionError
// and ReportBatchItemFailures are turned on, the batch is bisected at the
// returned sequence number and Lambda retries only the remaining
// records." A complete failure by report is bisected as a function error
// is; a function error's answer is not read for a report.
func TestBisectWithReports(t *testing.T) {
	once := func(answer func(ev event) ([]byte, error)) func(int, event) ([]byte, error) {
		return func(n int, ev event) ([]byte, error) {
			if n == 0 {
				return answer(ev)
			}
			return nil, nil
		}
	}
	cases := []struct {
		name   string
		answer func(int, event) ([]byte, error)
		want   [][]string
	}{
		{"a partial failure: retried from the record", once(func(ev event) ([]byte, error) { return report(ev, "c"), nil }),
			[][]string{{"a", "b", "c", "d"}, {"c", "d"}}},
		{"the first record reported: retried whole, not split", once(func(ev event) ([]byte, error) { return report(ev, "a"), nil }),
			[][]string{{"a", "b", "c", "d"}, {"a", "b", "c", "d"}}},
		{"a complete failure by report: split", once(func(event) ([]byte, error) {
			return []byte(`{"batchItemFailures":[{"itemIdentifier":null}]}`), nil
		}), [][]string{{"a", "b", "c", "d"}, {"a", "b"}, {"c", "d"}}},
		{"a function error: split", once(func(ev event) ([]byte, error) {
			return report(ev, "c"), errors.New("boom")
		}), [][]string{{"a", "b", "c", "d"}, {"a", "b"}, {"c", "d"}}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			e := newESMEnv(t)
			fn := e.fn(tc.answer)
			id := e.create(func(s *Spec) {
				s.BatchSize = ptr(int64(4))
				s.BisectBatchOnFunctionError = ptr(true)
				reportItems(s)
				s.Enabled = ptr(false)
			})
			e.puts("a", "b", "c", "d")
			e.enable(id)
			e.drain()
			require.Equal(t, tc.want, fn.batches())
		})
	}
}

// TestBisectHalvesKeepTheirRetries: a split is not a retry ("Splitting a
// batch does not count towards the retry quota"); the half holding the
// bad record is split again until it is alone, then retried
// MaximumRetryAttempts times and given up on, the others delivered.
func TestBisectHalvesKeepTheirRetries(t *testing.T) {
	e := newESMEnv(t)
	fn := e.fn(func(_ int, ev event) ([]byte, error) {
		if ev.seq("bad") != "" {
			return nil, errors.New("bad record")
		}
		return nil, nil
	})
	id := e.create(func(s *Spec) {
		s.BatchSize = ptr(int64(4))
		s.BisectBatchOnFunctionError = ptr(true)
		s.MaximumRetryAttempts = ptr(int64(1))
		s.Enabled = ptr(false)
	})
	e.puts("a", "b", "bad", "c")
	e.enable(id)
	e.drain()
	require.Equal(t, [][]string{{"a", "b", "bad", "c"}, {"a", "b"}, {"bad", "c"}, {"bad"}, {"bad"}, {"c"}}, fn.batches())
	docs := e.failures(id)
	require.Len(t, docs, 1)
	require.Equal(t, 1, docs[0].DDBStreamBatchInfo.BatchSize)
	require.Equal(t, 2, docs[0].RequestContext.ApproximateInvokeCount)
	require.Equal(t, "Unhandled", *docs[0].ResponseContext.FunctionError)
}
