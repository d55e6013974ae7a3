package transfers

import (
	"encoding/json"
	"github.com/dynamoemu/dynamoemu/emulator/internal/service"
	"slices"
	"strings"
	"time"
)

// Exports, imports and bulk operations across restarts (-dbPath). Each
// is saved in its namespace's DB as DB metadata, as ClientRequestTokens
// are (idempotency_persist.go): one key per operation,
// metaKeyTransferPrefix + kind + "/" + its id, a RecordMeta logged and
// kept in snapshots like everything the DB holds. It is saved when the
// operation is recorded (before it is listed, so a CancelBulkOperation
// cannot be overtaken by the first save) and again when a bulk
// operation is cancelled. RebuildCatalog puts them back
// (Feature.Loaded), in start order, with their states, counts and
// ClientTokens; those started more than 90 days ago (AWS lists 90 days
// of them) are deleted instead. The files an export wrote were always
// kept: they are in the export directory. A failed save is logged: the
// operation is done, only its record is lost at the next restart.

// metaKeyTransferPrefix prefixes the DB metadata key of a saved
// export ("export/<id>"), import ("import/<id>") or bulk operation
// ("bulk/<id>").
const metaKeyTransferPrefix = "emulator/transfer/"

// transferRecordVersion is the version of transferRecord's encoding.
const transferRecordVersion = 1

// transferKeep is how long a restart keeps an operation.
const transferKeep = 90 * 24 * time.Hour

// transferRecord is a saved operation: its description as it ends and
// the state that is not in it.
type transferRecord struct {
	V         int             `json:"v"`
	Desc      json.RawMessage `json:"desc"`
	DoneAt    int64           `json:"doneAt"` // Unix nanoseconds: the end of IN_PROGRESS
	Request   string          `json:"request"`
	Cancelled bool            `json:"cancelled,omitempty"`
}

// arnID is the id an operation's ARN ends with.
func arnID(arn string) string { return arn[strings.LastIndexByte(arn, '/')+1:] }

// saveTransfer saves an operation of kind ("export", "import", "bulk")
// in the namespace's DB, if it is kept on disk. Called with no lock held.
func saveTransfer(s service.Space, kind, arn string, desc any, doneAt time.Time, request string, cancelled bool) {
	if !s.Persisted() {
		return
	}
	d, err := json.Marshal(desc)
	var b []byte
	if err == nil {
		b, err = json.Marshal(transferRecord{V: transferRecordVersion, Desc: d, DoneAt: doneAt.UnixNano(), Request: request, Cancelled: cancelled})
	}
	if err == nil {
		err = s.SetMeta(metaKeyTransferPrefix+kind+"/"+arnID(arn), b)
	}
	if err != nil {
		s.Log().Warn("cannot save an operation: it is not listed after a restart", "kind", kind, "arn", arn, "err", err)
	}
}

// saveLocked returns the function that saves j (set.mu is held: the
// job's fields are read now, the save runs after the unlock).
func (j *bulkJob) saveLocked(s service.Space) func() {
	d, doneAt, req, cancelled := j.desc, j.doneAt, j.request, j.cancelled
	return func() { saveTransfer(s, "bulk", d.BulkOperationArn, d, doneAt, req, cancelled) }
}

// loaded puts back the operations saved in the namespace's DB that
// started within transferKeep of now, and deletes the others (and any
// that does not read back, which is logged).
func loaded(s service.Space, now time.Time) {
	var stale []string
	set := moves.In(s)
	set.mu.Lock()
	for _, k := range s.MetaKeys() {
		rest, ok := strings.CutPrefix(k, metaKeyTransferPrefix)
		if !ok {
			continue
		}
		kind, _, _ := strings.Cut(rest, "/")
		var r transferRecord
		if err := json.Unmarshal(s.Meta(k), &r); err != nil || r.V != transferRecordVersion {
			s.Log().Warn("a saved operation does not read back; dropped", "key", k, "err", err)
			stale = append(stale, k)
			continue
		}
		doneAt := time.Unix(0, r.DoneAt)
		keep := func(err error, start service.EpochTime) bool {
			if err != nil {
				s.Log().Warn("a saved operation does not read back; dropped", "key", k, "err", err)
			}
			if err != nil || now.Sub(start.Time()) > transferKeep {
				stale = append(stale, k)
				return false
			}
			return true
		}
		switch kind {
		case "export":
			j := &exportJob{doneAt: doneAt, request: r.Request}
			if err := json.Unmarshal(r.Desc, &j.desc); keep(err, j.desc.StartTime) {
				set.exports = append(set.exports, j)
			}
		case "import":
			j := &importJob{doneAt: doneAt, request: r.Request}
			if err := json.Unmarshal(r.Desc, &j.desc); keep(err, j.desc.StartTime) {
				set.imports = append(set.imports, j)
			}
		case "bulk":
			j := &bulkJob{doneAt: doneAt, request: r.Request, cancelled: r.Cancelled}
			if err := json.Unmarshal(r.Desc, &j.desc); keep(err, j.desc.StartTime) {
				set.bulks = append(set.bulks, j)
			}
		} // another kind (a later version's) is left as it is
	}
	slices.SortStableFunc(set.exports, func(a, b *exportJob) int { return a.desc.StartTime.Time().Compare(b.desc.StartTime.Time()) })
	slices.SortStableFunc(set.imports, func(a, b *importJob) int { return a.desc.StartTime.Time().Compare(b.desc.StartTime.Time()) })
	slices.SortStableFunc(set.bulks, func(a, b *bulkJob) int { return a.desc.StartTime.Time().Compare(b.desc.StartTime.Time()) })
	set.mu.Unlock()
	for _, k := range stale {
		_ = s.SetMeta(k, nil)
	}
}
