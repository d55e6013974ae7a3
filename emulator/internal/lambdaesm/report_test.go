package lambdaesm

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/dynamoemu/dynamoemu/emulator/internal/streamlog"
)

// The rules below are those of "Configuring partial batch response with
// DynamoDB and Lambda" in Lambda's developer guide (its sections "Report
// syntax", "Success and failure conditions" and "Bisecting a batch"),
// and where the guide is silent, what AWS did in LocalStack's tests
// recorded against it (test_lambda_integration_dynamodbstreams and
// _kinesis: report_batch_item_success_scenarios and
// report_batch_item_failure_scenarios).

// reportBatch is a batch of three records of sequence numbers 100, 200
// and 300.
var reportBatch = []item{{seq: 100}, {seq: 200}, {seq: 300}}

func seqText(n uint64) string { return streamlog.FormatSequenceNumber(n) }

// TestReadItemFailures: what each answer of a function makes of its
// batch.
func TestReadItemFailures(t *testing.T) {
	first, second, third := seqText(100), seqText(200), seqText(300)
	none := itemReport{kind: reportNone}
	whole := itemReport{kind: reportWhole}
	from := func(i int) itemReport { return itemReport{kind: reportFrom, from: i} }
	cases := []struct {
		name, body string
		want       itemReport
	}{
		// "Lambda treats a batch as a complete success if you return any
		// of the following: An empty batchItemFailure list; A null
		// batchItemFailure list; An empty EventResponse; A null
		// EventResponse".
		{"an empty list", `{"batchItemFailures":[]}`, none},
		{"a null list", `{"batchItemFailures":null}`, none},
		{"an empty EventResponse", `{}`, none},
		{"an empty answer", ``, none},
		{"white space", " \n\t", none},
		{"a null EventResponse", `null`, none},
		// AWS takes [] and "" as successes (recorded against AWS);
		// any JSON that is no object carries no report.
		{"a list", `[]`, none},
		{"an empty string", `""`, none},
		{"a number", `42`, none},
		{"a boolean", `true`, none},
		// The member's name is matched exactly: any other is no report.
		{"another member", `{"failures":[{"itemIdentifier":"` + first + `"}]}`, none},
		{"the member's name in another case", `{"BatchItemFailures":[{"itemIdentifier":"` + first + `"}]}`, none},
		{"a tumbling window's answer", `{"state":{"n":1},"batchItemFailures":[]}`, none},

		// "Lambda treats a batch as a complete failure if you return any
		// of the following: An empty string itemIdentifier; A null
		// itemIdentifier; An itemIdentifier with a bad key name".
		{"an empty itemIdentifier", `{"batchItemFailures":[{"itemIdentifier":""}]}`, whole},
		{"a null itemIdentifier", `{"batchItemFailures":[{"itemIdentifier":null}]}`, whole},
		{"a bad key name", `{"batchItemFailures":[{"foo":"` + first + `"}]}`, whole},
		{"a bad key name, null", `{"batchItemFailures":[{"foo":null}]}`, whole},
		{"the key in another case", `{"batchItemFailures":[{"ItemIdentifier":"` + first + `"}]}`, whole},
		// AWS fails the batch for a number (recorded against AWS).
		{"a number itemIdentifier", `{"batchItemFailures":[{"itemIdentifier":123}]}`, whole},
		{"an object itemIdentifier", `{"batchItemFailures":[{"itemIdentifier":{"S":"x"}}]}`, whole},
		// An identifier of no record of the batch: the whole batch, as
		// the guide says of SQS's message IDs.
		{"an unknown sequence number", `{"batchItemFailures":[{"itemIdentifier":"` + seqText(150) + `"}]}`, whole},
		{"a sequence number past the batch", `{"batchItemFailures":[{"itemIdentifier":"` + seqText(400) + `"}]}`, whole},
		{"not a sequence number", `{"batchItemFailures":[{"itemIdentifier":"abc"}]}`, whole},
		{"a sequence number without its zeros", `{"batchItemFailures":[{"itemIdentifier":"100"}]}`, whole},
		{"a known one beside an unknown one", `{"batchItemFailures":[{"itemIdentifier":"` + second + `"},{"itemIdentifier":"x"}]}`, whole},
		{"a known one beside an empty one", `{"batchItemFailures":[{"itemIdentifier":"` + second + `"},{"itemIdentifier":""}]}`, whole},
		{"an entry that is no object", `{"batchItemFailures":["` + first + `"]}`, whole},
		{"a null entry", `{"batchItemFailures":[null]}`, whole},
		{"a list that is no list", `{"batchItemFailures":{"itemIdentifier":"` + first + `"}}`, whole},
		{"a list that is a string", `{"batchItemFailures":"` + first + `"}`, whole},
		// The guide lists "An invalid JSON response" as a complete
		// failure for SQS and says nothing of it for streams: taken as a
		// failure, so that no record is lost.
		{"not JSON", `OK`, whole},
		{"cut JSON", `{"batchItemFailures":[`, whole},

		// "You can use a StreamsEventResponse object to return the
		// sequence number of the first failed record in the batch."
		{"the first record", `{"batchItemFailures":[{"itemIdentifier":"` + first + `"}]}`, from(0)},
		{"the second record", `{"batchItemFailures":[{"itemIdentifier":"` + second + `"}]}`, from(1)},
		{"the last record", `{"batchItemFailures":[{"itemIdentifier":"` + third + `"}]}`, from(2)},
		// "If the batchItemFailures array contains multiple items, Lambda
		// uses the record with the lowest sequence number as the
		// checkpoint. Lambda then retries all records starting from that
		// checkpoint."
		{"several, the lowest counts", `{"batchItemFailures":[{"itemIdentifier":"` + third + `"},{"itemIdentifier":"` + second + `"}]}`, from(1)},
		{"every record", `{"batchItemFailures":[{"itemIdentifier":"` + third + `"},{"itemIdentifier":"` + first + `"},{"itemIdentifier":"` + second + `"}]}`, from(0)},
		{"the same record twice", `{"batchItemFailures":[{"itemIdentifier":"` + second + `"},{"itemIdentifier":"` + second + `"}]}`, from(1)},
		{"other members beside", `{"batchItemFailures":[{"itemIdentifier":"` + second + `","reason":"x"}],"state":{}}`, from(1)},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got, why := readItemFailures([]byte(tc.body), reportBatch)
			require.Equal(t, tc.want, got)
			if got.kind == reportWhole {
				require.NotEmpty(t, why, "a complete failure says why")
			} else {
				require.Empty(t, why)
			}
		})
	}
}

