package emulator

import (
	"reflect"
	"sync"
	"time"
)

// ClientRequestToken idempotency of TransactWriteItems, per namespace. As
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

// idempotency remembers the tokens of one namespace. The zero value is ready.
type idempotency struct {
	mu      sync.Mutex           // guards entries and expiry
	entries map[string]*tokenUse // by token
	expiry  []tokenRef           // completed tokens, oldest first
}

// tokenUse is one token's first successful request, or the one running.
type tokenUse struct {
	req  TransactWriteItemsInput // token cleared
	out  *TransactWriteItemsOutput
	at   time.Time     // when it completed; zero while running
	done chan struct{} // closed when the running request ends
}

type tokenRef struct {
	token string
	at    time.Time
}

// do runs the request in under token with run, or answers it from the
// token's earlier use. now is the request's time.
func (m *idempotency) do(now time.Time, token string, in *TransactWriteItemsInput, run func() (*TransactWriteItemsOutput, error)) (*TransactWriteItemsOutput, error) {
	req := *in
	req.ClientRequestToken, req.ReturnConsumedCapacity = nil, nil
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
			return m.first(now, token, u, run)
		}
		if u.at.IsZero() {
			done := u.done
			m.mu.Unlock()
			<-done
			continue
		}
		same := reflect.DeepEqual(u.req, req)
		out := u.out
		m.mu.Unlock()
		if !same {
			return nil, newError(ErrIdempotentParameterMismatch, msgIdempotentMismatch)
		}
		return out.replay(optString(in.ReturnConsumedCapacity)), nil
	}
}

// first runs the token's first request and records its answer if it
// succeeded; otherwise the token is forgotten.
func (m *idempotency) first(now time.Time, token string, u *tokenUse, run func() (*TransactWriteItemsOutput, error)) (out *TransactWriteItemsOutput, err error) {
	returned := false // false while run panics
	defer func() {
		m.mu.Lock()
		if returned && err == nil {
			u.out, u.at = out, now
			m.expiry = append(m.expiry, tokenRef{token, now})
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
