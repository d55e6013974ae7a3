package backups

import (
	"cmp"
	"fmt"
	"github.com/dynamoemu/dynamoemu/emulator/internal/boundary"
	"github.com/dynamoemu/dynamoemu/emulator/internal/service"
	"github.com/dynamoemu/dynamoemu/emulator/internal/tablespec"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/dynamoemu/dynamoemu/emulator/internal/apierr"
)

// On-demand backups: CreateBackup, DescribeBackup, ListBackups and
// DeleteBackup (RestoreTableFromBackup is restore.go's), after AWS's API
// reference (https://docs.aws.amazon.com/amazondynamodb/latest/APIReference/API_CreateBackup.html
// and its siblings). DynamoDB Local has none of them.
//
// A backup is a copy-on-write snapshot of its table (storage's
// Table.Snapshot: O(1) per table and index, whatever the table's size)
// and the table's definition, which the snapshot carries as the
// metadata record the catalog keeps (emulator/internal/catalog). Memory: the
// backup shares every item and B-tree node with the table; from then on
// each node the table changes is copied once, and each item it
// overwrites or deletes stays alive for the backup. So a backup costs
// nothing while its table is unchanged and at most about the table's
// size once every item has been rewritten; DeleteBackup (or dropping
// the namespace) frees what only it held.
//
// Backups belong to the namespace (access key and region, or the shared
// one), as AWS's belong to the account and region, and live in memory:
// they are not recorded in the namespace's DB; with persistence each is
// kept in a file of its own beside it (backups_keep.go) and survives a
// restart. A backup is CREATING for the
// transient delay (-delayTransientStatuses; none by default), then
// AVAILABLE; DeleteBackup answers it DELETED and forgets it. Deleting a
// table with point-in-time recovery keeps a SYSTEM backup of it for 35
// days of the emulator's clock, as AWS does.

// Feature is the on-demand backups feature (service.Config.Features).
type Feature struct{}

// Name is the feature's name.
func (Feature) Name() string { return "backups" }

// sets is every namespace's backups.
var sets = service.NewState[backupSet]()

// Register installs CreateBackup, DescribeBackup, ListBackups,
// DeleteBackup and RestoreTableFromBackup.
func (Feature) Register(r service.Registrar) {
	service.Op(r, "CreateBackup", boundary.TableCopy, createBackup)
	service.Op(r, "DescribeBackup", boundary.Decl{On: boundary.Backup, Access: boundary.Describe}, describeBackup)
	service.Op(r, "ListBackups", boundary.List, listBackups)
	service.Op(r, "DeleteBackup", boundary.Decl{On: boundary.Backup, Access: boundary.WholeWrite}, deleteBackup)
	service.Op(r, "RestoreTableFromBackup", boundary.Decl{On: boundary.Backup, Access: boundary.WholeRead, Target: true}, restoreTableFromBackup)
}

// Hooks read a namespace's backups kept on disk when it opens (opened),
// and keep a SYSTEM backup of a table deleted with point-in-time
// recovery (dropped).
func (Feature) Hooks() service.Hooks { return service.Hooks{Opened: opened, Dropped: dropped} }

// Backup states and types.
const (
	backupCreating  = "CREATING"
	backupAvailable = "AVAILABLE"
	backupDeleted   = "DELETED"
	backupUser      = "USER"
	backupSystem    = "SYSTEM"
)

// systemBackupRetention is how long a SYSTEM backup lives (AWS: 35 days).
const systemBackupRetention = 35 * 24 * time.Hour

// ListBackups' Limit bounds (AWS's model: 1 to 100).
const maxListBackupsLimit = 100

// backupSet is a namespace's backups.
type backupSet struct {
	mu sync.Mutex // guards the fields below; a leaf of the lock order
	// list holds the backups in creation order (ListBackups' order).
	list []*backup
	// keep keeps them on disk (backups_keep.go); nil: memory only. Set
	// when the namespace is made.
	keep service.Keeper
	// seq numbers the backups added (backup.seq); gone maps the ARNs of
	// backups deleted to their seq, so that ListBackups resumes after one
	// (backupsAfter); at most maxGoneBackups are remembered.
	seq  uint64
	gone map[string]uint64
}

