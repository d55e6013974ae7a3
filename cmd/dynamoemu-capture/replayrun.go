package main

import (
	"context"
	"encoding/json"
	"fmt"
	"sync"
	"time"

	"github.com/dynamoemu/dynamoemu/internal/capture"
)

// departure is an answer that departed from the recorded one.
type departure struct {
	Seq      int             `json:"seq"`
	Line     int             `json:"line"`
	Target   string          `json:"target"`
	Kind     string          `json:"kind"`    // wording, shape, capacity, order or behaviour (kindOf)
	Request  json.RawMessage `json:"request"` // as sent
	Recorded answer          `json:"recorded"`
	Replayed answer          `json:"replayed"`
	Diffs    []capture.Diff  `json:"-"`
}

// answer is a status and a body.
type answer struct {
	Status int             `json:"status"`
	Body   json.RawMessage `json:"body"` // the body as JSON; a body that is not JSON as a JSON string
}

// bodyJSON is body as a JSON value: itself when it is JSON, else a
// string of its text.
func bodyJSON(body []byte) json.RawMessage {
	if json.Valid(body) {
		return json.RawMessage(body)
	}
	b, _ := json.Marshal(string(body))
	return b
}

// opCount is one operation's line of the summary.
type opCount struct {
	Operation  string `json:"operation"`
	Exchanges  int    `json:"exchanges"`
	Compared   int    `json:"compared"`
	Departures int    `json:"departures"`
}

// skip is an exchange the replay did not send: the upstream failed it
// when it was recorded.
type skip struct {
	Seq    int    `json:"seq"`
	Line   int    `json:"line"`
	Target string `json:"target"`
	Why    string `json:"why"`
}

// result is a replay's outcome.
type result struct {
	File       string
	Prefix     string
	Exchanges  int // in the file
	Sent       int
	Compared   int
	Paired     int // overlapping exchanges whose answers matched another's recorded one
	Departures []departure
	Skipped    []skip
	Operations []opCount
	Ended      string // why the capture's comparable part ended early (the upstream died while recording)
	Stopped    string // why the replay ended early (an error)
}

// replayOptions say how a replay runs.
type replayOptions struct {
	Prefix  string
	Ignore  []string
	MaxWait time.Duration // the longest wait; < 0: each afterMs in full
}

// replay is replayWith at the recorded pace.
func replay(ctx context.Context, f *capture.File, send sendFunc, prefix string, ignore []string) (*result, error) {
	return replayWith(ctx, f, send, replayOptions{Prefix: prefix, Ignore: ignore, MaxWait: -1})
}

// replayer is one replay's state.
type replayer struct {
	f    *capture.File
	send sendFunc
	o    replayOptions
	s    *capture.Session
	res  *result
	ops  map[string]*opCount
	opOf []string
}

// replayWith sends f's exchanges in order with send, after their waits
// (cut to o.MaxWait), those of one overlap run at once (each client's in
// order), and compares each answer. An exchange the upstream failed when
// recorded is skipped; one it could not be reached for ends the replay
// (res.Ended). An error (a request that could not be sent, a set-up
// exchange that failed) ends it early; the result says what ran.
func replayWith(ctx context.Context, f *capture.File, send sendFunc, o replayOptions) (*result, error) {
	r := &replayer{f: f, send: send, o: o, s: capture.NewSession(o.Prefix), ops: map[string]*opCount{},
		res: &result{File: f.Name, Prefix: o.Prefix, Exchanges: len(f.Exchanges), Departures: []departure{}, Skipped: []skip{}}}
	defer func() {
		for _, op := range r.opOf {
			r.res.Operations = append(r.res.Operations, *r.ops[op])
		}
	}()
	ex := f.Exchanges
	for i := 0; i < len(ex); {
		e := ex[i]
		if err := r.wait(ctx, e); err != nil {
			return r.res, stop(r.res, e, err)
		}
		if e.Unreachable() {
			r.res.Ended = fmt.Sprintf("%s:%d: exchange %d (%s): the recorder could not reach the upstream (%s); "+
				"what follows was not answered by the upstream the session began with, so it is not compared", f.Name, e.Line, e.Seq, e.Target, e.Upstream)
			return r.res, nil
		}
		j := i + 1
		for e.Overlap > 0 && j < len(ex) && ex[j].Overlap == e.Overlap && !ex[j].Unreachable() {
			j++
		}
		if err := r.run(ctx, ex[i:j]); err != nil {
			return r.res, err
		}
		i = j
	}
	return r.res, nil
}

