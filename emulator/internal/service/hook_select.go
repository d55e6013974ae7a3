package service

import "github.com/dynamoemu/dynamoemu/internal/storage"

// The namespace's hook chain selects the item writes it hears of
// (storage.CommitSelector): the replication tap, then the point-in-time
// recorder, then persistence or none. Without persistence, replication
// or a table with point-in-time recovery, nothing listens to item
// writes, and storage then builds no record and calls no hook for them.
// Catalog records reach the chain whatever the answers.
//
// Ordering: a selector's answer turns true only by an atomic store made
// before whatever must include the writes it did not hear of reads the
// table under its lock (storage/hook_select.go has the argument):
//   - point-in-time recovery (emulator/internal/pitr): its recorder's start stores the table's log
//     (set) before it takes the base snapshot (Table.Snapshot takes the
//     table's write lock), so a write not logged is in the base;
//   - replication: setRoute sets routed before it adds the route, under
//     the replicator's lock; a write not heard of was answered before
//     the route existed, when the tap would have queued nothing either.

// HookWants reports whether hook inner (nil: none) wants the item writes
// of table id: a hook that is no selector wants them all.
func HookWants(inner storage.Hook, id string) bool {
	if inner == nil {
		return false
	}
	s, ok := inner.(storage.CommitSelector)
	return !ok || s.WantsCommits(id)
}

// WantsCommits reports whether the tap, or the hook it wraps, wants the
// item writes of table id: once any table of the service has had a
// replica, the tap hears every write (it checks the routes itself).
func (p *replTap) WantsCommits(id string) bool {
	return p.r.routed.Load() || HookWants(p.inner, id)
}
