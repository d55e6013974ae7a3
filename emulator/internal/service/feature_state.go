package service

import (
	"log/slog"
	"sync/atomic"
)

// A feature's or a stage's state in each namespace. A feature that keeps
// something per namespace (a list of operations, say) declares it once,
// in a package variable: NewState makes a key, and each namespace holds
// one value under it, made at its first use (a branch that is only read
// makes few). The state of a service (ServiceState, feature_service.go)
// and of a table (TableState, stage_state.go) are kept the same way. A
// feature that keeps its state on disk reads it back in its Loaded hook
// (feature_lifecycle.go), from its DB metadata (Space.Meta).

// State is a per-namespace state: a *T in every namespace, zero in a new
// one. It is a key: the state lives in each namespace, so that one
// State serves every service in the process.
type State[T any] struct{ k *key }

// key names a state; its address is its identity (not zero-sized, so
// that two keys never share one).
type key struct{ _ byte }

// NewState declares a per-namespace state of type T. Call it once, for a
// package variable.
func NewState[T any]() State[T] { return State[T]{k: new(key)} }

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
	x, _ := s.slots(sp.ns).load(s.k).(*T)
	return x
}

func (s State[T]) in(ns *Namespace) *T {
	sl := s.slots(ns)
	if v, ok := sl.load(s.k).(*T); ok {
		return v
	}
	return sl.loadOrStore(s.k, new(T)).(*T) // the first maker wins
}

// slots returns the states of ns: until it owns its catalog
// (Namespace.own), empty ones nothing keeps.
func (s State[T]) slots(ns *Namespace) *slots {
	if m := ns.more.Load(); m != nil {
		if sl := m.states.Load(); sl != nil {
			return sl
		}
	}
	return new(slots)
}

// slots are the values of a namespace's, a service's or a table's
// states, by key: a list replaced whole on each change, so that a read is
// one atomic load and a short scan (a few states each), and a change (a
// state's first use, a table's state set) a compare-and-swap.
type slots struct{ p atomic.Pointer[[]slot] }

type slot struct {
	k *key
	v any
}

// load returns the value under k (nil: none).
func (s *slots) load(k *key) any {
	if p := s.p.Load(); p != nil {
		for _, e := range *p {
			if e.k == k {
				return e.v
			}
		}
	}
	return nil
}

// loadOrStore returns the value under k, storing v first when there is
// none: of concurrent callers, one stores and all get its v.
func (s *slots) loadOrStore(k *key, v any) any {
	for {
		p := s.p.Load()
		if p != nil {
			for _, e := range *p {
				if e.k == k {
					return e.v
				}
			}
		}
		if s.swap(p, k, v) {
			return v
		}
	}
}

// store sets the value under k (nil: none).
func (s *slots) store(k *key, v any) {
	for !s.swap(s.p.Load(), k, v) {
	}
}

// swap replaces the list p with one holding v under k, unless the list
// changed since p was read.
func (s *slots) swap(p *[]slot, k *key, v any) bool {
	var next []slot
	if p != nil {
		next = make([]slot, 0, len(*p)+1)
		for _, e := range *p {
			if e.k != k {
				next = append(next, e)
			}
		}
	}
	next = append(next, slot{k: k, v: v})
	return s.p.CompareAndSwap(p, &next)
}

// Space is a namespace as a feature sees it: its DB metadata (kept with
// the namespace: logged, in snapshots, back after a restart) and its
// logger. A feature keeps its metadata under keys of its own prefix.
type Space struct{ ns *Namespace }

// Space is the request's namespace.
func (c Call) Space() Space { return Space{ns: c.c.ns} }

// Persisted reports whether the namespace is kept on disk.
func (s Space) Persisted() bool { return s.ns.persisted() }

// MetaKeys returns the keys of the namespace's DB metadata.
func (s Space) MetaKeys() []string { return s.ns.cat.Load().DB.MetaKeys() }

// Meta returns the DB metadata under key (nil: none).
func (s Space) Meta(key string) []byte { return s.ns.cat.Load().DB.Meta(key) }

// SetMeta sets the DB metadata under key (nil: deletes it), in the
// namespace's own catalog (made first if it has none yet).
func (s Space) SetMeta(key string, v []byte) error { return s.ns.own().DB.SetMeta(key, v) }

// Log is the service's logger.
func (s Space) Log() *slog.Logger { return s.ns.svc.log }