// wait waits e's afterMs, cut to the options' longest wait.
func (r *replayer) wait(ctx context.Context, e capture.Exchange) error {
	d := time.Duration(e.AfterMs) * time.Millisecond
	if r.o.MaxWait >= 0 {
		d = min(d, r.o.MaxWait)
	}
	if d <= 0 {
		return nil
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-t.C:
		return nil
	}
}

// sent is one exchange's replayed answer.
type sent struct {
	e      capture.Exchange
	body   []byte // the request as sent
	status int
	got    []byte
	err    error
}

// run replays a run of exchanges: one alone, or an overlap run at once,
// each client's in order.
func (r *replayer) run(ctx context.Context, run []capture.Exchange) error {
	out := make([]sent, len(run))
	byClient := map[string][]int{}
	var clients []string
	for i, e := range run {
		if _, ok := byClient[e.Client]; !ok {
			clients = append(clients, e.Client)
		}
		byClient[e.Client] = append(byClient[e.Client], i)
	}
	var wg sync.WaitGroup
	for _, c := range clients {
		wg.Add(1)
		go func(idx []int) {
			defer wg.Done()
			for _, i := range idx {
				out[i] = r.sendOne(ctx, run[i])
				if out[i].err != nil {
					return
				}
			}
		}(byClient[c])
	}
	wg.Wait()
	return r.judge(out)
}

// sendOne sends e (not one the upstream failed when recorded).
func (r *replayer) sendOne(ctx context.Context, e capture.Exchange) sent {
	x := sent{e: e}
	if e.Failed() {
		return x
	}
	x.body, x.err = r.s.Request(e)
	if x.err == nil {
		x.status, x.got, x.err = r.send(ctx, e.Target, x.body)
	}
	return x
}

func (r *replayer) count(op string) *opCount {
	if r.ops[op] == nil {
		r.ops[op] = &opCount{Operation: op}
		r.opOf = append(r.opOf, op)
	}
	return r.ops[op]
}

// judge compares a run's answers: each with its own recorded answer,
// and an overlap run's departing ones with the other departing recorded
// answers of its operation, paired in any order.
func (r *replayer) judge(out []sent) error {
	type open struct {
		x     sent
		diffs []capture.Diff
	}
	var departed []open
	for _, x := range out {
		e := x.e
		if e.Failed() {
			r.res.Skipped = append(r.res.Skipped, skip{Seq: e.Seq, Line: e.Line, Target: e.Target, Why: "the upstream failed it when recorded (" + e.Upstream + ")"})
			continue
		}
		if x.err != nil {
			return stop(r.res, e, x.err)
		}
		r.res.Sent++
		c := r.count(e.Operation())
		c.Exchanges++
		diffs, err := r.s.Compare(e, x.status, x.got, r.o.Ignore...)
		if err != nil {
			return stop(r.res, e, err)
		}
		if !e.Checked() {
			if x.status/100 != 2 {
				return stop(r.res, e, fmt.Errorf("a set-up exchange (check false) answered %d %s", x.status, x.got))
			}
			continue
		}
		r.res.Compared++
		c.Compared++
		if len(diffs) > 0 {
			departed = append(departed, open{x, diffs})
		}
	}
	if len(departed) > 1 {
		// Pair each departing answer with another departing exchange's
		// recorded answer that it matches: the upstream answered the
		// overlapping requests in another order.
		used := make([]bool, len(departed))
		var left []open
		for _, d := range departed {
			paired := false
			for k, o := range departed {
				if used[k] || o.x.e.Target != d.x.e.Target {
					continue
				}
				if diffs, err := r.s.Diff(o.x.e, d.x.status, d.x.got, r.o.Ignore...); err == nil && len(diffs) == 0 {
					used[k], paired = true, true
					break
				}
			}
			if paired {
				r.res.Paired++
			} else {
				left = append(left, d)
			}
		}
		departed = left
	}
	for _, d := range departed {
		e := d.x.e
		r.count(e.Operation()).Departures++
		r.res.Departures = append(r.res.Departures, departure{
			Seq: e.Seq, Line: e.Line, Target: e.Target, Kind: kindOf(e, d.x.got, d.diffs, r.o.Prefix),
			Request:  bodyJSON(d.x.body),
			Recorded: answer{e.Status, bodyJSON(e.Response)},
			Replayed: answer{d.x.status, bodyJSON(d.x.got)},
			Diffs:    d.diffs,
		})
	}
	return nil
}

// stop records why the replay ended at e and returns the error saying so.
func stop(res *result, e capture.Exchange, err error) error {
	res.Stopped = fmt.Sprintf("%s:%d: exchange %d (%s): %v", res.File, e.Line, e.Seq, e.Target, err)
	return fmt.Errorf("replay stopped after %d of %d exchanges: %s", res.Sent, res.Exchanges, res.Stopped)
}
