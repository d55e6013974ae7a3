package emulator

import "sort"

// recordLog is a stream's records, oldest first, in fixed-size chunks: an
// append never copies earlier records (a growing slice would copy them
// all at each doubling, and keep up to twice the memory), and trimming
// drops whole chunks.
type recordLog struct {
	chunks [][]streamRecord // every chunk but the last is full
	head   int              // index of the first live record in chunks[0]
	n      int              // live records
}

// logChunk is the number of records per chunk.
const logChunk = 256

// push appends r.
func (l *recordLog) push(r streamRecord) {
	last := len(l.chunks) - 1
	if last < 0 || len(l.chunks[last]) == logChunk {
		l.chunks = append(l.chunks, make([]streamRecord, 0, logChunk))
		last++
	}
	l.chunks[last] = append(l.chunks[last], r)
	l.n++
}

// len returns the number of live records.
func (l *recordLog) len() int { return l.n }

// at returns the i-th live record (0 is the oldest).
func (l *recordLog) at(i int) *streamRecord {
	i += l.head
	return &l.chunks[i/logChunk][i%logChunk]
}

// dropFront forgets the k oldest records.
func (l *recordLog) dropFront(k int) {
	for k > 0 {
		c := l.chunks[0]
		m := min(k, len(c)-l.head)
		clear(c[l.head : l.head+m]) // let the images go
		l.head += m
		l.n -= m
		k -= m
		if l.head == logChunk || (l.head == len(c) && len(l.chunks) == 1) {
			l.chunks[0] = nil
			l.chunks = l.chunks[1:]
			l.head = 0
		}
	}
}

// firstAtOrAfter returns the index of the first live record whose time
// is not before at (len when none).
func (l *recordLog) firstAtOrAfter(at int64) int {
	return sort.Search(l.n, func(i int) bool { return l.at(i).at >= at })
}
