package globaltables

// Per-key write stamps (replication.go) are what last writer wins
// compares, and they are pruned so that they do not grow with every key
// ever written. A stamp may go once it can no longer decide anything:
// when it is older than every change still queued and than the clock.
// Then every replicated write still to come (queued, or committed later
// at a clock reading no earlier than now) is newer than it, so it would
// win over the stamp anyway, and a later local write reads the clock,
// which is past the stamp, so it needs no stamp to be later either. The
// outcome of every conflict is the same with or without it, given a
// clock that does not go back. (On a clock that does not move, as in
// tests, nothing is older than it and nothing is pruned.)
//
// Pruning walks every stamp, so it runs only when the stamps have
// doubled since the last prune (at least pruneMinStamps of them): its
// cost is spread over the writes that made them.

// pruneMinStamps is how many stamps a service keeps before it prunes (a
// variable for tests).
var pruneMinStamps = 4096

// pruneStamps drops the stamps that can no longer decide a conflict, if
// enough have been made since the last prune. drainMu is held.
func (r *replicator) pruneStamps() {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.stampCount < max(pruneMinStamps, 2*r.stampsKept) {
		return
	}
	now := r.svc.Now()
	mark := now
	for _, op := range r.queue {
		if op.stamp.at.Before(mark) && !op.stamp.at.IsZero() {
			mark = op.stamp.at
		}
	}
	kept := 0
	for id, keys := range r.stamps {
		for k, s := range keys {
			if s.at.Before(mark) {
				delete(keys, k)
			}
		}
		if len(keys) == 0 {
			delete(r.stamps, id)
		}
		kept += len(keys)
	}
	r.stampCount, r.stampsKept = kept, kept
}

// stampsHeld returns how many per-key write stamps the replicator keeps
// (tests: they are pruned).
func (r *replicator) stampsHeld() int {
	r.mu.Lock()
	defer r.mu.Unlock()
	n := 0
	for _, keys := range r.stamps {
		n += len(keys)
	}
	return n
}
