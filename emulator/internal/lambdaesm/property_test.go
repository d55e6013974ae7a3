package lambdaesm

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/dynamoemu/dynamoemu/emulator/internal/testkit"
)

// The property test of a mapping's error handling: for random batches,
// answers and settings, what the mapping delivers, retries and discards
// is what a small model of Lambda's rules says. The model below is
// written from the developer guide, not from deliver.go, and reads no
// answer: the handler tells it what each answer means by the guide's
// rules (outcome), while the mapping reads the answer itself.
//
// The rules ("Error handling", "Configuring partial batch response" and
// "Retaining discarded batches" in Lambda's DynamoDB guide):
//
//  1. Records are read in order and sent BatchSize at a time.
//  2. "If the function receives the records but returns an error, Lambda
//     retries until the records in the batch expire, exceed the maximum
//     age, or reach the configured retry quota."
//  3. "Lambda treats a batch as a complete success if you return ... an
//     empty batchItemFailure list, a null batchItemFailure list, an
//     empty EventResponse, a null EventResponse"; "as a complete failure
//     if you return ... an empty string itemIdentifier, a null
//     itemIdentifier, an itemIdentifier with a bad key name"; and
//     "Lambda uses the record with the lowest sequence number as the
//     checkpoint. Lambda then retries all records starting from that
//     checkpoint." Without ReportBatchItemFailures "these responses will
//     not be processed".
//  4. "For function errors, you can also configure the event source
//     mapping to split a failed batch into two batches ... Splitting a
//     batch does not count towards the retry quota." "If your invocation
//     fails and BisectBatchOnFunctionError is turned on, the batch is
//     bisected regardless of your ReportBatchItemFailures setting. When a
//     partial batch success response is received and both ... are turned
//     on, the batch is bisected at the returned sequence number and
//     Lambda retries only the remaining records."
//  5. "When Lambda discards a batch of records that's too old or has
//     exhausted all retries, Lambda sends details about the batch to the
//     queue or topic": condition RetryAttemptsExhausted or
//     RecordAgeExceeded, approximateInvokeCount, and the batch's first
//     and last sequence numbers and size.
//
// Where the guide leaves a choice, the model takes the emulator's
// (docs/stream-handlers.md): records already too old when their batch is
// first read are discarded before it is sent (those at its head: a
// batch's records are in the order of their age), and a batch retried
// past the age is given up on whole; the invocation count of a batch
// retried after a partial failure goes on from the larger batch's (AWS
// counted 4 for a record reported 4 times after its 3-record batch, with
// MaximumRetryAttempts 3); a half of a split batch counts its own
// invocations and keeps the retries of the batch it came from.

// outcome is what an answer is by the guide's rules.
type outcome uint8

const (
	outSuccess outcome = iota // a complete success
	outPartial                // failed from the record at from on
	outWhole                  // a complete failure by report (functionError null)
	outFuncErr                // a function error (functionError "Unhandled")
)

// failStyle is how the handler shows a record's failure.
type failStyle uint8

const (
	styleReport    failStyle = iota // batchItemFailures names the failing records
	styleEvery                      // batchItemFailures names every record of the batch
	styleError                      // a function error (its answer a report, unread)
	styleEmptyID                    // itemIdentifier ""
	styleNullID                     // itemIdentifier null
	styleBadKey                     // {"foo": ...}
	styleNumberID                   // itemIdentifier 123
	styleUnknownID                  // a sequence number of no record of the batch
	styleNotJSON                    // an answer that is not JSON
	nStyles
)

var styleNames = [...]string{"report", "every", "error", "emptyID", "nullID", "badKey", "numberID", "unknownID", "notJSON"}

// successBodies are answers the guide makes complete successes.
var successBodies = []string{`{"batchItemFailures":[]}`, `{"batchItemFailures":null}`, `{}`, ``, `null`, `[]`, `""`}

// scenario is one random case.
type scenario struct {
	n       int     // records r00, r01, ...
	gaps    []int   // seconds of the clock before each record's write
	batch   int     // BatchSize
	bisect  bool    // BisectBatchOnFunctionError
	report  bool    // ReportBatchItemFailures
	retries int64   // MaximumRetryAttempts (-1: unbounded)
	maxAge  int64   // MaximumRecordAgeInSeconds (-1: unbounded)
	step    int     // seconds of the clock an invocation takes
	fails   []int   // per record: how many of the invocations holding it fail (-1: all)
	styles  []uint8 // per record: its failStyle
	seed    uint64  // the handler's choices of answer
}

