package faults

import (
	"bytes"
	"errors"
	"log/slog"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/dynamoemu/dynamoemu/internal/storage"
)

func key(pk, sk string) storage.Key {
	k := storage.Key{Partition: storage.S(pk)}
	if sk != "" {
		k.Sort = storage.S(sk)
	}
	return k
}

func TestKinds(t *testing.T) {
	tests := []struct {
		k                  Kind
		name, errType      string
		status             int
		cancelCode         string
		retried            bool
		message, indexText string
	}{
		{TransactionConflict, "TransactionConflict", "TransactionConflictException", 400, "TransactionConflict", false, msgTransactionConflict, msgTransactionConflict},
		{TransactionInProgress, "TransactionInProgress", "TransactionInProgressException", 400, "", true, msgTransactionInProgress, msgTransactionInProgress},
		{ConditionalCheckFailed, "ConditionalCheckFailed", "ConditionalCheckFailedException", 400, "ConditionalCheckFailed", false, msgConditionalCheckFailed, msgConditionalCheckFailed},
		{InternalServerError, "InternalServerError", "InternalServerError", 500, "", true, msgInternalServerError, msgInternalServerError},
		{RequestLimitExceeded, "RequestLimitExceeded", "RequestLimitExceeded", 400, "", true, msgRequestLimitExceeded, msgRequestLimitExceeded},
		{Throttling, "Throttling", "ThrottlingException", 400, "ThrottlingError", true, MsgThrottlingTable, MsgThrottlingIndex},
		{ProvisionedThroughputExceeded, "ProvisionedThroughputExceeded", "ProvisionedThroughputExceededException", 400, "ProvisionedThroughputExceeded", true, MsgProvisionedTable, MsgProvisionedIndex},
		{Delay, "Delay", "", 0, "", false, "", ""},
	}
	for _, tc := range tests {
		if got := tc.k.String(); got != tc.name {
			t.Errorf("String() = %q, want %q", got, tc.name)
		}
		if got, ok := KindOf(tc.name); !ok || got != tc.k {
			t.Errorf("KindOf(%q) = %v, %v, want %v", tc.name, got, ok, tc.k)
		}
		if got := tc.k.ErrorType(); got != tc.errType {
			t.Errorf("%v.ErrorType() = %q, want %q", tc.k, got, tc.errType)
		}
		if got := tc.k.Status(); got != tc.status {
			t.Errorf("%v.Status() = %d, want %d", tc.k, got, tc.status)
		}
		if got := tc.k.CancellationCode(); got != tc.cancelCode {
			t.Errorf("%v.CancellationCode() = %q, want %q", tc.k, got, tc.cancelCode)
		}
		if got := tc.k.Retried(); got != tc.retried {
			t.Errorf("%v.Retried() = %v, want %v", tc.k, got, tc.retried)
		}
		if got := tc.k.Message(); got != tc.message {
			t.Errorf("%v.Message() = %q, want %q", tc.k, got, tc.message)
		}
		if got := tc.k.IndexMessage(); got != tc.indexText {
			t.Errorf("%v.IndexMessage() = %q, want %q", tc.k, got, tc.indexText)
		}
	}
	if _, ok := KindOf("None"); ok {
		t.Errorf("KindOf(None) is a kind a rule may name")
	}
}

