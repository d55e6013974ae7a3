package pitr

import (
	"github.com/dynamoemu/dynamoemu/emulator/internal/boundary"
	"time"

	"github.com/dynamoemu/dynamoemu/emulator/internal/service"
	"github.com/dynamoemu/dynamoemu/internal/storage"
)

// Feature is point-in-time recovery (service.Config.Features): each
// table's history, fed by the recorder it puts in front of every
// namespace's DB hook (Hooks.WrapDB), started, changed and stopped as the
// table's recovery setting is (Hooks.Defined), kept on disk beside the
// namespace (Hooks.Opened, Loaded, Closed); and DescribeContinuousBackups,
// UpdateContinuousBackups and RestoreTableToPointInTime.
type Feature struct{}

// Name is the feature's name. It keeps no slot: the recovery setting is
// the core's (the table record's "pitr" member, which is why the name
// is not "pitr": a slot is read from the member of its feature's name).
func (Feature) Name() string { return "pointInTimeRecovery" }

// recorderSlot is a namespace's recorder (nil: the namespace's data could
// not be opened, and it records nothing).
type recorderSlot struct{ p *pitrRecorder }

// recorders is every namespace's recorder.
var recorders = service.NewState[recorderSlot]()

// Register installs the operations.
func (Feature) Register(r service.Registrar) {
	service.Op(r, "DescribeContinuousBackups", boundary.TableDescribe, describeContinuousBackups)
	service.Op(r, "UpdateContinuousBackups", boundary.TableWrite, updateContinuousBackups)
	service.Op(r, "RestoreTableToPointInTime", boundary.Decl{On: boundary.Source, Access: boundary.WholeRead, Target: true}, restoreTableToPointInTime)
}

// Hooks follow every write and every definition of a namespace's tables,
// and keep the histories beside the namespace's DB.
func (Feature) Hooks() service.Hooks {
	return service.Hooks{WrapDB: hooked, Defined: defined, Opened: opened, Loaded: loaded, Closed: closed}
}

// hooked puts the namespace's recorder in front of its DB's hook.
func hooked(s service.Space, db *storage.DB) {
	recorders.In(s).p = wrapPITR(db, s.Clock())
}

// recorderOf is the recorder of t's namespace (nil: none).
func recorderOf(t service.Table) *pitrRecorder { return recorders.In(t.Space()).p }

// History is a table's point-in-time recovery history, for a feature
// that reads a table as it was (exports).
type History struct{ l *pitrLog }

// HistoryOf returns the table's history, or false when recovery is off
// (or just being enabled).
func HistoryOf(t service.Table) (History, bool) {
	l := recorderOf(t).get(t.Info().ID)
	if !t.Definition().Settings().Recovery.On || l == nil {
		return History{}, false
	}
	return History{l: l}, true
}

// Window returns the earliest and latest restorable times at now.
func (h History) Window(now time.Time) (earliest, latest time.Time) { return h.l.window(now) }

// At returns the table's items as of at (in the window).
func (h History) At(at time.Time) (*storage.TableSnapshot, error) {
	return h.l.at(at, storage.Derivation{})
}

// Changed returns the keys of the items written in (from, to], in the
// order of their first write there, and the time of each one's last.
func (h History) Changed(from, to time.Time) ([]storage.Key, map[storage.Key]time.Time) {
	h.l.mu.Lock()
	defer h.l.mu.Unlock()
	var changed []storage.Key
	last := map[storage.Key]time.Time{} // keys are scalars: comparable
	for _, pw := range h.l.writes {
		if pw.at.After(from) && !pw.at.After(to) {
			if _, seen := last[pw.w.Key]; !seen {
				changed = append(changed, pw.w.Key)
			}
			last[pw.w.Key] = pw.at
		}
	}
	return changed, last
}