// maxGoneBackups bounds backupSet.gone.
const maxGoneBackups = 1024

// backup is one on-demand backup. Every field but restoring is fixed at
// creation.
type backup struct {
	// restoring is when the restore it feeds leaves CREATING (guarded by
	// its backupSet's mu): until then it feeds no other restore and is
	// not deleted (restoreGuard).
	restoring time.Time
	seq       uint64 // its place in creation order (backupSet.seq)

	arn, name string
	typ       string
	created   time.Time
	available time.Time // CREATING until then
	expires   time.Time // a SYSTEM backup's end; zero: never
	// copy is the table as it was: its items, fixed fields and
	// definition.
	copy service.TableCopy
}

// backupARN returns a new backup ARN of the table at tableARN, as AWS
// formats them: <table ARN>/backup/<13-digit epoch milliseconds>-<8 hex>.
func backupARN(tableARN string, now time.Time) string {
	return fmt.Sprintf("%s/backup/%013d-%08x", tableARN, now.UnixMilli(), rand.Uint32())
}

// add keeps b.
func (s *backupSet) add(b *backup) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.seq++
	b.seq = s.seq
	s.list = append(s.list, b)
}

// goneSeq returns the seq of the deleted backup of ARN arn, if
// remembered.
func (s *backupSet) goneSeq(arn string) (uint64, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	seq, ok := s.gone[arn]
	return seq, ok
}

// forgetLocked remembers that b is deleted (gone).
func (s *backupSet) forgetLocked(b *backup) {
	if s.gone == nil {
		s.gone = make(map[string]uint64)
	}
	if len(s.gone) >= maxGoneBackups {
		for k := range s.gone {
			delete(s.gone, k)
			break
		}
	}
	s.gone[b.arn] = b.seq
}

// find returns the backup of ARN arn at now, or nil.
func (s *backupSet) find(arn string, now time.Time) *backup {
	for _, b := range s.all(now) {
		if b.arn == arn {
			return b
		}
	}
	return nil
}

// removeIdle forgets b unless it feeds a restore still CREATING at now:
// BackupInUseException then, as AWS answers (ack-api-quirks
// DDB-BACKUP-010); BackupNotFoundException if it was gone already (a
// concurrent DeleteBackup won).
func (s *backupSet) removeIdle(b *backup, now time.Time) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	i := slices.Index(s.list, b)
	switch {
	case i < 0:
		return apierr.New(apierr.ErrBackupNotFound, apierr.MsgBackupNotFound(b.arn))
	case now.Before(b.restoring):
		return apierr.New(apierr.ErrBackupInUse, apierr.MsgBackupDeleteRestoring(b.arn))
	}
	s.list = slices.Delete(s.list, i, i+1)
	s.forgetLocked(b)
	return nil
}

// restoreGuard marks b as feeding a restore whose table is CREATING until
// until, unless it feeds one already at now (BackupInUseException, as AWS
// answers: ack-api-quirks DDB-BACKUP-010). undo takes the mark back (the
// restore failed).
func (s *backupSet) restoreGuard(b *backup, now, until time.Time) (undo func(), err error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if now.Before(b.restoring) {
		return nil, apierr.New(apierr.ErrBackupInUse, apierr.MsgBackupRestoring(b.arn))
	}
	prev := b.restoring
	b.restoring = until
	return func() {
		s.mu.Lock()
		b.restoring = prev
		s.mu.Unlock()
	}, nil
}

// all returns the backups at now in creation order, forgetting the
// SYSTEM backups that have expired.
func (s *backupSet) all(now time.Time) []*backup {
	s.mu.Lock()
	var gone []*backup
	s.list = slices.DeleteFunc(s.list, func(b *backup) bool {
		expired := !b.expires.IsZero() && !now.Before(b.expires)
		if expired {
			gone = append(gone, b)
		}
		return expired
	})
	list := slices.Clone(s.list)
	s.mu.Unlock()
	for _, b := range gone {
		_ = s.forgetBackup(b) // a file left behind is read back and expires again
	}
	return list
}

