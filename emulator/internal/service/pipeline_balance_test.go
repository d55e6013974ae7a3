package service

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/dynamoemu/dynamoemu/emulator/internal/apierr"
	"github.com/dynamoemu/dynamoemu/emulator/internal/testkit"
	"github.com/dynamoemu/dynamoemu/internal/access"
	"github.com/dynamoemu/dynamoemu/internal/faults"
	"github.com/dynamoemu/dynamoemu/internal/faults/throttle"
	"github.com/dynamoemu/dynamoemu/internal/storage"
	"github.com/stretchr/testify/require"
)

// refuser is a stage that refuses the nth use it is asked to begin
// (counted from 1; 0: none) with err, and every later one when all is
// set. It records nothing: the recorder beside it counts.
type refuser struct {
	n, seen atomic.Int64
	all     bool
	err     error
}

func (r *refuser) Watches(Table) bool { return true }

func (r *refuser) Begin(*TableUse) error {
	seen := r.seen.Add(1)
	if n := r.n.Load(); n > 0 && (seen == n || r.all && seen > n) {
		return r.err
	}
	return nil
}

func (r *refuser) End(*TableUse, Outcome) {}

// arm has r refuse the nth use from now on (0: none).
func (r *refuser) arm(n int64, err error, all bool) {
	r.seen.Store(0)
	r.err, r.all = err, all
	r.n.Store(n)
}

// balanceEnv is a pipelineEnv with the emulator's features and stages,
// a recorder counting every stage call, and a refuser.
type balanceEnv struct {
	*pipelineEnv
	rec *recorder
	ref *refuser
}

func newBalanceEnv(t testing.TB, extra ...Setting) *balanceEnv {
	rec, ref := &recorder{log: &seamLog{}}, &refuser{}
	stages := append(slices.Clone(wired.stages), rec, ref)
	p := newPipelineEnv(t, Config{Features: wiredFeatures(), Stages: stages, Settings: extra})
	rec.log.take() // the seeding requests'
	return &balanceEnv{pipelineEnv: p, rec: rec, ref: ref}
}

// requireBalanced requires that every use the recorder saw begin since
// the last call was ended, once: as many Ends as Begins.
func (b *balanceEnv) requireBalanced(t testing.TB, what string) {
	t.Helper()
	calls := b.rec.log.take()
	require.Lenf(t, kinds(calls, "end"), len(kinds(calls, "begin")), "%s: %d uses began, %d ended",
		what, len(kinds(calls, "begin")), len(kinds(calls, "end")))
}

// doCtx is pipelineEnv.do with the request's context ctx.
func (p *pipelineEnv) doCtx(ctx context.Context, op, body string) (int, string) {
	p.t.Helper()
	req := httptest.NewRequestWithContext(ctx, http.MethodPost, "/", strings.NewReader(body))
	req.Header.Set("X-Amz-Target", TargetPrefix+op)
	req.Header.Set("Content-Type", "application/x-amz-json-1.0")
	req.Header.Set("Authorization", testkit.Auth(pipelineAuthKey, pipelineRegion))
	rec := httptest.NewRecorder()
	p.h.ServeHTTP(rec, req)
	return rec.Code, rec.Body.String()
}

// TestBatchGetPastSixteenMBEndsEveryKey: a BatchGetItem whose answer
// passes 16 MB leaves the keys past it unprocessed, and ends the use of
// each (the keys begun by the stages and then left were never ended: 45
// begins, 43 ends before the batch's items had scopes of their own).
func TestBatchGetPastSixteenMBEndsEveryKey(t *testing.T) {
	b := newBalanceEnv(t)
	keys := b.bigTable(t)
	status, body := b.do("BatchGetItem", `{"RequestItems":{"big":{"Keys":[`+strings.Join(keys, ",")+`]}}}`)
	require.Equal(t, http.StatusOK, status, body[:min(len(body), 300)])
	require.Contains(t, body[len(body)-2000:], `"UnprocessedKeys":{"big":`, "the answer did not pass 16 MB")
	b.requireBalanced(t, "BatchGetItem past 16 MB")
}

