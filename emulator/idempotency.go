package emulator

import (
	"reflect"
	"sync"
	"time"
)

// ClientRequestToken idempotency of TransactWriteItems and of
// ExecuteTransaction's writes, per namespace. As
// the API reference describes it: a token is valid for 10 minutes after
// the first request that uses it completes; within that window the same
// token with the same request answers success again without writing, and
// the same token with any other parameter changed answers
// IdempotentParameterMismatchException. Only successful transactions use
// up a token: a cancelled or refused one leaves it free.
//
// Requests are compared as decoded (so the order of JSON members and map
// entries does not matter), with the token itself and
// ReturnConsumedCapacity left out: a replay reports capacity in its own
// mode, as the read of the items written (AWS's accounting as recorded in
// paritysuite/dynamodb-conformance#67 and #74). A second request with a
// token whose first request is still running waits for it and then answers
// as above.
//
// Time is the request's clock (call.Now), so tests move through the
// window with Options.Clock.

// idempotencyWindow is how long a completed token is remembered.
const idempotencyWindow = 10 * time.Minute

// maxTokens bounds the completed tokens a namespace remembers, so a client
// sending a new token with every transaction cannot grow memory without
// bound for ten minutes: past it the oldest are forgotten early (their
// replays then run as new requests). A client replays a token within
// seconds in practice; 100k covers more than 150 transactions a second
// for the whole window.
const maxTokens = 100_000

// idempotency remembers the tokens of one namespace. The zero value is ready.
type idempotency struct {
	mu      sync.Mutex           // guards entries and expiry
	entries map[string]*tokenUse // by token
	expiry  []tokenRef           // completed tokens, oldest first
}

// tokenUse is one token's first successful request, or the one running.
type tokenUse struct {
	req  any           // the request, token and ReturnConsumedCapacity cleared
	out  any           // its answer
	at   time.Time     // when it completed; zero while running
	done chan struct{} // closed when the running request ends
}

type tokenRef struct {
	token string
	at    time.Time
}

// replayer is an answer that can answer a replay of its request, with
// capacity reported in mode.
type replayer[O any] interface{ replay(mode string) O }

// idempotent runs a request under token with run, or answers it from the
// token's earlier use. req is the request as compared (token and
// ReturnConsumedCapacity cleared; a request of another operation never
// matches), mode the request's ReturnConsumedCapacity, now its time.
func idempotent[O replayer[O]](m *idempotency, now time.Time, token string, req any, mode string, run func() (O, error)) (O, error) {
	for {
		m.mu.Lock()
		m.expireLocked(now)
		u := m.entries[token]
		if u == nil {
			u = &tokenUse{req: req, done: make(chan struct{})}
			if m.entries == nil {
				m.entries = make(map[string]*tokenUse)
			}
			m.entries[token] = u
			m.mu.Unlock()
			return first(m, now, token, u, run)
		}
		if u.at.IsZero() {
			done := u.done
			m.mu.Unlock()
			<-done
			continue
		}
		same := reflect.DeepEqual(u.req, req)
		out, ok := u.out.(O)
		m.mu.Unlock()
		if !same || !ok {
			var zero O
			return zero, newError(ErrIdempotentParameterMismatch, msgIdempotentMismatch)
		}
		return out.replay(mode), nil
	}
}

// first runs the token's first request and records its answer if it
// succeeded; otherwise the token is forgotten.
func first[O any](m *idempotency, now time.Time, token string, u *tokenUse, run func() (O, error)) (out O, err error) {
	returned := false // false while run panics
	defer func() {
		m.mu.Lock()
		if returned && err == nil {
			u.out, u.at = out, now
			m.expiry = append(m.expiry, tokenRef{token, now})
			m.trimLocked(maxTokens)
		} else {
			delete(m.entries, token)
		}
		m.mu.Unlock()
		close(u.done)
	}()
	out, err = run()
	returned = true
	return out, err
}

// expireLocked forgets the tokens completed a window or more before now.
func (m *idempotency) expireLocked(now time.Time) {
	n := 0
	for _, r := range m.expiry {
		if now.Sub(r.at) < idempotencyWindow {
			break
		}
		if u := m.entries[r.token]; u != nil && u.at.Equal(r.at) {
			delete(m.entries, r.token)
		}
		n++
	}
	if n > 0 {
		m.expiry = append(m.expiry[:0], m.expiry[n:]...)
	}
}

// trimLocked forgets the oldest completed tokens beyond max.
func (m *idempotency) trimLocked(max int) {
	n := len(m.expiry) - max
	if n <= 0 {
		return
	}
	for _, r := range m.expiry[:n] {
		if u := m.entries[r.token]; u != nil && u.at.Equal(r.at) {
			delete(m.entries, r.token)
		}
	}
	m.expiry = append(m.expiry[:0], m.expiry[n:]...)
}
