package streamlog

import (
	"errors"
	"sort"
	"sync"
	"time"

	"github.com/dynamoemu/dynamoemu/internal/storage"
)

// FirstSequenceNumber is the sequence number of a log's first record.
const FirstSequenceNumber = 1

// ErrTrimmed: a read from a position whose records were trimmed (the
// Streams API's TrimmedDataAccessException).
var ErrTrimmed = errors.New("streamlog: records trimmed")

// Event is a record's eventName.
type Event uint8

// Events.
const (
	Insert Event = iota
	Modify
	Remove
)

var eventNames = [...]string{Insert: "INSERT", Modify: "MODIFY", Remove: "REMOVE"}

// String returns the event's name: INSERT, MODIFY or REMOVE.
func (e Event) String() string { return eventNames[e] }

// Record is one item change as a stream keeps it: the images its view
// type shows, as stored records (immutable; kept without copying).
type Record struct {
	Seq     uint64 // set by Append
	At      int64  // ApproximateCreationDateTime, epoch seconds
	Event   Event
	Service bool // a deletion by TTL: userIdentity is the DynamoDB service
	HasOld  bool // Old is shown (OLD_IMAGE, NEW_AND_OLD_IMAGES)
	HasNew  bool // New is shown (NEW_IMAGE, NEW_AND_OLD_IMAGES)
	Key     storage.Key
	Old     storage.EncodedItem
	New     storage.EncodedItem
}

// Log is the records of one stream's shard: numbered from
// FirstSequenceNumber as they are appended, trimmed once older than the
// retention, and closed when the stream is disabled. It is safe for
// concurrent use; its mu is last in the emulator's lock order (Append runs
// under storage's lock, and nothing is locked while mu is held).
type Log struct {
	retention time.Duration // immutable

	mu         sync.Mutex // guards the fields below
	recs       chunks     // oldest first; recs.at(i).Seq == first+i
	first      uint64     // sequence number of recs.at(0) (== next when empty)
	next       uint64     // sequence number of the next record
	disabledAt time.Time  // zero while the stream is enabled
	budget     *Budget    // the bound of many logs' bytes (Attach); nil: none
	bytes      int64      // bytes of recs, counted while attached to a budget
	listed     bool       // in budget's logs

	// changed is closed by the next Append or Disable (Changed): a
	// reader waits on it instead of reading again on a timer.
	changed Signal
}

// New returns an empty, open log whose records are kept for retention.
func New(retention time.Duration) *Log {
	return &Log{retention: retention, first: FirstSequenceNumber, next: FirstSequenceNumber}
}

// SkipTo makes an empty log's next sequence number seq, if that is
// later: the records before it are gone (reads of them are ErrTrimmed).
// A stream restored from disk, whose records were not kept, numbers its
// new records after every number it handed out before.
func (l *Log) SkipTo(seq uint64) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.recs.len() == 0 && seq > l.next {
		l.first, l.next = seq, seq
	}
}

// Append numbers r, keeps it, and trims the records older than the
// retention at now.
func (l *Log) Append(r Record, now time.Time) {
	l.mu.Lock()
	r.Seq = l.next
	l.next++
	l.recs.push(r)
	b, list := l.budget, false
	if b != nil {
		n := recordBytes(&r)
		l.bytes += n
		b.used.Add(n)
		list, l.listed = !l.listed, true
	}
	l.trimLocked(now)
	l.mu.Unlock()
	l.changed.Notify()
	if list {
		b.list(l)
	}
	if b != nil && b.used.Load() > b.max {
		b.shrink()
	}
}

// trimLocked drops the records older than the retention period.
func (l *Log) trimLocked(now time.Time) {
	if l.recs.len() == 0 {
		return
	}
	cutoff := now.Add(-l.retention).Unix()
	if l.recs.at(0).At >= cutoff {
		return
	}
	l.dropLocked(l.recs.firstAtOrAfter(cutoff))
}