// dropped keeps the SYSTEM backup AWS makes of a table with
// point-in-time recovery when it is deleted: named
// "<table>$DeletedTableBackup" and kept for 35 days (AWS's developer
// guide, "Before you begin using point-in-time recovery"). The table has
// just left the namespace's DB; its lock is held.
func dropped(d service.Dropped) {
	if !d.PointInTimeRecovery() {
		return
	}
	t, now := d.Table(), d.Now()
	tc, err := t.Copy()
	if err != nil {
		return
	}
	id := tc.Info()
	b := &backup{
		arn: backupARN(id.ARN, now), name: id.Name + "$DeletedTableBackup", typ: backupSystem,
		created: now, available: now, expires: now.Add(systemBackupRetention), copy: tc,
	}
	set := sets.In(t.Space())
	if err := set.keepBackup(b); err != nil {
		t.Space().Log().Error("the SYSTEM backup of a deleted table is kept in memory only", "table", id.Name, "err", err)
	}
	set.add(b)
}

func createBackup(c service.Call, in *CreateBackupInput) (*CreateBackupOutput, error) {
	var cs apierr.Constraints
	if apierr.NotNull(&cs, in.TableName, "tableName") {
		tablespec.TableNameConstraints(&cs, *in.TableName)
	}
	if apierr.NotNull(&cs, in.BackupName, "backupName") {
		apierr.NameConstraints(&cs, *in.BackupName, "backupName")
	}
	if err := cs.Err(); err != nil {
		return nil, err
	}
	t, err := c.BackupSourceTable(in.TableName, "tableName")
	if err != nil {
		return nil, err
	}
	// A table CREATING is not found (backupSourceTable); AWS backs up a
	// table UPDATING or DELETING too (ack-api-quirks DDB-BACKUP-001).
	now := c.Now()
	tc, err := t.Copy()
	if err != nil {
		return nil, err
	}
	b := &backup{
		arn: backupARN(t.Info().ARN, now), name: *in.BackupName, typ: backupUser,
		created: now, available: c.TransientUntil(), copy: tc,
	}
	set := sets.Kept(c)
	if err := set.keepBackup(b); err != nil {
		return nil, err
	}
	set.add(b)
	return &CreateBackupOutput{BackupDetails: b.details(now)}, nil
}

// status is b's BackupStatus at now.
func (b *backup) status(now time.Time) string {
	if now.Before(b.available) {
		return backupCreating
	}
	return backupAvailable
}

// details is b's BackupDetails at now.
func (b *backup) details(now time.Time) *BackupDetails {
	return &BackupDetails{
		BackupArn: b.arn, BackupName: b.name, BackupSizeBytes: b.copy.Snapshot().SizeBytes(),
		BackupStatus: b.status(now), BackupType: b.typ, BackupCreationDateTime: service.EpochTime(b.created),
		BackupExpiryDateTime: tablespec.EpochPtr(b.expires),
	}
}

// description is b's BackupDescription at now: its details and its
// table as it was.
func (b *backup) description(now time.Time) *BackupDescription {
	src, f := sourceOf(b.copy)
	return &BackupDescription{BackupDetails: b.details(now), SourceTableDetails: src, SourceTableFeatureDetails: f}
}

// backupARNConstraints checks a BackupArn member.
func backupARNConstraints(cs *apierr.Constraints, arn *string, path string) {
	apierr.ARN(cs, arn, path)
}

// lookupBackup resolves a BackupArn member.
func lookupBackup(c service.Call, arn *string) (*backup, error) {
	var cs apierr.Constraints
	backupARNConstraints(&cs, arn, "backupArn")
	if err := cs.Err(); err != nil {
		return nil, err
	}
	if _, ok := backupARNMillis(*arn); !ok || !strings.HasPrefix(*arn, "arn:") {
		return nil, apierr.Validation(apierr.MsgInvalidBackupARN)
	}
	b := sets.Of(c).find(*arn, c.Now())
	if b == nil {
		return nil, apierr.New(apierr.ErrBackupNotFound, apierr.MsgBackupNotFound(*arn))
	}
	return b, nil
}

