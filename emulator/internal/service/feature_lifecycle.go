package service

import (
	"time"

	"github.com/dynamoemu/dynamoemu/emulator/internal/apierr"
	"github.com/dynamoemu/dynamoemu/emulator/internal/tablespec"
	"github.com/dynamoemu/dynamoemu/internal/storage"
)

// The hooks a feature or a stage takes in a service's life: the service
// made, each request started and each call that is not a data-plane one,
// a namespace opened, loaded and closed, a table's definition checked,
// published, described, changed and dropped. Each is a field of Hooks,
// nil when not taken (pebble's EventListener); New asks each feature and
// each stage that is a Hooker for its Hooks once, and calls each kind in
// Config's order (the features', then the stages'). And the table setting
// such a feature owns in the definition record (the recovery setting:
// the record keeps it where it always was, so records on disk read as
// before).

// Hooker is a feature or a stage that takes part in the service's life
// beside its operations or its uses.
type Hooker interface {
	Hooks() Hooks
}

// Hooks are a feature's or a stage's hooks, each nil when not taken.
type Hooks struct {
	// Configure is told of a new service, in New: it may make the
	// per-service state its settings ask for (Config.Settings, SettingOf);
	// an error fails New.
	Configure func(s *Service) error
	// Starting is told at the start of every request, at its arrival time
	// now, before its operation runs (and with no lock held): it does the
	// work due by then. It runs on every request, so it must cost next to
	// nothing when there is none.
	Starting func(s *Service, now time.Time)
	// CheckCall takes part in every call of an operation that is not a
	// data-plane one (the control plane, the Streams API): it runs once
	// per call, with op the operation's name and in its decoded input,
	// before the operation validates it; an error fails the call with it.
	CheckCall func(c Call, op string, in any) error

	// WrapDB puts a hook in front of a namespace's DB hook when the
	// namespace is made (storage.DB.WrapHook), before anything is loaded
	// into it: it hears every record the DB commits, in commit order, on
	// the one write path. Its hook may implement storage.CommitSelector
	// (HookWants helps it ask the hook it wraps).
	WrapDB func(sp Space, db *storage.DB)
	// Opened is told when a namespace is made (after WrapDB, before
	// anything is loaded into it), to read what it keeps beside it
	// (Space.Keep).
	Opened func(sp Space)
	// Loaded puts back state kept on disk when its namespace is loaded
	// (-dbPath): it runs once the namespace's tables are back, at now.
	Loaded func(sp Space, now time.Time)
	// Closed is told when a namespace is gone (the service closed, a
	// branch dropped, a shared catalog let go): its files made durable.
	Closed func(sp Space)

	// CheckDefinition checks t's definition in change, with its tags
	// (DefinitionTagged: the new ones; the rest is the published
	// definition): an error refuses the change; done (nil: none) runs
	// once it is recorded.
	CheckDefinition func(c Call, t Table, change DefinitionChange, tags []TagDesc) (done func(), err error)
	// LoadedDefinition is told of a table of sp read back with its tags,
	// or copied or restored (tags nil), before any request sees it (t's
	// Space may not be set yet).
	LoadedDefinition func(sp Space, t Table, tags []TagDesc)
	// Defined is told each time a table's definition is published: a
	// table made or rebuilt from its record (old is then the zero
	// Definition), a definition change replayed (both Replayed), and a
	// recovery setting changed (Table.ChangeRecovery). It runs under the
	// table's lock.
	Defined func(old, d Definition)
	// Describe describes the hook's part of a table in every
	// TableDescription (DescribeTable's, CreateTable's, UpdateTable's,
	// DeleteTable's answers): it may add members (TableDescription.Add)
	// and change the TableStatus shown.
	Describe func(d Definition, now time.Time, out *TableDescription)
	// CheckUpdate may refuse an UpdateTable: it runs once the request in
	// found its table t, before anything changes; CheckUpdateLocked with
	// the table's lock held, on the definition d the change starts from
	// (not DELETING). Their errors are the answer.
	CheckUpdate       func(c Call, t Table, in *UpdateTableInput) error
	CheckUpdateLocked func(c Call, d Definition, in *UpdateTableInput) error
	// IndexDropped is told when UpdateTable has deleted a GSI of t, once
	// the change is recorded, with no lock held.
	IndexDropped func(t Table, index string)
	// CheckDrop may refuse a DeleteTable: it runs once the request found
	// its table t, before anything changes; its error is the answer.
	CheckDrop func(c Call, t Table) error
	// Dropped is told when a table is deleted: its drop recorded, the
	// table out of its namespace, its lock held (take no other table's).
	Dropped func(d Dropped)
}

// Definition is a table's definition as a feature that follows it sees
// it.
type Definition struct {
	t      *table
	m      *tableMeta // nil: none (a table just made)
	replay bool       // from a record being applied (Replayed)
}

// Exists reports whether there was a definition (false: the table was
// just made).
func (d Definition) Exists() bool { return d.m != nil }

// Table is the table.
func (d Definition) Table() Table { return Table{t: d.t} }

// defined tells the Defined hooks that t's definition m is published (old:
// the one before, nil for a table just made or rebuilt); replay says it
// comes from a record being applied. A table with no storage (being
// made) is not told of.
func (ns *Namespace) defined(t *table, old, m *tableMeta, replay bool) {
	if t.data == nil {
		return
	}
	for _, h := range ns.svc.seams.hooks {
		if h.Defined != nil {
			h.Defined(Definition{t: t, m: old, replay: replay}, Definition{t: t, m: m, replay: replay})
		}
	}
}

// ChangeRecovery sets the table's point-in-time recovery (days: its
// period, when on), recorded as any change of the definition, and tells
// the Defined hooks once it is recorded. A table DELETING, or still CREATING
// at now, is TableNotFoundException ("Table not found: <name>"), as AWS
// answers UpdateContinuousBackups for one.
func (t Table) ChangeRecovery(now time.Time, on bool, days int) error {
	tt := t.t
	return tt.changeMeta(func(m *tableMeta) (func(bool) error, error) {
		if m.Status == statusDeleting || m.StatusAt(now) == statusCreating {
			return nil, apierr.New(apierr.ErrTableNotFound, apierr.MsgTableNotFoundBackup(tt.name))
		}
		old := *m
		m.Recovery = tablespec.Recovery{On: on}
		if on {
			m.Recovery.Days = days
		}
		return func(recorded bool) error {
			if recorded {
				tt.ns.defined(tt, &old, m, false)
			}
			return nil
		}, nil
	})
}

// Clock is the service's clock.
func (s Space) Clock() func() time.Time { return s.ns.svc.clock }
