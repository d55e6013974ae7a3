package service

import (
	"time"

	"github.com/dynamoemu/dynamoemu/emulator/internal/apierr"
	"github.com/dynamoemu/dynamoemu/emulator/internal/tablespec"
	"github.com/dynamoemu/dynamoemu/internal/storage"
)

// The notifications a feature that follows every write and every
// definition of a namespace's tables takes (point-in-time recovery): its
// hook in the namespace's commit hook chain, the publication of each
// table definition, and the service's close. And the table setting such
// a feature owns in the definition record (the recovery setting: the
// record keeps it where it always was, so records on disk read as
// before).

// Hooker is a feature that puts a hook in front of a namespace's DB hook
// when the namespace is made (storage.DB.WrapHook), before anything is
// loaded into it: it hears every record the DB commits, in commit order,
// on the one write path. Its hook may implement storage.CommitSelector
// (HookWants helps it ask the hook it wraps).
type Hooker interface {
	Hooked(s Space, db *storage.DB)
}

// Definer is a feature told each time a table's definition is published:
// a table made or rebuilt from its record (old is then the zero
// Definition), a definition change replayed (both Replayed), and a
// recovery setting changed (Table.ChangeRecovery). It runs under the
// table's lock.
type Definer interface {
	Defined(old, d Definition)
}

// Closer is a feature or a stage told when a namespace is gone (the
// service closed, a branch dropped, a shared catalog's reader let go by
// its last fork), to let go of what it keeps of it: its files closed.
type Closer interface {
	Closed(s Space)
}

var (
	hookers  []Hooker
	definers []Definer
	closers  []Closer
)

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

// defined tells the definers that t's definition m is published (old:
// the one before, nil for a table just made or rebuilt); replay says it
// comes from a record being applied. A table with no storage (being
// made) is not told of.
func (ns *Namespace) defined(t *table, old, m *tableMeta, replay bool) {
	if t.data == nil {
		return
	}
	for _, d := range definers {
		d.Defined(Definition{t: t, m: old, replay: replay}, Definition{t: t, m: m, replay: replay})
	}
}

// ChangeRecovery sets the table's point-in-time recovery (days: its
// period, when on), recorded as any change of the definition, and tells
// the definers once it is recorded. A table DELETING, or still CREATING
// at now, is TableNotFoundException ("Table not found: <name>"), as AWS
// answers UpdateContinuousBackups for one.
func (t Table) ChangeRecovery(now time.Time, on bool, days int) error {
	tt := t.t
	return tt.changeMeta(func(m *tableMeta) (func(bool) error, error) {
		if m.status == statusDeleting || m.statusAt(now) == statusCreating {
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