func describeBackup(c service.Call, in *DescribeBackupInput) (*DescribeBackupOutput, error) {
	b, err := lookupBackup(c, in.BackupArn)
	if err != nil {
		return nil, err
	}
	return &DescribeBackupOutput{BackupDescription: b.description(c.Now())}, nil
}

func deleteBackup(c service.Call, in *DeleteBackupInput) (*DeleteBackupOutput, error) {
	b, err := lookupBackup(c, in.BackupArn)
	if err != nil {
		return nil, err
	}
	now := c.Now()
	if b.status(now) == backupCreating {
		return nil, apierr.New(apierr.ErrBackupInUse, apierr.MsgBackupInUse(b.arn))
	}
	if b.typ == backupSystem {
		// AWS keeps a SYSTEM backup until it expires (ack-api-quirks DDB-BACKUP-015).
		return nil, apierr.Validation(apierr.MsgDeleteSystemBackup(b.arn, b.expires))
	}
	set := sets.Of(c)
	if err := set.removeIdle(b, now); err != nil {
		return nil, err
	}
	if err := set.forgetBackup(b); err != nil {
		set.add(b) // still on disk: still there
		return nil, err
	}
	d := b.description(now)
	d.BackupDetails.BackupStatus = backupDeleted
	return &DeleteBackupOutput{BackupDescription: d}, nil
}

func listBackups(c service.Call, in *ListBackupsInput) (*ListBackupsOutput, error) {
	var cs apierr.Constraints
	if in.TableName != nil {
		tablespec.TableNameConstraints(&cs, *in.TableName)
	}
	cs.AddViolation(apierr.LimitViolation(in.Limit, "limit", maxListBackupsLimit, true))
	if in.ExclusiveStartBackupArn != nil {
		backupARNConstraints(&cs, in.ExclusiveStartBackupArn, "exclusiveStartBackupArn")
	}
	apierr.Enum(&cs, in.BackupType, "backupType", "USER", "SYSTEM", "AWS_BACKUP", "ALL")
	if err := cs.Err(); err != nil {
		return nil, err
	}
	if lo, hi := in.TimeRangeLowerBound, in.TimeRangeUpperBound; lo != nil && hi != nil && *lo > *hi {
		return nil, apierr.Validation(apierr.MsgListBackupsTimeRange)
	}
	limit := maxListBackupsLimit
	if in.Limit != nil {
		limit = int(*in.Limit)
	}
	tableName := ""
	if in.TableName != nil {
		tableName = *in.TableName
		if strings.HasPrefix(tableName, "arn:") {
			n, ok := c.TableNameFromARN(tableName)
			if !ok {
				return &ListBackupsOutput{BackupSummaries: []BackupSummary{}}, nil
			}
			tableName = n
		}
	}
	typ := backupUser
	if in.BackupType != nil {
		typ = *in.BackupType
	}
	set := sets.Of(c)
	list := set.all(c.Now())
	if start := in.ExclusiveStartBackupArn; start != nil {
		list = set.backupsAfter(list, *start)
	}
	now := c.Now()
	out := &ListBackupsOutput{BackupSummaries: []BackupSummary{}}
	for _, b := range list {
		switch {
		case tableName != "" && b.copy.Info().Name != tableName,
			typ != "ALL" && b.typ != typ,
			in.TimeRangeLowerBound != nil && b.created.Before(tablespec.EpochSeconds(*in.TimeRangeLowerBound)),
			in.TimeRangeUpperBound != nil && !b.created.Before(tablespec.EpochSeconds(*in.TimeRangeUpperBound)):
			continue
		}
		if len(out.BackupSummaries) == limit {
			out.LastEvaluatedBackupArn = out.BackupSummaries[limit-1].BackupArn
			break
		}
		id := b.copy.Info()
		out.BackupSummaries = append(out.BackupSummaries, BackupSummary{
			TableName: id.Name, TableId: id.ID, TableArn: id.ARN,
			BackupArn: b.arn, BackupName: b.name, BackupCreationDateTime: service.EpochTime(b.created),
			BackupStatus: b.status(now), BackupType: b.typ, BackupSizeBytes: b.copy.Snapshot().SizeBytes(),
			BackupExpiryDateTime: tablespec.EpochPtr(b.expires),
		})
	}
	return out, nil
}

