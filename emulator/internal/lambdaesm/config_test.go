package lambdaesm

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// The settings a CreateEventSourceMapping request makes, with Lambda's
// defaults for a DynamoDB stream ("Lambda parameters for Amazon DynamoDB
// event source mappings"): BatchSize 100, no batching window,
// MaximumRetryAttempts and MaximumRecordAgeInSeconds -1 (infinite),
// ParallelizationFactor 1, bisect off, no response types.

const testStreamARN = "arn:aws:dynamodb:us-east-1:000000000000:table/orders/stream/2026-11-22T12:00:00.000"

func minimalSpec() *Spec {
	return &Spec{EventSourceArn: ptr(testStreamARN), FunctionName: ptr("fn"), StartingPosition: ptr(posLatest)}
}

// TestSettingsDefaults: a minimal request's settings.
func TestSettingsDefaults(t *testing.T) {
	var st settings
	require.NoError(t, st.apply(minimalSpec(), true))
	require.Equal(t, settings{function: "fn", fnSpec: "fn", fnRef: functionRef{name: "fn"}, sourceARN: testStreamARN, enabled: true,
		batchSize: 100, startPos: posLatest, maxRetries: -1, maxAge: -1, parallel: 1}, st)
}

// TestSettingsAllMembers: every member a DynamoDB stream's mapping takes.
func TestSettingsAllMembers(t *testing.T) {
	s := minimalSpec()
	s.Enabled = ptr(false)
	s.BatchSize = ptr(int64(10000))
	s.MaximumBatchingWindowInSeconds = ptr(int64(300))
	s.MaximumRetryAttempts = ptr(int64(10000))
	s.MaximumRecordAgeInSeconds = ptr(int64(604800))
	s.BisectBatchOnFunctionError = ptr(true)
	s.FunctionResponseTypes = []string{reportBatchItemFailures}
	s.ParallelizationFactor = ptr(int64(10))
	s.TumblingWindowInSeconds = ptr(int64(900))
	s.FilterCriteria = &FilterCriteria{Filters: []Filter{{Pattern: ptr(`{"eventName":["INSERT"]}`)}}}
	s.DestinationConfig = &DestinationConfig{OnFailure: &OnFailure{Destination: ptr("file:///tmp/f.jsonl")}}
	s.Endpoint = ptr("http://localhost:3002/")
	var st settings
	require.NoError(t, st.apply(s, true))
	require.False(t, st.enabled)
	require.Equal(t, 10000, st.batchSize)
	require.Equal(t, 300*time.Second, st.window)
	require.EqualValues(t, 10000, st.maxRetries)
	require.EqualValues(t, 604800, st.maxAge)
	require.True(t, st.bisect)
	require.True(t, st.reportItems)
	require.Equal(t, 10, st.parallel)
	require.EqualValues(t, 900, st.tumbling)
	require.Len(t, st.filters, 1)
	require.Equal(t, "file:///tmp/f.jsonl", st.onFailure)
	require.Equal(t, "http://localhost:3002", st.endpoint)

	// The spec a save keeps makes the same settings again.
	var again settings
	require.NoError(t, again.apply(ptr(st.spec("id")), true))
	require.Equal(t, st.function, again.function)
	again.filters, st.filters = nil, nil
	require.Equal(t, st, again)
}

// TestSettingsUpdate: an update changes only the members it sets; an
// empty FunctionResponseTypes list turns the reports off, an empty
// DestinationConfig the destination.
func TestSettingsUpdate(t *testing.T) {
	s := minimalSpec()
	s.FunctionResponseTypes = []string{reportBatchItemFailures}
	s.DestinationConfig = &DestinationConfig{OnFailure: &OnFailure{Destination: ptr("arn:aws:sqs:us-east-1:000000000000:q")}}
	var st settings
	require.NoError(t, st.apply(s, true))
	require.NoError(t, st.apply(&Spec{BatchSize: ptr(int64(7))}, false))
	require.Equal(t, 7, st.batchSize)
	require.True(t, st.reportItems)
	require.Equal(t, "arn:aws:sqs:us-east-1:000000000000:q", st.onFailure)
	require.NoError(t, st.apply(&Spec{FunctionResponseTypes: []string{}, DestinationConfig: &DestinationConfig{}}, false))
	require.False(t, st.reportItems)
	require.Empty(t, st.onFailure)
	require.NoError(t, st.apply(&Spec{FunctionName: ptr("other")}, false))
	require.Equal(t, "other", st.function)
	require.Equal(t, testStreamARN, st.sourceARN, "the source is not updated")
}

