package storage

// Grow makes room for n more writes in the transaction, so that a caller
// that knows how many it will make (a BatchWriteItem of 25) does not grow
// the transaction's lists write by write (BenchmarkPreload). It changes
// nothing else.
func (tx *WriteTx) Grow(n int) {
	if n <= 0 || tx.done {
		return
	}
	if free := cap(tx.undo) - len(tx.undo); free < n {
		tx.undo = append(make([]undoEntry, 0, len(tx.undo)+n), tx.undo...)
	}
	if free := cap(tx.changes) - len(tx.changes); free < n {
		tx.changes = append(make([]Change, 0, len(tx.changes)+n), tx.changes...)
	}
}
