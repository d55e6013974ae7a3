package service

import (
	"log/slog"
	"sync/atomic"
	"time"
)

// A feature's per-namespace state and its part in loading a namespace.
// A feature that keeps something per namespace (a list of operations,
// say) declares it with NewState in its Register; each namespace then
// holds one value of it, made at its first use (a branch that is only
// read makes few). A feature that keeps
// that state on disk implements Loader: RebuildCatalog calls it once the
// namespace's tables are back, and the feature reads its DB metadata
// (Space.Meta) there.

// State is a feature's per-namespace state: a *T in every namespace.
type State[T any] struct{ i int }

// stateMakers make the states of a new namespace, in NewState's order.
// Filled by init functions only (Use); read-only afterwards.
var stateMakers []func() any

// NewState declares a per-namespace state of type T, zero in a new
// namespace. Call it from the feature's Register.
func NewState[T any](r Registrar) State[T] {
	stateMakers = append(stateMakers, func() any { return new(T) })
	return State[T]{i: len(stateMakers) - 1}
}

// Of returns the state in the request's namespace. One that does not own
// its catalog (Namespace.own) keeps nothing: it gets a zero T that
// nothing keeps (use Kept to keep what the request adds).
func (s State[T]) Of(c Call) *T { return s.in(c.c.ns) }

// Kept returns the state in the request's namespace, which gets its own
// catalog first if it has none yet (as adding a table does).
func (s State[T]) Kept(c Call) *T {
	c.c.ns.own()
	return s.in(c.c.ns)
}

// In returns the state in the namespace s.
func (s State[T]) In(sp Space) *T { return s.in(sp.ns) }

// Made returns the state in the namespace s if made (by In), else nil.
func (s State[T]) Made(sp Space) *T {
	x, _ := s.slot(sp.ns).Load().(*T)
	return x
}

func (s State[T]) in(ns *Namespace) *T {
	v := s.slot(ns)
	if v.Load() == nil {
		v.CompareAndSwap(nil, stateMakers[s.i]()) // the first maker wins
	}
	return v.Load().(*T)
}

// slot returns the state's slot in ns: while ns has no states (it does
// not own its catalog), an empty one nothing keeps.
func (s State[T]) slot(ns *Namespace) *atomic.Value {
	if states := ns.states.Load(); states != nil {
		return &(*states)[s.i]
	}
	return new(atomic.Value)
}

// Loader is a feature that puts back state kept on disk when its
// namespace is loaded (-dbPath): Loaded runs once the namespace's tables
// are back, at now.
type Loader interface {
	Loaded(s Space, now time.Time)
}

// loaders are the features in use that implement Loader, in Use's order.
var loaders []Loader

// Space is a namespace as a feature sees it: its DB metadata (kept with
// the namespace: logged, in snapshots, back after a restart) and its
// logger. A feature keeps its metadata under keys of its own prefix.
type Space struct{ ns *Namespace }

// Space is the request's namespace.
func (c Call) Space() Space { return Space{ns: c.c.ns} }

// Persisted reports whether the namespace is kept on disk.
func (s Space) Persisted() bool { return s.ns.persisted() }

// MetaKeys returns the keys of the namespace's DB metadata.
func (s Space) MetaKeys() []string { return s.ns.cat.Load().db.MetaKeys() }

// Meta returns the DB metadata under key (nil: none).
func (s Space) Meta(key string) []byte { return s.ns.cat.Load().db.Meta(key) }

// SetMeta sets the DB metadata under key (nil: deletes it), in the
// namespace's own catalog (made first if it has none yet).
func (s Space) SetMeta(key string, v []byte) error { return s.ns.own().db.SetMeta(key, v) }

// Log is the service's logger.
func (s Space) Log() *slog.Logger { return s.ns.svc.log }
