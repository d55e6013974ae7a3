package restore

import (
	"time"

	"github.com/dynamoemu/dynamoemu/emulator/internal/apierr"
	"github.com/dynamoemu/dynamoemu/emulator/internal/service"
	"github.com/dynamoemu/dynamoemu/emulator/internal/tablespec"
	"github.com/dynamoemu/dynamoemu/internal/storage"
)

// Source is what a restore is made of: the definition of the table
// restored (a backup's copy of it, or the source table's now), where it
// came from (the backup's ARN, or else the source table's) and when, and
// the snapshot of its items (for the derivation it is handed).
type Source struct {
	Definition service.Definition
	BackupARN  string
	TableARN   string
	At         time.Time
	Snapshot   func(storage.Derivation) (*storage.TableSnapshot, error)
}

// Table makes table name in the request's namespace of src, changed by
// ov, and answers its description.
func Table(c service.Call, name string, src Source, ov *tablespec.RestoreOverrides) (*service.TableDescription, error) {
	if err := admissible(c, name, c.Now()); err != nil {
		return nil, err
	}
	t, err := c.MakeTable(name, src.Definition, func(e *service.Edit) error {
		return restored(c, e, src, ov)
	}, src.Snapshot)
	if err != nil {
		return nil, err
	}
	return t.Describe(), nil
}

// statusCreating is a TableStatus of a table being made.
const statusCreating = "CREATING"

// maxConcurrent is how many restores a namespace runs at once (AWS's API
// reference, API_RestoreTableFromBackup: "up to 50 concurrent restores
// (any type of restore) in a given account"). A restore runs while its
// table is CREATING: with no transient delay, never.
const maxConcurrent = 50

// admissible checks that a restore into table name may start at now: the
// name is free (TableAlreadyExistsException; a table whose own restore
// is CREATING is TableInUseException, as AWS answers: ack-api-quirks
// DDB-TABLE-219) and fewer than maxConcurrent restores are CREATING in
// the namespace (LimitExceededException). Two restores racing past the
// count may make it one more.
func admissible(c service.Call, name string, now time.Time) error {
	if t, ok := c.Table(name); ok {
		d := t.Definition()
		if r := d.Settings().Restored; r != nil && d.StatusAt(now) == statusCreating {
			return apierr.New(apierr.ErrTableInUse, apierr.MsgTableBeingRestored(name, r.From()))
		}
		return apierr.New(apierr.ErrTableAlreadyExists, apierr.MsgTableAlreadyExists(name))
	}
	if !c.TransientUntil().After(now) {
		return nil
	}
	n := 0
	sp := c.Space()
	for _, name := range sp.TableNames() {
		if t, ok := sp.Table(name); ok {
			if d := t.Definition(); isRestored(d) && d.StatusAt(now) == statusCreating {
				n++
			}
		}
	}
	if n >= maxConcurrent {
		return apierr.LimitExceeded(apierr.MsgRestoreLimit)
	}
	return nil
}

// isRestored reports whether d is a restored table's definition.
func isRestored(d service.Definition) bool {
	return d.Settings().Restored != nil
}

// restored edits e, the definition of a table restored from src, by the
// overrides ov.
func restored(c service.Call, e *service.Edit, src Source, ov *tablespec.RestoreOverrides) error {
	now := c.Now()
	s, sb := e.Settings(), src.Definition.Settings().Billing
	b := sb
	if o := ov.BillingModeOverride; o != nil {
		b.Mode, b.Reported = *o, true
	}
	if p := ov.ProvisionedThroughputOverride; p != nil {
		s.Capacity = tablespec.Throughput{Read: *p.ReadCapacityUnits, Write: *p.WriteCapacityUnits}
	}
	if o := ov.OnDemandThroughputOverride; o != nil {
		s.OnDemand = o
	}
	if sse := ov.SSESpecificationOverride; sse != nil {
		s.SSE = tablespec.DescribeSSE(sse, c.Region(), c.Account())
	}
	b.PayPerRequestSince = time.Time{}
	switch {
	case b.Mode == "PAY_PER_REQUEST":
		s.Capacity = tablespec.Throughput{}
		b.PayPerRequestSince = now
		if sb.Mode == "PAY_PER_REQUEST" && !sb.PayPerRequestSince.IsZero() {
			b.PayPerRequestSince = sb.PayPerRequestSince
		}
	case s.Capacity.Read == 0 || s.Capacity.Write == 0:
		return apierr.Validation(apierr.MsgUpdateProvisionedNeedsThroughput)
	}
	s.Billing = b
	s.Restored = &tablespec.Restored{BackupArn: src.BackupARN, TableArn: src.TableARN, At: src.At}
	ks := src.Definition.Table().Schema()
	ix, err := ov.RestoredIndexes(src.Definition.Indexes(), e.Table().Info().ARN, b.Mode, func(a string) bool {
		return a == ks.Partition.Name || a == ks.Sort.Name
	})
	if err != nil {
		return err
	}
	e.SetIndexes(ix)
	return nil
}
