package service

import "github.com/dynamoemu/dynamoemu/internal/storage"

// The namespace's hook chain selects the item writes it hears of
// (storage.CommitSelector): the features' hooks (service.Hooker, in Use's
// order, the last outermost: global tables' replication tap, then the
// point-in-time recorder), then persistence or none. Without
// persistence, a global table or a table with point-in-time recovery,
// nothing listens to item writes, and storage then builds no record and
// calls no hook for them. Catalog records reach the chain whatever the
// answers.
//
// Ordering: a selector's answer turns true only by an atomic store made
// before whatever must include the writes it did not hear of reads the
// table under its lock (storage/hook_select.go has the argument); each
// feature's hook says how it keeps that rule (emulator/internal/pitr's
// recorder, emulator/internal/globaltables' tap).

// HookWants reports whether hook inner (nil: none) wants the item writes
// of table id: a hook that is no selector wants them all.
func HookWants(inner storage.Hook, id string) bool {
	if inner == nil {
		return false
	}
	s, ok := inner.(storage.CommitSelector)
	return !ok || s.WantsCommits(id)
}