func (sc scenario) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%d records, BatchSize %d, bisect %v, ReportBatchItemFailures %v, MaximumRetryAttempts %d, MaximumRecordAgeInSeconds %d, %d s an invocation, gaps %v;",
		sc.n, sc.batch, sc.bisect, sc.report, sc.retries, sc.maxAge, sc.step, sc.gaps)
	for i := range sc.n {
		if sc.fails[i] != 0 {
			fmt.Fprintf(&b, " %s fails %d (%s)", recID(i), sc.fails[i], styleNames[sc.styles[i]])
		}
	}
	return b.String()
}

func recID(i int) string { return fmt.Sprintf("r%02d", i) }

func randomScenario(r *rand.Rand) scenario {
	sc := scenario{n: 1 + r.IntN(9), bisect: r.IntN(2) == 0, report: r.IntN(5) > 0, retries: int64(r.IntN(4)),
		maxAge: -1, step: r.IntN(4), seed: r.Uint64()}
	sc.batch = 1 + r.IntN(sc.n+1)
	if r.IntN(3) == 0 {
		sc.maxAge = 60 + int64(r.IntN(3))*30
		sc.step = r.IntN(40)
	}
	if sc.maxAge >= 0 && r.IntN(4) == 0 {
		sc.retries = -1
		sc.step = 30 + r.IntN(30) // the age ends the retries, in at most a few
	}
	for range sc.n {
		sc.gaps = append(sc.gaps, r.IntN(25))
		f := 0
		switch r.IntN(6) {
		case 0, 1:
		case 2:
			f = -1
		default:
			f = 1 + r.IntN(4)
		}
		sc.fails = append(sc.fails, f)
		sc.styles = append(sc.styles, uint8(r.IntN(int(nStyles))))
	}
	if r.IntN(8) == 0 { // every record fails the same way
		for i := range sc.fails {
			sc.fails[i], sc.styles[i] = -1, sc.styles[0]
		}
	}
	return sc
}

// handler is the scenario's function: it answers each invocation by the
// failing records of its batch, and says what the answer means.
type handler struct {
	sc    scenario
	rng   *rand.Rand
	tries []int // per record: the invocations that held it
}

func newHandler(sc scenario) *handler {
	return &handler{sc: sc, rng: rand.New(rand.NewPCG(sc.seed, 1)), tries: make([]int, sc.n)}
}

// answer is the answer to an invocation of the records batch (indices),
// whose sequence numbers are seqs, and what it means.
func (h *handler) answer(batch []int, seqs func(int) string) (body string, out outcome, from int, err error) {
	failing := -1 // the failing record of the batch first in it
	var named []string
	for pos, i := range batch {
		h.tries[i]++
		if f := h.sc.fails[i]; f < 0 || h.tries[i] <= f {
			if failing < 0 {
				failing = pos
			}
			named = append(named, `{"itemIdentifier":`+strconv.Quote(seqs(i))+`}`)
		}
	}
	if failing < 0 {
		return successBodies[h.rng.IntN(len(successBodies))], outSuccess, 0, nil
	}
	list := func(items []string) string {
		items = slices.Clone(items)
		h.rng.Shuffle(len(items), func(a, b int) { items[a], items[b] = items[b], items[a] })
		if h.rng.IntN(4) == 0 {
			items = append(items, items[0]) // a record named twice
		}
		return `{"batchItemFailures":[` + strings.Join(items, ",") + `]}`
	}
	style := failStyle(h.sc.styles[batch[failing]])
	ifReported := func(o outcome) outcome {
		if !h.sc.report {
			return outSuccess // "these responses will not be processed"
		}
		return o
	}
	switch style {
	case styleError:
		return list(named), outFuncErr, 0, errors.New("function error")
	case styleReport:
		return list(named), ifReported(outPartial), failing, nil
	case styleEvery:
		all := make([]string, len(batch))
		for pos, i := range batch {
			all[pos] = `{"itemIdentifier":` + strconv.Quote(seqs(i)) + `}`
		}
		return list(all), ifReported(outPartial), 0, nil
	case styleEmptyID:
		return list(append(named, `{"itemIdentifier":""}`)), ifReported(outWhole), 0, nil
	case styleNullID:
		return list(append(named, `{"itemIdentifier":null}`)), ifReported(outWhole), 0, nil
	case styleBadKey:
		return `{"batchItemFailures":[{"foo":` + strconv.Quote(seqs(batch[failing])) + `}]}`, ifReported(outWhole), 0, nil
	case styleNumberID:
		return `{"batchItemFailures":[{"itemIdentifier":123}]}`, ifReported(outWhole), 0, nil
	case styleUnknownID:
		return list(append(named, `{"itemIdentifier":"`+seqText(1<<62)+`"}`)), ifReported(outWhole), 0, nil
	default: // styleNotJSON
		return `failed: ` + seqs(batch[failing]), ifReported(outWhole), 0, nil
	}
}