// TestSettingsRefused: requests Lambda refuses, with the error type a
// client sees.
func TestSettingsRefused(t *testing.T) {
	cases := []struct {
		name string
		edit func(s *Spec)
		typ  string
	}{
		{"no source", func(s *Spec) { s.EventSourceArn = nil }, "InvalidParameterValueException"},
		{"not a stream", func(s *Spec) { s.EventSourceArn = ptr("arn:aws:dynamodb:us-east-1:000000000000:table/orders") }, "InvalidParameterValueException"},
		{"an SQS queue", func(s *Spec) { s.EventSourceArn = ptr("arn:aws:sqs:us-east-1:000000000000:q") }, "InvalidParameterValueException"},
		{"no function", func(s *Spec) { s.FunctionName = nil }, "InvalidParameterValueException"},
		{"a bad function name", func(s *Spec) { s.FunctionName = ptr("my fn") }, "ValidationException"},
		{"an ARN with a bad account", func(s *Spec) { s.FunctionName = ptr("arn:aws:lambda:us-east-1:1:function:x") }, "ValidationException"},
		{"a function name over 140", func(s *Spec) { s.FunctionName = ptr(strings.Repeat("f", 141)) }, "ValidationException"},
		{"an empty function name", func(s *Spec) { s.FunctionName = ptr("") }, "ValidationException"},
		{"a tumbling window of -1 s", func(s *Spec) { s.TumblingWindowInSeconds = ptr(int64(-1)) }, "ValidationException"},
		{"no starting position", func(s *Spec) { s.StartingPosition = nil }, "InvalidParameterValueException"},
		{"AT_TIMESTAMP", func(s *Spec) { s.StartingPosition = ptr(posAtTimestamp) }, "InvalidParameterValueException"},
		{"another starting position", func(s *Spec) { s.StartingPosition = ptr("OLDEST") }, "ValidationException"},
		{"BatchSize 0", func(s *Spec) { s.BatchSize = ptr(int64(0)) }, "ValidationException"},
		{"BatchSize 10001", func(s *Spec) { s.BatchSize = ptr(int64(10001)) }, "ValidationException"},
		{"a window of 301 s", func(s *Spec) { s.MaximumBatchingWindowInSeconds = ptr(int64(301)) }, "ValidationException"},
		{"retries -2", func(s *Spec) { s.MaximumRetryAttempts = ptr(int64(-2)) }, "ValidationException"},
		{"a record age of 59 s", func(s *Spec) { s.MaximumRecordAgeInSeconds = ptr(int64(59)) }, "InvalidParameterValueException"},
		{"a record age past a week", func(s *Spec) { s.MaximumRecordAgeInSeconds = ptr(int64(604801)) }, "ValidationException"},
		{"ParallelizationFactor 11", func(s *Spec) { s.ParallelizationFactor = ptr(int64(11)) }, "ValidationException"},
		{"a tumbling window of 901 s", func(s *Spec) { s.TumblingWindowInSeconds = ptr(int64(901)) }, "ValidationException"},
		{"another response type", func(s *Spec) { s.FunctionResponseTypes = []string{"ReportItemFailures"} }, "ValidationException"},
		{"a bad pattern", func(s *Spec) { s.FilterCriteria = &FilterCriteria{Filters: []Filter{{Pattern: ptr(`{"a":"x"}`)}}} }, "InvalidParameterValueException"},
		{"a filter without a pattern", func(s *Spec) { s.FilterCriteria = &FilterCriteria{Filters: []Filter{{}}} }, "InvalidParameterValueException"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			s := minimalSpec()
			tc.edit(s)
			var st settings
			err := st.apply(s, true)
			require.Error(t, err)
			status, typ := ErrorStatus(err)
			require.Equal(t, 400, status)
			require.Equal(t, tc.typ, typ)
		})
	}
	status, typ := ErrorStatus(errors.New("anything else"))
	require.Equal(t, 500, status)
	require.Equal(t, "ServiceException", typ)
}

// TestSettingsRanges: the ends of each range are taken.
func TestSettingsRanges(t *testing.T) {
	for _, edit := range []func(s *Spec){
		func(s *Spec) { s.BatchSize = ptr(int64(1)) },
		func(s *Spec) { s.MaximumBatchingWindowInSeconds = ptr(int64(0)) },
		func(s *Spec) { s.MaximumRetryAttempts = ptr(int64(-1)) },
		func(s *Spec) { s.MaximumRetryAttempts = ptr(int64(0)) },
		func(s *Spec) { s.MaximumRecordAgeInSeconds = ptr(int64(-1)) },
		func(s *Spec) { s.MaximumRecordAgeInSeconds = ptr(int64(60)) },
		func(s *Spec) { s.ParallelizationFactor = ptr(int64(1)) },
		func(s *Spec) { s.TumblingWindowInSeconds = ptr(int64(0)) },
		func(s *Spec) { s.StartingPosition = ptr(posTrimHorizon) },
	} {
		s := minimalSpec()
		edit(s)
		var st settings
		require.NoError(t, st.apply(s, true))
	}
}

// TestFunctionName: a name, a partial ARN or a whole one name the
// function.
func TestFunctionName(t *testing.T) {
	for in, want := range map[string]string{
		"fn":                       "fn",
		"my-Function_2":            "my-Function_2",
		"123456789012:function:fn": "fn",
		"arn:aws:lambda:us-east-1:123456789012:function:fn": "fn",
		"":                        "",
		"a b":                     "",
		"fn/x":                    "",
		string(make([]byte, 141)): "",
	} {
		require.Equal(t, want, functionName(in), "%q", in)
	}
}

// TestStreamARN: a DynamoDB stream's ARN, and its region and account.
func TestStreamARN(t *testing.T) {
	require.True(t, isStreamARN(testStreamARN))
	for _, arn := range []string{"", "arn:aws:dynamodb:us-east-1:0:table/t", "arn:aws:kinesis:us-east-1:0:stream/s",
		"arn:aws:dynamodb:us-east-1:0:stream/t/stream/x", "table/t/stream/x"} {
		require.False(t, isStreamARN(arn), arn)
	}
	region, account := arnParts(testStreamARN)
	require.Equal(t, "us-east-1", region)
	require.Equal(t, "000000000000", account)
	region, account = arnParts("nope")
	require.Empty(t, region+account)
}
