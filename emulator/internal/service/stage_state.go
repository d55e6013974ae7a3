package service

import "github.com/dynamoemu/dynamoemu/emulator/internal/catalog"

// What a stage (stage.go) keeps, and what it is configured with: its
// settings (Config.Settings, the emulator's options for it, each under
// its SettingOf key), its state in each namespace (State,
// feature_state.go), its state on each table (TableState) and its value
// on each use (TableUse.SetValue). The core
// keeps them for whatever stage asks and names none of them.

// SettingOf is the key of a stage's (or a feature's) setting of type
// T: the package that reads the setting declares one variable of it,
// and both the emulator, which puts the value in Config.Settings with
// With, and the reader, which finds it with Of, go through that
// variable. So a setting handed as a value where its reader wants a
// pointer (or any other type) does not compile, where a bag searched by
// type left it silently absent (pebble's options.go has one typed field
// per concern for the same reason; the core cannot name the stages').
type SettingOf[T any] struct{}

// Setting is one value of Config.Settings, made by SettingOf.With.
type Setting struct{ v any }

// With is v as a setting of Config.Settings.
func (SettingOf[T]) With(v T) Setting { return Setting{v: v} }

// Of returns the setting of type T of s (a Space or a *Service): the
// first in its Config.Settings, or false when there is none.
func (SettingOf[T]) Of(s settingsOwner) (T, bool) {
	for _, set := range s.settings() {
		if t, ok := set.v.(T); ok {
			return t, true
		}
	}
	var zero T
	return zero, false
}

// settingsOwner is what has a service's settings: a Space or a
// *Service.
type settingsOwner interface{ settings() []Setting }

func (s *Service) settings() []Setting { return s.cfg.Settings }
func (s Space) settings() []Setting    { return s.ns.svc.cfg.Settings }

// TableState is a per-table state: a *T on each table, nil until stored.
// Loads and stores are atomic; the table made anew (a table of the same
// name after a DeleteTable, a restore) starts with none. Like State, it
// is a key.
type TableState[T any] struct{ k *key }

// NewTableState declares a per-table state of type T. Call it once, for
// a package variable.
func NewTableState[T any]() TableState[T] { return TableState[T]{k: new(key)} }

// Load returns the state on t (nil: none stored).
func (s TableState[T]) Load(t Table) *T {
	v, _ := t.t.states.load(s.k).(*T)
	return v
}

// Store sets the state on t (nil: none).
func (s TableState[T]) Store(t Table, v *T) { t.t.states.store(s.k, v) }

// LoadOrStore returns the state on t, storing v first when there is
// none: of concurrent callers, one stores and all get its v.
func (s TableState[T]) LoadOrStore(t Table, v *T) *T {
	if x := s.Load(t); x != nil {
		return x
	}
	return t.t.states.loadOrStore(s.k, v).(*T)
}

// SpaceFor is the namespace an access key and region select (the shared
// one with Config.SharedDB), made on first use, as a stage's admin calls
// find it.
func (s *Service) SpaceFor(accessKey, region string) Space {
	return Space{ns: s.namespaceOf(accessKey, region)}
}

// namespaceOf returns the registered namespace of an access key and region.
func (s *Service) namespaceOf(accessKey, region string) *Namespace {
	if s.cfg.SharedDB {
		return s.get(catalog.Key{Shared: true})
	}
	return s.get(catalog.Key{AccessKey: accessKey, Region: region})
}

// Batch reports whether the use is an item of a batch, whose items are
// separate requests on AWS.
func (u *TableUse) Batch() bool { return u.batch }

// Same reports whether d and o are the same definition (the same
// publication of the same table).
func (d Definition) Same(o Definition) bool { return d.t == o.t && d.m == o.m }

// VectorIndexes are the names of the table's vector indexes.
func (d Definition) VectorIndexes() []string {
	out := make([]string, len(d.m.Vectors))
	for i, x := range d.m.Vectors {
		out[i] = x.Name
	}
	return out
}