func TestMatch(t *testing.T) {
	n, _ := storage.ParseNumber("1.50")
	tests := []struct {
		name string
		rule Rule
		call Call
		want bool
	}{
		{"any", Rule{}, Call{Op: "Scan", Table: "T"}, true},
		{"table", Rule{Table: "T"}, Call{Op: "GetItem", Table: "T"}, true},
		{"other table", Rule{Table: "T"}, Call{Op: "GetItem", Table: "U"}, false},
		{"index", Rule{Index: "byX"}, Call{Op: "Query", Table: "T", Index: "byX"}, true},
		{"index, call on table", Rule{Index: "byX"}, Call{Op: "Query", Table: "T"}, false},
		{"operation", Rule{Operations: []string{"PutItem", "UpdateItem"}}, Call{Op: "UpdateItem"}, true},
		{"other operation", Rule{Operations: []string{"PutItem"}}, Call{Op: "GetItem"}, false},
		{"exact pk", Rule{PartitionKey: "A#1"}, Call{Key: key("A#1", "")}, true},
		{"exact pk differs", Rule{PartitionKey: "A#1"}, Call{Key: key("A#12", "")}, false},
		{"pk prefix", Rule{PartitionKeyPrefix: "A#"}, Call{Key: key("A#12", "x")}, true},
		{"pk prefix differs", Rule{PartitionKeyPrefix: "B#"}, Call{Key: key("A#12", "x")}, false},
		{"pk on scan", Rule{PartitionKeyPrefix: "A#"}, Call{Op: "Scan"}, false},
		{"sk exact", Rule{SortKey: "x"}, Call{Key: key("p", "x")}, true},
		{"sk on query", Rule{SortKey: "x"}, Call{Key: key("p", "")}, false},
		{"sk prefix", Rule{SortKeyPrefix: "2024-"}, Call{Key: key("p", "2024-01")}, true},
		{"number pk", Rule{PartitionKey: "1.5"}, Call{Key: storage.Key{Partition: storage.N(n)}}, true},
		{"binary pk", Rule{PartitionKey: "\x01\x02"}, Call{Key: storage.Key{Partition: storage.B([]byte{1, 2})}}, true},
		{"all fields", Rule{Table: "T", Index: "I", Operations: []string{"Query"}, PartitionKeyPrefix: "A"}, Call{Op: "Query", Table: "T", Index: "I", Key: key("Ab", "")}, true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			tc.rule.Fault = InternalServerError
			in := New(Options{})
			if err := in.SetRules(1, []Rule{tc.rule}); err != nil {
				t.Fatal(err)
			}
			got := in.Decide(tc.call).Kind == InternalServerError
			if got != tc.want {
				t.Errorf("rule %+v on call %+v: fired %v, want %v", tc.rule, tc.call, got, tc.want)
			}
		})
	}
}

// fireSequence returns, for n calls of c, which fired.
func fireSequence(t *testing.T, in *Injector, c Call, n int) string {
	t.Helper()
	var b strings.Builder
	for range n {
		if in.Decide(c).Kind != None {
			b.WriteByte('x')
		} else {
			b.WriteByte('.')
		}
	}
	return b.String()
}

func TestTriggers(t *testing.T) {
	tests := []struct {
		name string
		rule Rule
		want string
	}{
		{"always", Rule{}, "xxxxxxxxxx"},
		{"every 3", Rule{Every: 3}, "..x..x..x."},
		{"first 2", Rule{Count: 2}, "xx........"},
		{"every 2, at most 3", Rule{Every: 2, Count: 3}, ".x.x.x...."},
		{"probability 1", Rule{Probability: 1}, "xxxxxxxxxx"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			tc.rule.Fault = Throttling
			in := New(Options{})
			if err := in.SetRules(7, []Rule{tc.rule}); err != nil {
				t.Fatal(err)
			}
			if got := fireSequence(t, in, Call{Op: "PutItem"}, 10); got != tc.want {
				t.Errorf("got %s, want %s", got, tc.want)
			}
		})
	}
}

func TestProbabilityIsSeeded(t *testing.T) {
	rules := []Rule{{Probability: 0.3, Fault: InternalServerError}}
	run := func(seed uint64) string {
		in := New(Options{})
		if err := in.SetRules(seed, rules); err != nil {
			t.Fatal(err)
		}
		return fireSequence(t, in, Call{Op: "GetItem"}, 200)
	}
	a, b := run(42), run(42)
	if a != b {
		t.Errorf("same seed, different sequences:\n%s\n%s", a, b)
	}
	if c := run(43); c == a {
		t.Errorf("seeds 42 and 43 gave the same 200 draws")
	}
	if n := strings.Count(a, "x"); n == 0 || n == 200 {
		t.Errorf("probability 0.3 fired %d of 200 times", n)
	}
	// Replacing the rules with the same list and seed starts the same
	// sequence again.
	in := New(Options{})
	_ = in.SetRules(42, rules)
	first := fireSequence(t, in, Call{Op: "GetItem"}, 50)
	_ = in.SetRules(42, rules)
	if again := fireSequence(t, in, Call{Op: "GetItem"}, 50); again != first {
		t.Errorf("after SetRules again: %s, want %s", again, first)
	}
}