// bigTable makes table big (on demand) holding 45 items of 390,000
// bytes, past 16 MB together, and returns their keys.
func (b *balanceEnv) bigTable(t testing.TB) []string {
	status, body := b.do("CreateTable", `{"TableName":"big","BillingMode":"PAY_PER_REQUEST",`+
		`"AttributeDefinitions":[{"AttributeName":"pk","AttributeType":"S"}],"KeySchema":[{"AttributeName":"pk","KeyType":"HASH"}]}`)
	require.Equal(t, http.StatusOK, status, body)
	pad := strings.Repeat("x", 390_000)
	var keys []string
	for i := range 45 {
		status, body := b.do("PutItem", fmt.Sprintf(`{"TableName":"big","Item":{"pk":{"S":"k%02d"},"v":{"S":"%s"}}}`, i, pad))
		require.Equal(t, http.StatusOK, status, body)
		keys = append(keys, fmt.Sprintf(`{"pk":{"S":"k%02d"}}`, i))
	}
	b.rec.log.take()
	return keys
}

// TestBatchWriteRefusedItemEndsTheOthers: a BatchWriteItem whose third
// write a stage refuses (not for throughput: the call fails) ends the
// uses of the two writes begun before it (they were left begun).
func TestBatchWriteRefusedItemEndsTheOthers(t *testing.T) {
	b := newBalanceEnv(t)
	writes := `{"RequestItems":{"pipe":[{"PutRequest":{"Item":{"pk":{"S":"b"}}}},` +
		`{"PutRequest":{"Item":{"pk":{"S":"c"}}}},{"PutRequest":{"Item":{"pk":{"S":"d"}}}}]}}`
	b.ref.arm(3, apierr.Validation("refused by the test"), false)
	status, body := b.do("BatchWriteItem", writes)
	require.NotEqual(t, http.StatusOK, status, body)
	b.requireBalanced(t, "BatchWriteItem, its third write refused")
	// Refused for throughput, the write is left unprocessed, the call answered.
	b.ref.arm(2, apierr.Throttling(), false)
	status, body = b.do("BatchWriteItem", writes)
	require.Equal(t, http.StatusOK, status, body)
	require.Contains(t, body, `"UnprocessedItems":{"pipe":[`)
	b.requireBalanced(t, "BatchWriteItem, its second write unprocessed")
}

// TestOpenScopeRefusesNesting: a scope opened while the call's scope is
// open panics (a nested use would drop the outer use's End; it was
// overwritten silently).
func TestOpenScopeRefusesNesting(t *testing.T) {
	c := &call{}
	c.openScope(nil, nil, storage.Key{})
	require.PanicsWithError(t, errScopeNested.Error(), func() { c.openScope(nil, nil, storage.Key{}) })
	var err error
	c.scope.end(&err)
	require.NotPanics(t, func() { c.openScope(nil, nil, storage.Key{}) }, "a scope opens once the last ended")
}

// TestUsesBalanced runs every data-plane operation (the features' too)
// under each way a use can end early, and requires that every use the
// stages began was ended, once: answered, refused by its condition,
// refused by a stage at its first or second use (for throughput or
// not), failed by a fault, throttled, and cancelled while a fault's
// delay held it.
func TestUsesBalanced(t *testing.T) {
	b := newBalanceEnv(t)
	for _, op := range dataPlaneOps(b.s) {
		tc, ok := pipelineCases[op]
		require.True(t, ok, op)
		t.Run(op, func(t *testing.T) {
			bodies := []string{tc.body, tc.condFail, tc.write, tc.collection}
			for _, body := range bodies {
				if body == "" {
					continue
				}
				b.do(op, body)
				b.requireBalanced(t, op)
				for _, n := range []int64{1, 2} {
					for _, err := range []error{apierr.Validation("refused"), apierr.Throttling()} {
						b.ref.arm(n, err, false)
						b.do(op, body)
						b.ref.arm(0, nil, false)
						b.requireBalanced(t, fmt.Sprintf("%s, use %d refused with %v", op, n, err))
					}
				}
			}
			require.NoError(t, b.inj.SetRules(1, []faults.Rule{{Operations: []string{op}, Fault: faults.InternalServerError}}))
			b.do(op, tc.body)
			b.requireBalanced(t, op+" under a fault")
			require.NoError(t, b.inj.SetRules(1, []faults.Rule{{Operations: []string{op}, Fault: faults.Delay, Delay: 5 * time.Minute}}))
			ctx, cancel := context.WithCancel(context.Background())
			cancel()
			b.doCtx(ctx, op, tc.body)
			b.requireBalanced(t, op+" cancelled")
			require.NoError(t, b.inj.SetRules(1, nil))
		})
	}
	t.Run("throttled", func(t *testing.T) {
		b := newBalanceEnv(t, SettingOf[throttle.Settings]{}.With(throttle.Settings{Provisioned: true, Burst: time.Second}))
		for _, op := range dataPlaneOps(b.s) {
			for range 4 {
				b.do(op, pipelineCases[op].body)
				b.requireBalanced(t, op+" throttled")
			}
		}
	})
}