// discardRec is a discarded batch as the model and the mapping say it.
type discardRec struct {
	Records   []int
	Condition string
	Invokes   int
	Responded bool // a responseContext
	FuncError bool // its functionError is not null
}

// trace is what a run did: each invocation's records, and the discards.
type trace struct {
	Calls    [][]int
	Discards []discardRec
}

// handled are the records the model's run delivered (an invocation
// that succeeded for them) and those it discarded.
type handled struct{ delivered, discarded []int }

// model runs the scenario by the guide's rules.
func model(sc scenario) (trace, handled) {
	h := newHandler(sc)
	var tr trace
	var done handled
	at := make([]int64, sc.n) // each record's write, in seconds from the start
	var clock int64
	for i := range sc.n {
		clock += int64(sc.gaps[i])
		at[i] = clock
	}
	seqs := func(i int) string { return recID(i) } // the model's identifiers: only the outcome counts
	tooOld := func(i int) bool { return sc.maxAge >= 0 && clock-at[i] > sc.maxAge }
	var run func(recs []int, retries int64)
	run = func(recs []int, retries int64) {
		invokes, lastOut := 0, outSuccess
		discard := func(recs []int, cond string) {
			done.discarded = append(done.discarded, recs...)
			tr.Discards = append(tr.Discards, discardRec{Records: slices.Clone(recs), Condition: cond, Invokes: invokes,
				Responded: invokes > 0, FuncError: invokes > 0 && lastOut == outFuncErr})
		}
		for len(recs) > 0 {
			if invokes == 0 {
				k := 0
				for k < len(recs) && tooOld(recs[k]) {
					k++
				}
				if k > 0 {
					discard(recs[:k], "RecordAgeExceeded")
					recs = recs[k:]
					continue
				}
			} else if tooOld(recs[0]) {
				discard(recs, "RecordAgeExceeded")
				return
			}
			tr.Calls = append(tr.Calls, slices.Clone(recs))
			_, out, from, _ := h.answer(recs, seqs)
			clock += int64(sc.step)
			invokes++
			lastOut = out
			switch out {
			case outSuccess:
				done.delivered = append(done.delivered, recs...)
				return
			case outPartial:
				done.delivered = append(done.delivered, recs[:from]...)
				recs = recs[from:]
			default:
				if sc.bisect && len(recs) > 1 {
					half := len(recs) / 2
					run(recs[:half], retries)
					run(recs[half:], retries)
					return
				}
			}
			retries++
			if sc.retries >= 0 && retries > sc.retries {
				discard(recs, "RetryAttemptsExhausted")
				return
			}
		}
	}
	all := make([]int, sc.n)
	for i := range all {
		all[i] = i
	}
	for lo := 0; lo < sc.n; lo += sc.batch {
		run(all[lo:min(lo+sc.batch, sc.n)], 0)
	}
	return tr, done
}

