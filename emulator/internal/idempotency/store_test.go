package service

import (
	"errors"
	"fmt"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/dynamoemu/dynamoemu/emulator/internal/apierr"
	"github.com/dynamoemu/dynamoemu/emulator/internal/wire"
	"github.com/dynamoemu/dynamoemu/internal/storage"
)

// countingRun is a transaction body for the token store's tests: each run
// answers with its own number as the replay capacity.
type countingRun struct{ runs int }

func (c *countingRun) run() (*TransactWriteItemsOutput, error) {
	c.runs++
	return &TransactWriteItemsOutput{replayReads: []txUnits{{"t", float64(c.runs)}}}, nil
}

// answered is the run number an answer came from.
func answered(out *TransactWriteItemsOutput) int { return int(out.replayReads[0].units) }

func TestTokenStoreBoundedByBytes(t *testing.T) {
	ns := &Namespace{}
	now := time.Unix(1_800_000_000, 0)
	var one int64
	{
		s := newTokenStore(1<<20, nil)
		var c countingRun
		if _, err := s.do(ns, now, "tok0", fingerprint("req"), "", c.run); err != nil {
			t.Fatal(err)
		}
		_, one = s.stats()
	}
	s := newTokenStore(4*one, nil) // room for four tokens
	var c countingRun
	for i := range 10 {
		if _, err := s.do(ns, now, fmt.Sprint("tok", i), fingerprint("req"), "", c.run); err != nil {
			t.Fatal(err)
		}
	}
	if n, b := s.stats(); n != 4 || b != 4*one {
		t.Fatalf("after 10 tokens in room for 4: got %d tokens, %d bytes; want 4, %d", n, b, 4*one)
	}
	// A kept token replays without running; a forgotten one runs again.
	if out, _ := s.do(ns, now, "tok9", fingerprint("req"), "", c.run); answered(out) != 10 || c.runs != 10 {
		t.Errorf("replay of a kept token: answer of run %d after %d runs, want 10 after 10", answered(out), c.runs)
	}
	if out, _ := s.do(ns, now, "tok0", fingerprint("req"), "", c.run); answered(out) != 11 || c.runs != 11 {
		t.Errorf("a forgotten token: answer of run %d after %d runs, want a new run (11)", answered(out), c.runs)
	}
	// Another request under a kept token, and the same token in another
	// namespace.
	if _, err := s.do(ns, now, "tok9", fingerprint("other"), "", c.run); !errors.Is(err, apierr.ErrIdempotentParameterMismatch) {
		t.Errorf("other request, same token: got %v, want IdempotentParameterMismatch", err)
	}
	if out, _ := s.do(&Namespace{}, now, "tok9", fingerprint("other"), "", c.run); answered(out) != 12 {
		t.Errorf("same token in another namespace: answer of run %d, want a new run (12)", answered(out))
	}
}

// TestTokensExpireWhenTheClockMoves: moving the emulator's clock past a
// token's window forgets it at once, without another request, also with
// a clock of the test's own (which the emulator never calls from a
// goroutine of its own).
func TestTokensExpireWhenTheClockMoves(t *testing.T) {
	env, now := newTxEnv(t)
	e := env.emu
	put := func(tok string) {
		env.mustOK("TransactWriteItems", `{"ClientRequestToken":"`+tok+`","TransactItems":[{"Put":{"TableName":"txh","Item":{"pk":{"S":"`+tok+`"}}}}]}`)
	}
	put("a")
	*now = now.Add(5 * time.Minute)
	put("b")
	// The clock moves as the Emulator's Advance and SetNow move it: the
	// service hears of each move (clockMoved).
	base := *now
	moveTo := func(at time.Time) { *now = at; e.ClockMoved(at) }
	steps := []struct {
		name string
		move func()
		want int
	}{
		{"both kept", func() { moveTo(base.Add(4 * time.Minute)) }, 2},
		{"first window ends", func() { moveTo(base.Add(5 * time.Minute)) }, 1},
		{"back in time keeps the rest", func() { moveTo(base.Add(-55 * time.Minute)) }, 1},
		{"second window ends", func() { moveTo(base.Add(10 * time.Minute)) }, 0},
	}
	for _, s := range steps {
		s.move()
		if got, _ := e.tokens.stats(); got != s.want {
			t.Errorf("%s: got %d tokens kept, want %d", s.name, got, s.want)
		}
	}
	if e.tokens.running {
		t.Error("a janitor runs with Options.Clock set")
	}
}