// Disable closes the log's shard at now (once: a second call keeps the
// first time).
func (l *Log) Disable(now time.Time) {
	l.mu.Lock()
	if l.disabledAt.IsZero() {
		l.disabledAt = now
	}
	l.mu.Unlock()
	l.changed.Notify()
}

// Changed returns a channel closed by the next Append or Disable. Take
// it before a Read or Bounds that finds nothing new, then wait on it: a
// record appended in between closes it (Signal).
func (l *Log) Changed() <-chan struct{} { return l.changed.Changed() }

// State returns, at now, whether the log is open, its last sequence
// number (0 while open, or when it never had a record) and whether it is
// past its retention (disabled that long ago: to be forgotten).
func (l *Log) State(now time.Time) (open bool, last uint64, gone bool) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.trimLocked(now)
	if l.disabledAt.IsZero() {
		return true, 0, false
	}
	if l.next > FirstSequenceNumber {
		last = l.next - 1
	}
	return false, last, !now.Before(l.disabledAt.Add(l.retention))
}

// Bounds returns, at now, the sequence number of the oldest record kept
// and of the next record to come.
func (l *Log) Bounds(now time.Time) (first, next uint64) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.trimLocked(now)
	return l.first, l.next
}

// Read returns up to limit records starting at sequence number pos (at
// most maxBytes of size, at least one record), the position after them
// and whether the shard is closed with nothing after them. A pos before
// the oldest record kept is ErrTrimmed.
func (l *Log) Read(pos uint64, limit, maxBytes int, now time.Time, size func(*Record) int) ([]Record, uint64, bool, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.trimLocked(now)
	if pos < l.first {
		return nil, 0, false, ErrTrimmed
	}
	var out []Record
	if pos < l.next {
		i := int(pos - l.first)
		n := min(limit, l.recs.len()-i)
		out = make([]Record, 0, n)
		bytes := 0
		for j := i; j < i+n; j++ {
			r := l.recs.at(j)
			sz := size(r)
			if len(out) > 0 && bytes+sz > maxBytes {
				break
			}
			bytes += sz
			out = append(out, *r)
		}
		pos += uint64(len(out))
	}
	closed := !l.disabledAt.IsZero() && pos >= l.next
	return out, pos, closed, nil
}

// chunks is a log's records, oldest first, in fixed-size chunks: an
// append never copies earlier records (a growing slice would copy them
// all at each doubling, and keep up to twice the memory), and trimming
// drops whole chunks.
type chunks struct {
	chunks [][]Record // every chunk but the last is full
	head   int        // index of the first live record in chunks[0]
	n      int        // live records
}

// chunkLen is the number of records per chunk.
const chunkLen = 256

// push appends r.
func (l *chunks) push(r Record) {
	last := len(l.chunks) - 1
	if last < 0 || len(l.chunks[last]) == chunkLen {
		l.chunks = append(l.chunks, make([]Record, 0, chunkLen))
		last++
	}
	l.chunks[last] = append(l.chunks[last], r)
	l.n++
}

// len returns the number of live records.
func (l *chunks) len() int { return l.n }

// at returns the i-th live record (0 is the oldest).
func (l *chunks) at(i int) *Record {
	i += l.head
	return &l.chunks[i/chunkLen][i%chunkLen]
}

// dropFront forgets the k oldest records.
func (l *chunks) dropFront(k int) {
	for k > 0 {
		c := l.chunks[0]
		m := min(k, len(c)-l.head)
		clear(c[l.head : l.head+m]) // let the images go
		l.head += m
		l.n -= m
		k -= m
		if l.head == chunkLen || (l.head == len(c) && len(l.chunks) == 1) {
			l.chunks[0] = nil
			l.chunks = l.chunks[1:]
			l.head = 0
		}
	}
}

// firstAtOrAfter returns the index of the first live record whose time
// is not before at (len when none).
func (l *chunks) firstAtOrAfter(at int64) int {
	return sort.Search(l.n, func(i int) bool { return l.at(i).At >= at })
}