// runMapping runs the scenario through a mapping.
func runMapping(t *testing.T, sc scenario) (trace, Status) {
	e := newESMEnv(t)
	h := newHandler(sc)
	var tr trace
	index := map[string]int{}
	seqOf := map[int]string{}
	e.m.SetFunction("fn", func(_ context.Context, payload []byte) ([]byte, error) {
		var ev event
		if err := json.Unmarshal(payload, &ev); err != nil {
			return nil, err
		}
		var recs []int
		for _, id := range ev.ids() {
			i, _ := strconv.Atoi(strings.TrimPrefix(id, "r"))
			recs = append(recs, i)
			seqOf[i] = ev.seq(id)
		}
		tr.Calls = append(tr.Calls, recs)
		body, _, _, err := h.answer(recs, func(i int) string { return seqOf[i] })
		e.Clock.Advance(time.Duration(sc.step) * time.Second)
		return []byte(body), err
	})
	id := e.create(func(s *Spec) {
		s.Enabled = ptr(false)
		s.BatchSize = ptr(int64(sc.batch))
		s.BisectBatchOnFunctionError = ptr(sc.bisect)
		s.MaximumRetryAttempts = ptr(sc.retries)
		s.MaximumRecordAgeInSeconds = ptr(sc.maxAge)
		if sc.report {
			reportItems(s)
		}
	})
	for i := range sc.n {
		e.Clock.Advance(time.Duration(sc.gaps[i]) * time.Second)
		e.put(recID(i), "")
	}
	s := e.stream()
	first, _ := s.Bounds(e.Clock.Now())
	recs, _, _, err := s.Read(first, 1000, 1<<40, e.Clock.Now())
	require.NoError(t, err)
	for _, r := range recs {
		index[seqText(r.Seq)] = len(index)
	}
	e.enable(id)
	e.drain()
	for _, d := range e.failures(id) {
		lo, hi := index[d.DDBStreamBatchInfo.StartSequenceNumber], index[d.DDBStreamBatchInfo.EndSequenceNumber]
		var ids []int
		for i := lo; i <= hi; i++ {
			ids = append(ids, i)
		}
		require.Len(t, ids, d.DDBStreamBatchInfo.BatchSize, "batchSize is the records from start to end")
		dr := discardRec{Records: ids, Condition: d.RequestContext.Condition, Invokes: d.RequestContext.ApproximateInvokeCount,
			Responded: d.ResponseContext != nil}
		if d.ResponseContext != nil {
			dr.FuncError = d.ResponseContext.FunctionError != nil
		}
		tr.Discards = append(tr.Discards, dr)
	}
	return tr, e.status(id)
}

// esmSeed is the property test's seed: the clock's, or
// DYNAMOEMU_ESM_SEED's to replay one, logged either way.
func esmSeed(t *testing.T) uint64 {
	t.Helper()
	seed := uint64(time.Now().UnixNano())
	if v := os.Getenv("DYNAMOEMU_ESM_SEED"); v != "" {
		var err error
		seed, err = strconv.ParseUint(v, 10, 64)
		require.NoError(t, err, "DYNAMOEMU_ESM_SEED")
	}
	t.Logf("seed %d (replay: DYNAMOEMU_ESM_SEED=%d)", seed, seed)
	return seed
}

// TestDeliveryMatchesTheModel: random scenarios, each run through a
// mapping and through the model; the invocations (each one's records, in
// order) and the discards (records, condition, invocation count, and
// whether the function answered and with an error) are the same, and
// every record is either delivered at last or discarded, never lost.
func TestDeliveryMatchesTheModel(t *testing.T) {
	cases := 150
	switch {
	case os.Getenv("DYNAMOEMU_HEAVY_TESTS") != "" && testkit.RaceEnabled:
		cases = 3000 // 1,000 took 7.4 s under the race detector at load 11
	case os.Getenv("DYNAMOEMU_HEAVY_TESTS") != "":
		cases = 4000
	}
	r := rand.New(rand.NewPCG(esmSeed(t), 3))
	seen := map[string]int{}
	for c := range cases {
		sc := randomScenario(r)
		want, done := model(sc)
		// The model loses no record: each is delivered or discarded, once.
		all := slices.Concat(done.delivered, done.discarded)
		slices.Sort(all)
		require.Len(t, all, sc.n, "case %d: the model handled each record once: %v", c, done)
		for i, v := range all {
			require.Equal(t, i, v, "case %d: %v", c, done)
		}
		var got trace
		var st Status
		if !t.Run(fmt.Sprintf("case%d", c), func(t *testing.T) {
			got, st = runMapping(t, sc)
			require.Equal(t, want, got, "case %d: %s", c, sc)
		}) {
			t.Fatalf("case %d differs from the model: %s", c, sc)
		}
		require.EqualValues(t, len(done.discarded), st.Discarded, "case %d: the status's discarded records", c)
		for _, d := range want.Discards {
			seen[d.Condition]++
		}
		for _, call := range want.Calls {
			if call[0] == 0 && len(call) == 1 {
				seen["BatchSize 1, the first record"]++
			}
		}
		seen["delivered"] += len(done.delivered)
	}
	t.Logf("%d cases: %v", cases, seen)
}