// TestTokenJanitor: with the real clock, tokens are forgotten as their
// window ends with no request and no clock move; the janitor stops when
// none is left and on Close.
func TestTokenJanitor(t *testing.T) {
	e := newTestService(t, Config{})
	e.tokens.window = 20 * time.Millisecond
	ns := &Namespace{}
	var c countingRun
	for i := range 3 {
		if _, err := e.tokens.do(ns, e.clock(), fmt.Sprint("tok", i), fingerprint("req"), "", c.run); err != nil {
			t.Fatal(err)
		}
	}
	waitFor(t, "the janitor to forget every token", func() bool {
		n, b := e.tokens.stats()
		e.tokens.mu.Lock()
		defer e.tokens.mu.Unlock()
		return n == 0 && b == 0 && !e.tokens.running
	})
	// A new token starts it again; Close stops it and keeps it stopped.
	e.tokens.window = time.Hour
	if _, err := e.tokens.do(ns, e.clock(), "again", fingerprint("req"), "", c.run); err != nil {
		t.Fatal(err)
	}
	e.tokens.mu.Lock()
	running := e.tokens.running
	e.tokens.mu.Unlock()
	if !running {
		t.Fatal("no janitor for a kept token")
	}
	e.Close()
	e.Close()
	if e.tokens.running {
		t.Error("janitor still running after Close")
	}
	if _, err := e.tokens.do(ns, e.clock(), "after close", fingerprint("req"), "", c.run); err != nil || e.tokens.running {
		t.Errorf("after Close: err %v, janitor running %v; want nil, false", err, e.tokens.running)
	}
}

// waitFor polls cond until it holds, failing the test if it never does
// within a generous time (a hang, not a timing assertion).
func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("gave up waiting for %s", what)
		}
		time.Sleep(2 * time.Millisecond)
	}
}

func TestFingerprint(t *testing.T) {
	s := func(v string) *string { return &v }
	item := func(kv ...string) wire.WireItem {
		w := wire.WireItem{}
		for i := 0; i < len(kv); i += 2 {
			w[kv[i]] = storage.S(kv[i+1])
		}
		return w
	}
	put := func(it wire.WireItem) TransactWriteItemsInput {
		return TransactWriteItemsInput{TransactItems: []TransactWriteItem{{Put: &TransactPut{TableName: s("t"), Item: it}}}}
	}
	tests := []struct {
		name string
		a, b any
	}{
		{"same", put(item("a", "1", "b", "2")), put(item("b", "2", "a", "1"))},
		{"other value", put(item("a", "1")), put(item("a", "2"))},
		{"other name", put(item("a", "1")), put(item("b", "1"))},
		{"value moved between names", put(item("a", "12", "b", "")), put(item("a", "1", "b", "2"))},
		{"S and N", put(wire.WireItem{"a": storage.S("1")}), put(wire.WireItem{"a": storage.N("1")})},
		{"nested", put(wire.WireItem{"m": storage.M(map[string]storage.Value{"x": storage.L([]storage.Value{storage.Bool(true)})})}),
			put(wire.WireItem{"m": storage.M(map[string]storage.Value{"x": storage.L([]storage.Value{storage.Bool(false)})})})},
		{"set order", put(wire.WireItem{"s": storage.SS([]string{"a", "b"})}), put(wire.WireItem{"s": storage.SS([]string{"b", "a"})})},
		{"nil and empty map", put(nil), put(wire.WireItem{})},
		{"absent and empty string", TransactWriteItemsInput{ReturnItemCollectionMetrics: nil}, TransactWriteItemsInput{ReturnItemCollectionMetrics: s("")}},
		{"two operations", TransactWriteItemsInput{}, ExecuteTransactionInput{}},
		{"statement parameters", ExecuteTransactionInput{TransactStatements: []ParameterizedStatement{{Statement: s("x"), Parameters: []wire.AttributeValue{{Value: storage.N("1")}}}}},
			ExecuteTransactionInput{TransactStatements: []ParameterizedStatement{{Statement: s("x"), Parameters: []wire.AttributeValue{{Value: storage.N("2")}}}}}},
	}
	for _, tt := range tests {
		same := fingerprint(tt.a) == fingerprint(tt.b)
		if want := reflect.DeepEqual(tt.a, tt.b); same != want {
			t.Errorf("%s: same fingerprint %v, want %v (DeepEqual)", tt.name, same, want)
		}
	}
}

// BenchmarkFingerprint: what a ClientRequestToken costs a transaction
// now that the request is hashed instead of kept.
func BenchmarkFingerprint(b *testing.B) {
	for _, size := range []int{100, 100 << 10, 1 << 20} {
		var body strings.Builder
		body.WriteString(`{"TransactItems":[`)
		for i := range 2 {
			if i > 0 {
				body.WriteByte(',')
			}
			fmt.Fprintf(&body, `{"Put":{"TableName":"bench","Item":{"pk":{"S":"k%d"},"n":{"N":"%d"},"blob":{"S":"%s"}}}}`, i, i, strings.Repeat("x", size/2))
		}
		body.WriteString(`]}`)
		var in TransactWriteItemsInput
		if err := wire.DecodeRequest([]byte(body.String()), &in); err != nil {
			b.Fatal(err)
		}
		b.Run(fmt.Sprint("bytes=", size), func(b *testing.B) {
			b.ReportAllocs()
			b.SetBytes(int64(body.Len()))
			for b.Loop() {
				fingerprint(in)
			}
		})
	}
}