func TestFirstFiringRuleDecides(t *testing.T) {
	in := New(Options{})
	err := in.SetRules(1, []Rule{
		{Name: "conflict", Operations: []string{"TransactWriteItems"}, PartitionKey: "b", Fault: TransactionConflict},
		{Name: "every-other", Every: 2, Fault: ProvisionedThroughputExceeded},
		{Name: "slow", Fault: Delay, Delay: 20 * time.Millisecond},
	})
	if err != nil {
		t.Fatal(err)
	}
	calls := []struct {
		c    Call
		want Fault
	}{
		{Call{Op: "TransactWriteItems", Table: "T", Key: key("a", "")}, Fault{Kind: Delay, Delay: 20 * time.Millisecond, Rule: "slow"}},
		{Call{Op: "TransactWriteItems", Table: "T", Key: key("b", "")}, Fault{Kind: TransactionConflict, Rule: "conflict", Message: msgTransactionConflict}},
		{Call{Op: "PutItem", Table: "T", Key: key("a", "")}, Fault{Kind: ProvisionedThroughputExceeded, Rule: "every-other", Message: MsgProvisionedTable}},
		{Call{Op: "Query", Table: "T", Index: "I", Key: key("a", "")}, Fault{Kind: Delay, Delay: 20 * time.Millisecond, Rule: "slow"}},
		{Call{Op: "Query", Table: "T", Index: "I", Key: key("a", "")}, Fault{Kind: ProvisionedThroughputExceeded, Rule: "every-other", Message: MsgProvisionedIndex}},
	}
	for i, tc := range calls {
		if got := in.Decide(tc.c); got != tc.want {
			t.Errorf("call %d %+v: got %+v, want %+v", i, tc.c, got, tc.want)
		}
	}
	st := in.Stats()
	wantRules := []RuleStats{
		{"conflict", "TransactionConflict", 1, 1},
		{"every-other", "ProvisionedThroughputExceeded", 4, 2},
		{"slow", "Delay", 2, 2},
	}
	if len(st.Rules) != len(wantRules) {
		t.Fatalf("got %d rule stats, want %d", len(st.Rules), len(wantRules))
	}
	for i, w := range wantRules {
		if st.Rules[i] != w {
			t.Errorf("rule stats %d: got %+v, want %+v", i, st.Rules[i], w)
		}
	}
	if got := st.Injected["ProvisionedThroughputExceeded"]; got != 2 {
		t.Errorf("injected PTEE = %d, want 2", got)
	}
	if len(st.Events) != 5 || st.Events[1].PartitionKey != "b" || st.Events[4].Index != "I" {
		t.Errorf("events = %+v", st.Events)
	}
}

func TestEventLogBoundAndLogger(t *testing.T) {
	var buf bytes.Buffer
	now := time.Date(2025, 1, 2, 3, 4, 5, 0, time.UTC)
	in := New(Options{MaxEvents: 3, Logger: slog.New(slog.NewTextHandler(&buf, nil)), Clock: func() time.Time { return now }})
	if err := in.SetRules(1, []Rule{{Fault: RequestLimitExceeded}}); err != nil {
		t.Fatal(err)
	}
	for i := range 5 {
		in.Decide(Call{Op: "GetItem", Table: "T", Key: key(string(rune('a'+i)), "")})
	}
	st := in.Stats()
	var keys []string
	for _, e := range st.Events {
		keys = append(keys, e.PartitionKey)
		if !e.Time.Equal(now) {
			t.Errorf("event time %v, want %v", e.Time, now)
		}
	}
	if got := strings.Join(keys, ""); got != "cde" || st.Dropped != 2 {
		t.Errorf("events %q dropped %d, want cde and 2", got, st.Dropped)
	}
	if n := strings.Count(buf.String(), "fault injected"); n != 5 {
		t.Errorf("logged %d faults, want 5:\n%s", n, buf.String())
	}
	in.ResetStats()
	if st := in.Stats(); len(st.Events) != 0 || len(st.Injected) != 0 || st.Rules[0].Fired != 5 {
		t.Errorf("after ResetStats: %+v", st)
	}
}

