package main

import (
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"github.com/dynamoemu/dynamoemu/internal/capture"
)

// A retried request is written once. An SDK sends each try of one call
// with the same amz-sdk-invocation-id header; the recorder holds a try
// answered with what the SDK retries (a 5xx, a throttling error, an
// unreachable upstream) until the next try of the call comes, and
// writes the call once: its last answer, the earlier ones as retries. A
// call the SDK gave up on is written when its client sends another
// request, after pendingWait, or when the recorder stops, as the
// upstream's failure. A request without the header is written as
// answered.

// pendingWait is how long a retried try waits for the next: longer than
// an SDK's longest backoff (botocore's legacy mode: 20 s).
const pendingWait = 60 * time.Second

// throttles are the error types an SDK retries as throttling.
var throttles = map[string]bool{
	"ThrottlingException": true, "ProvisionedThroughputExceededException": true, "RequestLimitExceeded": true,
	"TransactionInProgressException": true, "Throttling": true,
}

// exchange is one try as the recorder answered it.
type exchange struct {
	target, op, invocation string
	body, got              []byte
	status                 int
	arrived                time.Time
	upstream               string
	retries                []capture.Attempt
	flight                 *flight
	timer                  *time.Timer
}

// retried reports whether an SDK retries the answer.
func (x *exchange) retried() bool {
	if x.upstream != "" || x.status >= 500 {
		return true
	}
	if x.status != 400 {
		return false
	}
	var e struct {
		Type string `json:"__type"`
	}
	_ = json.Unmarshal(x.got, &e)
	return throttles[e.Type[strings.LastIndexByte(e.Type, '#')+1:]]
}

// failure is why the upstream failed x, written in its upstream member.
func (x *exchange) failure() string {
	if x.upstream != "" {
		return x.upstream
	}
	var e struct {
		Type string `json:"__type"`
	}
	_ = json.Unmarshal(x.got, &e)
	return fmt.Sprintf("failed: %d %s after %d tries", x.status, e.Type[strings.LastIndexByte(e.Type, '#')+1:], len(x.retries)+1)
}

// flight is an exchange being answered: its client and whether another
// was in flight at once.
type flight struct {
	client     string
	overlap    int
	overlapped bool
}

// begin notes a request from the connection remote, a try of the SDK
// call invocation, as in flight.
func (r *recorder) begin(remote, invocation string) *flight {
	r.mu.Lock()
	defer r.mu.Unlock()
	id, ok := r.clients[remote]
	if !ok {
		id = fmt.Sprintf("c%d", len(r.clients)+1)
		r.clients[remote] = id
	}
	if len(r.inflight) == 0 {
		r.overlap++
	}
	f := &flight{client: id, overlap: r.overlap, overlapped: len(r.inflight) > 0}
	for o := range r.inflight {
		o.overlapped = true
	}
	r.inflight[f] = true
	// A client's earlier call still held as retried was given up on.
	for inv, x := range r.pending {
		if x.flight.client == id && inv != invocation {
			r.releaseLocked(inv)
		}
	}
	return f
}

// end notes that f's exchange is answered and written. The caller holds
// r.mu.
func (r *recorder) end(f *flight) { delete(r.inflight, f) }

// finish writes x, or holds it for its retry.
func (r *recorder) finish(f *flight, x *exchange) {
	x.flight = f
	r.mu.Lock()
	if prev := r.pending[x.invocation]; x.invocation != "" && prev != nil {
		prev.timer.Stop()
		delete(r.pending, x.invocation)
		x.retries = append(prev.retries, capture.Attempt{Status: prev.status, Response: prev.got})
		x.arrived = prev.arrived
	}
	if x.invocation != "" && x.retried() {
		r.pending[x.invocation] = x
		inv := x.invocation
		x.timer = time.AfterFunc(pendingWait, func() { r.release(inv) })
		delete(r.inflight, f)
		r.mu.Unlock()
		return
	}
	r.mu.Unlock()
	r.commit(x)
}

// commit writes x, an upstream failure when the SDK retries its answer.
func (r *recorder) commit(x *exchange) {
	if x.retried() {
		x.upstream = x.failure()
	}
	if err := r.write(x.flight, x); err != nil {
		fmt.Fprintf(r.log, "dynamoemu record: not written: %s: %v\n", x.target, err)
		r.mu.Lock()
		r.end(x.flight)
		r.mu.Unlock()
	}
}

// release writes the held try of invocation inv: the SDK gave up.
func (r *recorder) release(inv string) {
	r.mu.Lock()
	x := r.pending[inv]
	delete(r.pending, inv)
	r.mu.Unlock()
	if x != nil {
		r.commit(x)
	}
}

// releaseLocked is release with r.mu held: it writes in a goroutine of
// its own (write takes r.mu).
func (r *recorder) releaseLocked(inv string) {
	x := r.pending[inv]
	delete(r.pending, inv)
	x.timer.Stop()
	go r.commit(x)
}

// flushAll writes every held try: the recorder stops.
func (r *recorder) flushAll() {
	r.mu.Lock()
	var invs []string
	for inv := range r.pending {
		invs = append(invs, inv)
	}
	r.mu.Unlock()
	for _, inv := range invs {
		r.release(inv)
	}
}