// TestReadPageBeginsItsUse: Call.ReadPage begins the read's use itself,
// with what the feature's begin says the read is, and ends it. (Its begin
// had to call Call.BeginRead last: one that did not left the read unseen
// by every stage, no use begun.)
func TestReadPageBeginsItsUse(t *testing.T) {
	rec, c, tb := scopeEnv(t)
	page, err := Call{c: c}.ReadPage(&PageRead{Table: Table{t: tb}, Consistent: true},
		func() (PageUse, error) { return PageUse{Access: access.Scan}, nil },
		func(view func() *storage.Table, visit func(storage.EncodedItem) bool) error {
			view().ScanEncoded(storage.ScanRange{}, visit)
			return nil
		})
	require.NoError(t, err)
	require.Len(t, page.Stored, 1)
	calls := rec.log.take()
	require.Len(t, kinds(calls, "begin"), 1, "the page's read was not put to the stages")
	require.Len(t, kinds(calls, "end"), 1, "the page's read was not ended")
}

// FuzzUsesBalanced drives random mixes of the data-plane operations' requests
// (pipelineCases, batches of several items, a BatchGetItem past 16 MB),
// each with a stage refusing its nth use for throughput or not (one use
// or every one from it on), under a fault rule or not, cancelled or not,
// and requires that every use begun was ended once.
func FuzzUsesBalanced(f *testing.F) {
	b := newBalanceEnv(f)
	big := b.bigTable(f)
	ops := dataPlaneOps(b.s)
	f.Add([]byte{0, 0, 0, 0})
	f.Add([]byte{1, 3, 2, 1, 7, 1, 0, 4})
	f.Add([]byte{255, 40, 3, 2, 254, 9, 1, 1})
	f.Fuzz(func(t *testing.T, mix []byte) {
		b.t = t // the env's helper calls report to the input's test
		for len(mix) >= 4 {
			op, body := balanceRequest(ops, big, mix[0], mix[1])
			n, how := int64(mix[2]%4), mix[3]
			mix = mix[4:]
			var err error = apierr.Validation("refused")
			if how&1 != 0 {
				err = apierr.Throttling()
			}
			b.ref.arm(n, err, how&2 != 0)
			ctx, cancel := context.WithCancel(context.Background())
			if how&4 != 0 {
				require.NoError(t, b.inj.SetRules(1, []faults.Rule{{Operations: []string{op}, Fault: faults.InternalServerError, Every: 2}}))
			}
			if how&8 != 0 {
				require.NoError(t, b.inj.SetRules(1, []faults.Rule{{Operations: []string{op}, Fault: faults.Delay, Delay: 5 * time.Minute}}))
				cancel()
			}
			b.doCtx(ctx, op, body)
			cancel()
			b.ref.arm(0, nil, false)
			require.NoError(t, b.inj.SetRules(1, nil))
			b.requireBalanced(t, fmt.Sprintf("%s %s, use %d refused (%d)", op, body[:min(len(body), 200)], n, how))
		}
	})
}

// balanceRequest is the request which and arg pick: an operation's case
// (pipelineCases), a BatchWriteItem or BatchGetItem of several items, or
// a BatchGetItem of table big's keys (big) from one on.
func balanceRequest(ops, big []string, which, arg byte) (op, body string) {
	switch k := int(which) % (len(ops) + 3); {
	case k < len(ops):
		tc := pipelineCases[ops[k]]
		bodies := slices.DeleteFunc([]string{tc.body, tc.condFail, tc.write, tc.collection}, func(s string) bool { return s == "" })
		return ops[k], bodies[int(arg)%len(bodies)]
	case k == len(ops):
		var ws []string
		for i := range int(arg)%25 + 1 {
			ws = append(ws, fmt.Sprintf(`{"PutRequest":{"Item":{"pk":{"S":"w%d"}}}}`, i))
		}
		return "BatchWriteItem", `{"RequestItems":{"pipe":[` + strings.Join(ws, ",") + `]}}`
	case k == len(ops)+1:
		keys := []string{`{"pk":{"S":"a"}}`}
		for i := range int(arg) % 30 {
			keys = append(keys, fmt.Sprintf(`{"pk":{"S":"w%d"}}`, i))
		}
		return "BatchGetItem", `{"RequestItems":{"pipe":{"Keys":[` + strings.Join(keys, ",") + `]}},"ReturnConsumedCapacity":"TOTAL"}`
	default:
		return "BatchGetItem", `{"RequestItems":{"big":{"Keys":[` + strings.Join(big[int(arg)%10:], ",") + `]}}}`
	}
}
