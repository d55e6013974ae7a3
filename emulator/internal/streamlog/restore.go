package streamlog

import (
	"fmt"
	"time"
)

// Keeping a log across restarts (streamrec/sidecar.go): Mark
// notes where a log stands, Copy reads its records out a batch at a
// time, Restore makes a log of them again.

// Mark returns the log's first and next sequence numbers and when it was
// disabled (zero: open), without trimming.
func (l *Log) Mark() (first, next uint64, disabledAt time.Time) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.first, l.next, l.disabledAt
}

// Copy returns copies of up to max records from sequence number from on
// (from the oldest kept, if that is later), stopping before to, without
// trimming. The images are shared (immutable).
func (l *Log) Copy(from, to uint64, max int) []Record {
	l.mu.Lock()
	defer l.mu.Unlock()
	from = maxU64(from, l.first)
	to = minU64(to, l.next)
	if from >= to {
		return nil
	}
	n := min(uint64(max), to-from)
	out := make([]Record, n)
	for i := range out {
		out[i] = *l.recs.at(int(from-l.first) + i)
	}
	return out
}

// Restore returns a log kept for retention whose next sequence number is
// next, closed at disabledAt (zero: open), holding recs: numbered one
// after another, the last before next (the first is then the log's
// first; with no records, next is).
func Restore(retention time.Duration, next uint64, disabledAt time.Time, recs []Record) (*Log, error) {
	l := New(retention)
	l.first, l.next, l.disabledAt = next, next, disabledAt
	if len(recs) > 0 {
		l.first = recs[0].Seq
	}
	if l.first < FirstSequenceNumber {
		return nil, fmt.Errorf("streamlog: sequence number %d", l.first)
	}
	for i, r := range recs {
		if r.Seq != l.first+uint64(i) {
			return nil, fmt.Errorf("streamlog: record %d numbered %d, want %d", i, r.Seq, l.first+uint64(i))
		}
		l.recs.push(r)
	}
	if l.first+uint64(len(recs)) != next {
		return nil, fmt.Errorf("streamlog: records up to %d, next %d", l.first+uint64(len(recs)), next)
	}
	return l, nil
}

func maxU64(a, b uint64) uint64 {
	if a > b {
		return a
	}
	return b
}

func minU64(a, b uint64) uint64 {
	if a < b {
		return a
	}
	return b
}
