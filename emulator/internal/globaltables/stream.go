package globaltables

import (
	"github.com/dynamoemu/dynamoemu/emulator/internal/apierr"
	"github.com/dynamoemu/dynamoemu/emulator/internal/service"
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
// attributes (legacy_attrs.go). A table becoming a global table without
// a stream gets its NEW_AND_OLD_IMAGES stream through
// service.Table.Change and Edit.SetStream (createReplica).

// checkReplicaStream refuses an UpdateTable that disables the stream of
// t while t has replicas (Feature.CheckUpdate).
func checkReplicaStream(c service.Call, t service.Table, in *service.UpdateTableInput) error {
	s := in.StreamSpecification
	if s == nil || s.StreamEnabled == nil || *s.StreamEnabled {
		return nil
	}
	if x, _ := partOf(t.Definition()); len(liveRegions(x.Replicas, c.Now())) > 0 {
		return apierr.Validation(apierr.MsgReplicaStreamDisable)
	}
	return nil
}
