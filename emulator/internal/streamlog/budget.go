package streamlog

import (
	"reflect"
	"sync"
	"sync/atomic"
	"time"
)

// Budget bounds the bytes of the records of many logs together (the
// emulator's -streamRetentionBytes): past it the oldest records go, from
// the log whose oldest record is oldest, before their retention ends, as
// AWS's trim horizon moves; a read before them is ErrTrimmed. A record's
// bytes are its images' sizes and the record itself (recordBytes). The
// logs of deleted tables count until their retention ends or the bound
// needs their room.
//
// Locks: mu is taken before any Log's mu, never while one is held
// (Append gives its log's back first).
type Budget struct {
	max  int64        // immutable; > 0
	used atomic.Int64 // bytes of the records of the logs attached

	mu   sync.Mutex // guards logs
	logs []*Log     // the logs attached that may hold records (listed)
}

// NewBudget returns a budget of max bytes (max > 0).
func NewBudget(max int64) *Budget { return &Budget{max: max} }

// Used returns the bytes the records of the logs attached hold now.
func (b *Budget) Used() int64 { return b.used.Load() }

// Max returns the budget's bound.
func (b *Budget) Max() int64 { return b.max }

// NewIn is New with the log attached to b (nil: none).
func NewIn(retention time.Duration, b *Budget) *Log {
	l := New(retention)
	l.Attach(b)
	return l
}

// Attach counts l's records, those it holds and those to come, in b
// (nil: nothing). Call it before the log is shared (once).
func (l *Log) Attach(b *Budget) {
	if b == nil {
		return
	}
	l.mu.Lock()
	l.budget = b
	n := int64(0)
	for i := range l.recs.len() {
		n += recordBytes(l.recs.at(i))
	}
	l.bytes = n
	list := n > 0 && !l.listed
	l.listed = l.listed || list
	l.mu.Unlock()
	b.used.Add(n)
	if list {
		b.list(l)
	}
}

// list adds l to the logs that may hold records.
func (b *Budget) list(l *Log) {
	b.mu.Lock()
	b.logs = append(b.logs, l)
	b.mu.Unlock()
}

// recordSize is a Record's own bytes, as unsafe's Sizeof would say it,
// through reflect so that no use of unsafe is needed (the performance
// budget counts those): worked out once.
var recordSize = int64(reflect.TypeFor[Record]().Size())

// recordBytes is what a record holds: itself and its images (the
// images' encodings, which the table may share while the item lives).
func recordBytes(r *Record) int64 {
	return recordSize + int64(max(r.Old.Size(), r.Old.Bytes())) + int64(max(r.New.Size(), r.New.Bytes()))
}

// shrink trims the oldest records of the logs attached until they fit
// the bound, and unlists the logs with none.
func (b *Budget) shrink() {
	b.mu.Lock()
	defer b.mu.Unlock()
	for b.used.Load() > b.max {
		var oldest *Log
		var at int64
		kept := b.logs[:0]
		for _, l := range b.logs {
			head, ok := l.oldest()
			if !ok {
				continue // unlisted: its next record lists it again
			}
			kept = append(kept, l)
			if oldest == nil || head < at {
				oldest, at = l, head
			}
		}
		clear(b.logs[len(kept):])
		b.logs = kept
		if oldest == nil {
			return
		}
		oldest.trimBytes(b.used.Load() - b.max)
	}
}

// oldest returns the time of l's oldest record; ok false: it has none,
// and is unlisted (a log no stream holds any more is then forgotten).
func (l *Log) oldest() (at int64, ok bool) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.recs.len() == 0 {
		l.listed = false
		return 0, false
	}
	return l.recs.at(0).At, true
}

// trimBytes drops l's oldest records, at least one and as many as hold
// need bytes.
func (l *Log) trimBytes(need int64) {
	l.mu.Lock()
	defer l.mu.Unlock()
	k, freed := 0, int64(0)
	for k < l.recs.len() && (k == 0 || freed < need) {
		freed += recordBytes(l.recs.at(k))
		k++
	}
	l.dropLocked(k)
}

// dropLocked forgets the k oldest records and counts their bytes out.
func (l *Log) dropLocked(k int) {
	if k == 0 {
		return
	}
	if l.budget != nil {
		freed := int64(0)
		for i := range k {
			freed += recordBytes(l.recs.at(i))
		}
		l.bytes -= freed
		l.budget.used.Add(-freed)
	}
	l.recs.dropFront(k)
	l.first += uint64(k)
}

// Bytes returns the bytes l's records hold (counted only once attached
// to a Budget).
func (l *Log) Bytes(now time.Time) int64 {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.trimLocked(now)
	return l.bytes
}
