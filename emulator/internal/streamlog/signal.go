package streamlog

import "sync"

// Signal tells waiters that something changed, as go-memdb's watch
// channels do: Changed returns a channel that the next Notify closes. A
// waiter takes the channel before it looks at the state, looks, and
// waits on the channel only when it found nothing to do, so a change
// between its look and its wait is never missed. The channel is made
// only when someone asks for it, so a Notify nobody waits for costs a
// lock and nothing else. The zero Signal is ready to use.
type Signal struct {
	mu sync.Mutex // a leaf
	ch chan struct{}
}

// Changed returns the channel the next Notify closes.
func (s *Signal) Changed() <-chan struct{} {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.ch == nil {
		s.ch = make(chan struct{})
	}
	return s.ch
}

// Notify closes the channel Changed handed out, if any: its waiters
// wake; the next Changed hands out a new one.
func (s *Signal) Notify() {
	s.mu.Lock()
	if s.ch != nil {
		close(s.ch)
		s.ch = nil
	}
	s.mu.Unlock()
}
