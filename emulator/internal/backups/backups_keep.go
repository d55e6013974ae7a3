package backups

import (
	"encoding/json"
	"fmt"
	"github.com/dynamoemu/dynamoemu/emulator/internal/service"
	"slices"
	"strings"
	"time"
)

// Backups kept on disk (Config.Keep, with persistence): each on-demand
// or SYSTEM backup is a table file of the namespace's "backups" side
// directory (persist's side files: the snapshot file format, holding
// the backed-up table, whose definition record is in its metadata as in
// the DB, plus the backup's own fields under metaKeyBackup), written
// and made durable before CreateBackup answers (or, for a SYSTEM
// backup, before DeleteTable does), removed by DeleteBackup and when a
// SYSTEM backup expires. A namespace loaded from disk reads them back
// (loadBackups): ARNs, names, types, times, sizes, item counts and
// items as they were. Without Keep nothing here runs.
//
// Cost: CreateBackup writes the whole table (at the speed of a
// namespace snapshot), from its copy-on-write snapshot, so writers are
// not held up meanwhile. After a restart each backup's items are its
// own copy in memory (loaded from its file), no longer shared with the
// table.

// keepBackups is the namespace's side directory of backups
// (Config.Keep's sub).
const keepBackups = "backups"

// metaKeyBackup is the metadata key of a backup file's own fields.
const metaKeyBackup = "dynamoemu.backup"

// backupFileSuffix ends the name of every backup file.
const backupFileSuffix = ".backup"

// backupRecord is a backup's own fields in its file.
type backupRecord struct {
	ARN       string `json:"arn"`
	Name      string `json:"name"`
	Type      string `json:"type"`
	Created   int64  `json:"created"` // Unix nanoseconds
	Available int64  `json:"available"`
	Expires   int64  `json:"expires,omitempty"` // 0: never
}

// backupFile is the file name of the backup of ARN arn: the ARN's unique
// suffix (<epoch ms>-<8 hex>).
func backupFile(arn string) string {
	i := strings.LastIndex(arn, "/backup/")
	return arn[i+len("/backup/"):] + backupFileSuffix
}

// keepBackup writes b to disk, if the namespace keeps its backups.
func (s *backupSet) keepBackup(b *backup) error {
	if s.keep == nil {
		return nil
	}
	rec := backupRecord{ARN: b.arn, Name: b.name, Type: b.typ, Created: b.created.UnixNano(), Available: b.available.UnixNano()}
	if !b.expires.IsZero() {
		rec.Expires = b.expires.UnixNano()
	}
	v, err := json.Marshal(rec)
	if err != nil {
		return err
	}
	if _, err := s.keep.WriteTable(backupFile(b.arn), b.copy.Snapshot(), map[string][]byte{metaKeyBackup: v}); err != nil {
		return fmt.Errorf("keeping backup %s: %w", b.arn, err)
	}
	return nil
}

// forgetBackup removes b's file, if the namespace keeps its backups.
func (s *backupSet) forgetBackup(b *backup) error {
	if s.keep == nil {
		return nil
	}
	return s.keep.Remove(backupFile(b.arn))
}

// opened reads the backups a namespace kept on disk, in creation order,
// and keeps its backups there from now on. A file that does not read
// back is logged and left where it is.
func opened(sp service.Space) {
	k, err := sp.Keep(keepBackups)
	if err != nil {
		sp.Log().Error("the namespace's backups are kept in memory only", "namespace", sp.ID(), "err", err)
		return
	}
	if k == nil {
		return // not kept on disk
	}
	s := sets.In(sp)
	s.keep = k
	names, err := k.List(backupFileSuffix)
	if err != nil {
		sp.Log().Error("cannot list the namespace's backups", "namespace", sp.ID(), "err", err)
		return
	}
	var list []*backup
	for _, name := range names {
		b, err := readBackup(sp, k, name)
		if err != nil {
			sp.Log().Error("a backup file does not read back; left as it is", "namespace", sp.ID(), "file", name, "err", err)
			continue
		}
		list = append(list, b)
	}
	slices.SortStableFunc(list, func(a, b *backup) int { return a.created.Compare(b.created) })
	for _, b := range list {
		s.add(b)
	}
}

// readBackup reads the backup file name of sp.
func readBackup(sp service.Space, k service.Keeper, name string) (*backup, error) {
	snap, meta, err := k.ReadTable(name)
	if err != nil {
		return nil, err
	}
	var rec backupRecord
	if err := json.Unmarshal(meta[metaKeyBackup], &rec); err != nil {
		return nil, fmt.Errorf("its backup record: %w", err)
	}
	tc, err := sp.CopyOf(snap)
	if err != nil {
		return nil, err
	}
	b := &backup{
		arn: rec.ARN, name: rec.Name, typ: rec.Type,
		created: time.Unix(0, rec.Created), available: time.Unix(0, rec.Available), copy: tc,
	}
	if rec.Expires != 0 {
		b.expires = time.Unix(0, rec.Expires)
	}
	if backupFile(b.arn) != name {
		return nil, fmt.Errorf("holds backup %s", b.arn)
	}
	return b, nil
}