// backupsAfter returns the backups of list (in creation order) after the
// position of the backup of ARN start. AWS's ExclusiveStartBackupArn is
// a pure cursor (ack-api-quirks DDB-BACKUP-014): the ARN of a backup
// deleted since, or of none, resumes after where it would be. A deleted
// backup's place is remembered (backupSet.gone); any other ARN's is the
// creation time it carries (epoch milliseconds, backupARN), then the
// ARN itself; an ARN that carries none resumes at the start.
func (s *backupSet) backupsAfter(list []*backup, start string) []*backup {
	if i := slices.IndexFunc(list, func(b *backup) bool { return b.arn == start }); i >= 0 {
		return list[i+1:]
	}
	if seq, ok := s.goneSeq(start); ok {
		i := slices.IndexFunc(list, func(b *backup) bool { return b.seq > seq })
		if i < 0 {
			return nil
		}
		return list[i:]
	}
	ms, ok := backupARNMillis(start)
	if !ok {
		return list
	}
	i := 0
	for i < len(list) {
		bms := list[i].created.UnixMilli()
		if bms > ms || bms == ms && list[i].arn > start {
			break
		}
		i++
	}
	return list[i:]
}

// backupARNMillis returns the creation time in epoch milliseconds a
// backup ARN carries (<table ARN>/backup/<ms>-<hex>).
func backupARNMillis(arn string) (int64, bool) {
	i := strings.LastIndex(arn, "/backup/")
	if i < 0 {
		return 0, false
	}
	id := arn[i+len("/backup/"):]
	j := strings.IndexByte(id, '-')
	if j <= 0 {
		return 0, false
	}
	ms, err := strconv.ParseInt(id[:j], 10, 64)
	return ms, err == nil
}

// sourceOf describes the table tc as it was, as a backup's description
// does: its key schema, size and capacity, and its indexes, stream, TTL
// and encryption.
func sourceOf(tc service.TableCopy) (*tablespec.SourceTableDetails, *tablespec.SourceTableFeatureDetails) {
	d, snap, id := tc.Definition(), tc.Snapshot(), tc.Info()
	st := d.Settings()
	keys := make([]tablespec.KeySchemaElementDesc, 0, 2)
	for i, name := range id.KeyNames() { // the partition key first (CreateTable's rule)
		keys = append(keys, tablespec.KeySchemaElementDesc{AttributeName: name, KeyType: [2]string{"HASH", "RANGE"}[i]})
	}
	src := &tablespec.SourceTableDetails{
		TableName: id.Name, TableId: id.ID, TableArn: id.ARN, TableSizeBytes: snap.SizeBytes(),
		KeySchema: keys, TableCreationDateTime: service.EpochTime(id.Created),
		ProvisionedThroughput: &tablespec.SourceThroughput{ReadCapacityUnits: st.Capacity.Read, WriteCapacityUnits: st.Capacity.Write},
		OnDemandThroughput:    st.OnDemand,
		ItemCount:             int64(snap.ItemCount()),
		BillingMode:           cmp.Or(st.Billing.Mode, "PROVISIONED"),
	}
	f := d.Indexes().SourceFeatures()
	f.SSEDescription = st.SSE
	if view := d.StreamView(); view != "" {
		on := true
		f.StreamDescription = &tablespec.StreamSpecification{StreamEnabled: &on, StreamViewType: &view}
	}
	if ttl := st.TTL; ttl.Enabled {
		f.TimeToLiveDescription = &tablespec.TimeToLiveDescription{TimeToLiveStatus: "ENABLED", AttributeName: ttl.Attr}
	}
	return src, f
}