func TestNoRules(t *testing.T) {
	var nilInjector *Injector
	if f := nilInjector.Decide(Call{Op: "GetItem"}); f != (Fault{}) || nilInjector.Active() {
		t.Errorf("nil injector: %+v, active %v", f, nilInjector.Active())
	}
	in := New(Options{})
	if in.Active() {
		t.Errorf("new injector is active")
	}
	_ = in.SetRules(1, []Rule{{Fault: Throttling}})
	if !in.Active() {
		t.Errorf("injector with a rule is not active")
	}
	in.Clear()
	if f := in.Decide(Call{Op: "GetItem"}); in.Active() || f != (Fault{}) {
		t.Errorf("after Clear: active %v, fault %+v", in.Active(), f)
	}
	_ = in.SetRules(1, []Rule{{Fault: Throttling}})
	_ = in.SetRules(1, nil)
	if in.Active() {
		t.Errorf("SetRules(nil) left rules")
	}
}

func TestValidate(t *testing.T) {
	tests := []struct {
		rule Rule
		want string
	}{
		{Rule{}, "fault must be one of"},
		{Rule{Fault: numKinds}, "fault must be one of"},
		{Rule{Fault: Throttling, Operations: []string{"PutItems"}}, `unknown operation "PutItems"`},
		{Rule{Fault: Throttling, Probability: 1.5}, "probability 1.5 is not in (0, 1]"},
		{Rule{Fault: Throttling, Probability: -0.1}, "probability -0.1"},
		{Rule{Fault: Throttling, Every: -1}, "every -1 is negative"},
		{Rule{Fault: Throttling, Count: -2}, "count -2 is negative"},
		{Rule{Fault: Throttling, Delay: -time.Second}, "delay -1s"},
		{Rule{Fault: Throttling, Delay: time.Hour}, "delay 1h0m0s"},
		{Rule{Fault: Delay}, "fault Delay needs a delay"},
	}
	for _, tc := range tests {
		err := tc.rule.Validate()
		if err == nil || !errors.Is(err, ErrRule) || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("Validate(%+v) = %v, want ErrRule containing %q", tc.rule, err, tc.want)
		}
	}
	in := New(Options{})
	_ = in.SetRules(1, []Rule{{Fault: Throttling}})
	if err := in.SetRules(1, []Rule{{Fault: Throttling}, {}}); err == nil || !strings.Contains(err.Error(), "rule 2") {
		t.Errorf("SetRules with a bad second rule: %v", err)
	}
	if _, rules := in.Rules(); len(rules) != 1 {
		t.Errorf("a failed SetRules changed the rules: %+v", rules)
	}
}

// TestConcurrentReplace: Decide runs while the rule list is replaced and
// cleared (run with -race).
func TestConcurrentReplace(t *testing.T) {
	in := New(Options{MaxEvents: 10})
	var wg sync.WaitGroup
	stop := make(chan struct{})
	for g := range 4 {
		wg.Go(func() {
			for i := 0; ; i++ {
				select {
				case <-stop:
					return
				default:
				}
				in.Decide(Call{Op: "PutItem", Table: "T", Key: key(string(rune('a'+g)), "")})
				if i%100 == 0 {
					in.Stats()
				}
			}
		})
	}
	for i := range 200 {
		if i%3 == 0 {
			in.Clear()
			continue
		}
		if err := in.SetRules(uint64(i), []Rule{{Probability: 0.5, Every: 2, Count: 100, Fault: Throttling}}); err != nil {
			t.Fatal(err)
		}
	}
	close(stop)
	wg.Wait()
}

// TestOnChange: OnChange is called after each change of the rule list
// (not after a SetRules that failed), and sees the new list.
func TestOnChange(t *testing.T) {
	var seen []int
	var in *Injector
	in = New(Options{OnChange: func() {
		_, rules := in.Rules()
		seen = append(seen, len(rules))
	}})
	steps := []func() error{
		func() error { return in.SetRules(1, []Rule{{Fault: Throttling}, {Fault: InternalServerError}}) },
		func() error { return in.SetRules(1, []Rule{{}}) }, // invalid: no change
		func() error { in.Clear(); return nil },
		func() error { return in.SetRules(2, []Rule{{Fault: Throttling}}) },
		func() error { return in.SetRules(2, nil) },
	}
	for _, step := range steps {
		_ = step()
	}
	if want := []int{2, 0, 1, 0}; !slices.Equal(seen, want) {
		t.Errorf("got rule counts %v, want %v", seen, want)
	}
}
