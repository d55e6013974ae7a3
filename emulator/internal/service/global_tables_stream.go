package service

import (
	"errors"

	"github.com/dynamoemu/dynamoemu/emulator/internal/apierr"
	"github.com/dynamoemu/dynamoemu/internal/storage"
)

// A global table's stream. AWS asks for no stream before a replica is
// added: it enables a NEW_AND_OLD_IMAGES stream on a table without one,
// and keeps a stream of another view type as it is; the stream stays
// after the last replica leaves. While the table has replicas its stream
// cannot be disabled (MsgReplicaStreamDisable). Source: public records
// of AWS's answers, ack-api-quirks lab notes DDB-TABLE-305, -221, -222,
// -227. The replicas' streams carry the replicated writes as ordinary
// records: one record per write, no user identity and no replication
// attributes in version 2019.11.21 (the developer guide, "Upgrading
// global tables": "DynamoDB Streams publishes only one record (instead
// of two) for each write" and "replication activity is managed natively
// and is not exposed to users"); version 2017.11.29 adds the aws:rep:*
// attributes (global_tables_legacy_attrs.go).

// enableReplicaStream turns on a NEW_AND_OLD_IMAGES stream on t, which
// is becoming a global table.
func (c *call) enableReplicaStream(t *table) error {
	err := t.changeMeta(func(m *tableMeta) (func(bool) error, error) {
		old := *m
		on, view := true, "NEW_AND_OLD_IMAGES"
		m.stream = &StreamSpecification{StreamEnabled: &on, StreamViewType: &view}
		s := t.prepareStreamLocked(c, &old, m)
		return func(recorded bool) error {
			if !recorded {
				c.forgetStream(s)
				return nil
			}
			t.syncStreamLocked(&old, m, s, c.Now())
			return nil
		}, nil
	})
	if errors.Is(err, storage.ErrNotDurable) {
		return nil
	}
	return err
}

// checkReplicaStream refuses an UpdateTable that disables the stream of
// t while t has replicas (updateTable calls it).
func (c *call) checkReplicaStream(t *table, in *UpdateTableInput) error {
	s := in.StreamSpecification
	if s == nil || s.StreamEnabled == nil || *s.StreamEnabled {
		return nil
	}
	if m := t.snapshot(); m.ext != nil && len(liveRegions(m.ext.Replicas, c.now)) > 0 {
		return apierr.Validation(apierr.MsgReplicaStreamDisable)
	}
	return nil
}