// TestNoFailureIsNotTheFirstRecord: "no record failed" and "the first
// record failed" are different answers (with one record, a report always
// names the first).
func TestNoFailureIsNotTheFirstRecord(t *testing.T) {
	one := []item{{seq: 7}}
	none, _ := readItemFailures([]byte(`{"batchItemFailures":[]}`), one)
	first, _ := readItemFailures([]byte(`{"batchItemFailures":[{"itemIdentifier":"`+seqText(7)+`"}]}`), one)
	require.NotEqual(t, none, first)
	require.True(t, result{ok: true, report: none}.done())
	require.False(t, result{ok: true, report: first}.done())
	require.True(t, result{ok: true, report: first}.partial())
	require.False(t, result{ok: false}.done(), "a function error")
	require.False(t, result{ok: false, report: first}.partial(), "a function error's answer is not read")
}

// FuzzReadItemFailures: any answer is read without a panic; a partial
// failure names a record of the batch that some itemIdentifier names.
func FuzzReadItemFailures(f *testing.F) {
	for _, s := range []string{``, `null`, `{}`, `[]`, `""`, `{"batchItemFailures":[]}`, `{"batchItemFailures":null}`,
		`{"batchItemFailures":[{"itemIdentifier":"` + seqText(100) + `"}]}`, `{"batchItemFailures":[{"itemIdentifier":""}]}`,
		`{"batchItemFailures":[{"itemIdentifier":123}]}`, `{"batchItemFailures":[null,"x",{}]}`, `OK`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, body string) {
		r, why := readItemFailures([]byte(body), reportBatch)
		switch r.kind {
		case reportNone:
			require.Empty(t, why)
		case reportWhole:
			require.NotEmpty(t, why)
		case reportFrom:
			require.GreaterOrEqual(t, r.from, 0)
			require.Less(t, r.from, len(reportBatch))
			var resp map[string][]map[string]any
			require.NoError(t, json.Unmarshal([]byte(body), &resp))
			named := false
			for _, e := range resp["batchItemFailures"] {
				id, _ := e["itemIdentifier"].(string)
				named = named || id == seqText(reportBatch[r.from].seq)
			}
			require.True(t, named, "the record at %d is named", r.from)
		default:
			t.Fatalf("kind %d", r.kind)
		}
	})
}

// TestReadItemFailuresLargeBatch: a batch of BatchSize's largest,
// 10,000 records, every one reported in reverse order: the lowest
// counts.
func TestReadItemFailuresLargeBatch(t *testing.T) {
	recs := make([]item, maxBatchSize)
	var b strings.Builder
	b.WriteString(`{"batchItemFailures":[`)
	for i := range recs {
		recs[i].seq = uint64(1000 + 3*i) // a lane's records: in order, not consecutive
	}
	for i := len(recs) - 1; i >= 0; i-- {
		b.WriteString(`{"itemIdentifier":"` + seqText(recs[i].seq) + `"}`)
		if i > 0 {
			b.WriteByte(',')
		}
	}
	b.WriteString(`]}`)
	got, _ := readItemFailures([]byte(b.String()), recs)
	require.Equal(t, itemReport{kind: reportFrom, from: 0}, got)
	got, _ = readItemFailures([]byte(`{"batchItemFailures":[{"itemIdentifier":"`+seqText(1000+3*5000+1)+`"}]}`), recs)
	require.Equal(t, reportWhole, got.kind, "between two records of the lane")
	got, _ = readItemFailures([]byte(`{"batchItemFailures":[{"itemIdentifier":"`+seqText(1000+3*9999)+`"}]}`), recs)
	require.Equal(t, itemReport{kind: reportFrom, from: 9999}, got)
}
