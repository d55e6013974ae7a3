package faults

import (
	"fmt"
	"log/slog"
	"math/rand/v2"
	"sync"
	"sync/atomic"
	"time"

	"github.com/dynamoemu/dynamoemu/internal/storage"
)

// Call is what the injector is told of a call before it runs: the
// operation, the table, the index it reads, and its key when it has one
// (an item operation, one action of a batch or transaction; a Query gives
// only the partition key of the table or index it reads; a Scan none:
// the zero Values).
type Call struct {
	Op    string
	Table string
	Index string
	Key   storage.Key
}

// Fault is the injector's decision for one call: the zero Fault (Kind
// None) lets the call run.
type Fault struct {
	Kind Kind
	// Delay is how long to hold the call before it runs or fails.
	Delay time.Duration
	// Rule is the name of the rule that fired.
	Rule string
	// Message is the error's message: the rule's, or AWS's for the kind
	// (Kind.Message; IndexMessage when the call names an index).
	Message string
}

// Fails reports whether the fault is an error (not None, not Delay).
func (f Fault) Fails() bool { return f.Kind != None && f.Kind != Delay }

// Options configure an Injector.
type Options struct {
	// Clock stamps the event log (the emulator's clock); time.Now if nil.
	Clock func() time.Time
	// Logger, if set, logs every injected fault at Info level.
	Logger *slog.Logger
	// MaxEvents bounds the event log (the newest are kept); 0 means 1000.
	MaxEvents int
	// OnChange, if set, is called after each change of the rule list
	// (SetRules that succeeded, Clear), with no lock held: the emulator
	// saves the rules with -dbPath. It reads the rules with Rules, so
	// that of two changes racing, the list it saves last is the latest.
	OnChange func()
}

// Injector decides, for each call it is asked about, whether a rule
// injects a fault. Its rule list is replaced whole (SetRules, Clear) at
// any time, concurrently with Decide; with no rules Decide is one atomic
// load. It is safe for concurrent use.
type Injector struct {
	set    atomic.Pointer[ruleSet] // the rules; nil when there are none
	clock  func() time.Time
	logger *slog.Logger
	// onChange is Options.OnChange.
	onChange func()
	events   eventLog
	byKind   [numKinds]atomic.Int64 // faults injected per kind since New or ResetStats
}

// ruleSet is one rule list with its per-rule state; SetRules replaces it
// whole, so counters and generators start afresh with new rules.
type ruleSet struct {
	seed  uint64
	rules []ruleState
}

// ruleState is a rule and what it has seen.
type ruleState struct {
	Rule
	ops     []string // Operations
	matched atomic.Int64
	fired   atomic.Int64
	mu      sync.Mutex // guards rng
	rng     *rand.Rand // for Probability; nil without one
}

// New returns an injector with no rules.
func New(o Options) *Injector {
	in := &Injector{clock: o.Clock, logger: o.Logger, onChange: o.OnChange}
	if in.clock == nil {
		in.clock = time.Now
	}
	n := o.MaxEvents
	if n <= 0 {
		n = 1000
	}
	in.events.max = n
	return in
}

// SetRules replaces the rule list with rules (validated first: on an
// error nothing changes), seeding each rule's generator with seed and the
// rule's index. Rules are tried in order; the first that fires decides.
// An unnamed rule is named "rule-<i>" (from 1).
func (in *Injector) SetRules(seed uint64, rules []Rule) error {
	for i := range rules {
		if err := rules[i].Validate(); err != nil {
			return fmt.Errorf("rule %d: %w", i+1, err)
		}
	}
	if len(rules) == 0 {
		in.Clear()
		return nil
	}
	s := &ruleSet{seed: seed, rules: make([]ruleState, len(rules))}
	for i, r := range rules {
		st := &s.rules[i]
		st.Rule = r
		st.ops = append([]string(nil), r.Operations...)
		st.Rule.Operations = st.ops
		if st.Name == "" {
			st.Name = fmt.Sprintf("rule-%d", i+1)
		}
		if r.Probability > 0 && r.Probability < 1 {
			st.rng = rand.New(rand.NewPCG(seed, uint64(i+1)))
		}
	}
	in.set.Store(s)
	in.changed()
	return nil
}

// Clear removes every rule.
func (in *Injector) Clear() {
	in.set.Store(nil)
	in.changed()
}

// changed calls Options.OnChange, if set.
func (in *Injector) changed() {
	if in.onChange != nil {
		in.onChange()
	}
}

// Active reports whether there are rules: when it is false, Decide
// returns the zero Fault and a caller need not build its Call.
//
//gcassert:inline
func (in *Injector) Active() bool { return in != nil && in.set.Load() != nil }

// Rules returns a copy of the rule list (names filled in) and its seed.
func (in *Injector) Rules() (seed uint64, rules []Rule) {
	s := in.set.Load()
	if s == nil {
		return 0, nil
	}
	rules = make([]Rule, len(s.rules))
	for i := range s.rules {
		rules[i] = s.rules[i].Rule
		rules[i].Operations = append([]string(nil), s.rules[i].ops...)
	}
	return s.seed, rules
}

// Decide returns the fault for call c: that of the first rule that
// matches c and fires, or the zero Fault. Each matching rule counts the
// call (for Every) up to the one that fires; the rules after it do not
// see the call. A nil Injector has no rules.
//
// The hook on a hot path is "if in.Active() { f = in.Decide(Call{...}) }":
// Active is inlined (a nil check and one atomic load), so with no rules a
// call pays that and builds no Call.
func (in *Injector) Decide(c Call) Fault {
	if in == nil {
		return Fault{}
	}
	if s := in.set.Load(); s != nil {
		return in.decide(s, &c)
	}
	return Fault{}
}

// decide runs c past the rules of s.
func (in *Injector) decide(s *ruleSet, c *Call) Fault {
	for i := range s.rules {
		r := &s.rules[i]
		if !r.matches(c) || !r.fires() {
			continue
		}
		f := Fault{Kind: r.Fault, Delay: r.Delay, Rule: r.Name, Message: r.Message}
		if f.Message == "" && f.Fails() {
			if c.Index != "" {
				f.Message = r.Fault.IndexMessage()
			} else {
				f.Message = r.Fault.Message()
			}
		}
		in.record(c, f)
		return f
	}
	return Fault{}
}

// fires counts a matching call and reports whether the rule fires on it.
func (r *ruleState) fires() bool {
	m := r.matched.Add(1)
	if r.Every > 0 && m%int64(r.Every) != 0 {
		return false
	}
	if r.rng != nil {
		r.mu.Lock()
		x := r.rng.Float64()
		r.mu.Unlock()
		if x >= r.Probability {
			return false
		}
	}
	if r.Count == 0 {
		r.fired.Add(1)
		return true
	}
	for {
		f := r.fired.Load()
		if f >= int64(r.Count) {
			return false
		}
		if r.fired.CompareAndSwap(f, f+1) {
			return true
		}
	}
}
