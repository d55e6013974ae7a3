package streamrec

import (
	"slices"
	"sync"
	"time"

	"github.com/dynamoemu/dynamoemu/emulator/internal/tablespec"
)

// Set is a namespace's streams, enabled or disabled within their
// retention, in creation order. The zero Set is empty.
type Set struct {
	mu   sync.Mutex // guards list; a leaf but for the logs' locks (the service's doc.go)
	list []Stream
}

// Register adds the stream mk makes for the table called table. mk is
// given the stream's label: now, made later than prev and than the label
// of every stream of a table of that name in the set
// (tablespec.NextStreamLabel). Labels are chosen and streams added under
// the set's lock, so a table deleted and created again within a
// millisecond, even by two requests at once, never gets its
// predecessor's stream ARN (AWS takes longer than that to create a
// table).
func (ss *Set) Register(table, prev string, now time.Time, mk func(label string) Stream) Stream {
	ss.mu.Lock()
	defer ss.mu.Unlock()
	for _, s := range ss.list {
		if s.s.tableName == table && s.s.label > prev {
			prev = s.s.label
		}
	}
	s := mk(tablespec.NextStreamLabel(prev, now))
	ss.list = append(ss.list, s)
	s.s.announce()
	return s
}

// Add adds s, a stream rebuilt from a table's definition.
func (ss *Set) Add(s Stream) {
	ss.mu.Lock()
	defer ss.mu.Unlock()
	ss.list = append(ss.list, s)
	s.s.announce()
}

// Remove forgets s, a stream whose table never became visible.
func (ss *Set) Remove(s Stream) {
	ss.mu.Lock()
	defer ss.mu.Unlock()
	ss.list = slices.DeleteFunc(ss.list, func(x Stream) bool { return x.s == s.s })
	s.s.announce()
}

// Retain forgets the streams of every table but those named in kept.
func (ss *Set) Retain(kept map[string]bool) {
	ss.mu.Lock()
	defer ss.mu.Unlock()
	var gone *stream
	ss.list = slices.DeleteFunc(ss.list, func(s Stream) bool {
		if kept[s.s.tableName] {
			return false
		}
		gone = s.s
		return true
	})
	if gone != nil {
		gone.announce()
	}
}

// All returns the streams not yet forgotten at now, forgetting the others.
func (ss *Set) All(now time.Time) []Stream {
	ss.mu.Lock()
	defer ss.mu.Unlock()
	ss.list = slices.DeleteFunc(ss.list, func(s Stream) bool {
		_, _, gone := s.s.state(now)
		return gone
	})
	return slices.Clone(ss.list)
}

// Find returns the stream with ARN arn, or false.
func (ss *Set) Find(arn string, now time.Time) (Stream, bool) {
	for _, s := range ss.All(now) {
		if s.s.arn == arn {
			return s, true
		}
	}
	return Stream{}, false
}
