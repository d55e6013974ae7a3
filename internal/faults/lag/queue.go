package lag

// Queue is a FIFO of values numbered by the commit that made them (a
// Gate's Stamp), drained up to a number: the pending changes of a lagged
// view, applied when they become visible. Numbers are pushed in
// ascending order. A Queue is not safe for concurrent use: its owner's
// lock guards it (for an index, the table's write lock).
type Queue[T any] struct {
	items []queued[T]
	head  int
}

type queued[T any] struct {
	seq uint64
	v   T
}

// Push appends v, made by commit seq.
func (q *Queue[T]) Push(seq uint64, v T) { q.items = append(q.items, queued[T]{seq, v}) }

// Len returns the number of values queued.
func (q *Queue[T]) Len() int { return len(q.items) - q.head }

// Drain pops, oldest first, the values of commits numbered up to upTo and
// hands each to apply.
func (q *Queue[T]) Drain(upTo uint64, apply func(T)) {
	var zero T
	for q.head < len(q.items) && q.items[q.head].seq <= upTo {
		v := q.items[q.head].v
		q.items[q.head].v = zero // let it be collected
		q.head++
		apply(v)
	}
	switch {
	case q.head == len(q.items):
		q.items, q.head = q.items[:0], 0
	case q.head > 1024 && q.head*2 > len(q.items):
		n := copy(q.items, q.items[q.head:])
		clear(q.items[n:])
		q.items, q.head = q.items[:n], 0
	}
}
