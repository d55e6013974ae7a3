package globaltables

import (
	"slices"
	"time"

	"github.com/dynamoemu/dynamoemu/emulator/internal/apierr"
	"github.com/dynamoemu/dynamoemu/emulator/internal/service"
)

// A table's status while one of its replicas is being created or deleted,
// and what UpdateTable refuses then, as AWS answers (ack-api-quirks lab
// notes, verified against AWS 2026-10-09): DDB-TABLE-227 (3-7 s after a
// ReplicaUpdates Create the table is UPDATING, and UpdateTable with
// DeletionProtectionEnabled or TableClass is ResourceInUseException "The
// resource which you are attempting to change is in use.") and
// DDB-TABLE-228 (the same after a ReplicaUpdates Delete, the table
// UPDATING). Tags, TTL, PITR, policies, Contributor Insights and backups
// stay admitted (227). With no transient delay (the default) a replica
// settles at once and none of this shows.

// replicaChanging reports whether one of x's replicas is being created
// or deleted at now.
func (x part) replicaChanging(now time.Time) bool {
	for _, r := range slices.Concat(x.Replicas, x.Witnesses) {
		switch r.statusAt(now) {
		case "CREATING", "DELETING":
			return true
		}
	}
	return false
}

// describedStatusAt is the TableStatus DescribeTable shows at now for
// a table of definition d, whose part is x: its status, but UPDATING
// for an ACTIVE table one of whose replicas is being created or deleted
// (DDB-TABLE-227, -228; Feature.Describe shows it so). Checks that want
// the table ACTIVE keep using its status: AWS refuses what it refuses
// then by name (checkReplicaInFlightLocked), not as a table not ACTIVE.
func describedStatusAt(d service.Definition, x part, now time.Time) string {
	s := d.StatusAt(now)
	if s == statusActive && x.replicaChanging(now) {
		return statusUpdating
	}
	return s
}

// checkReplicaInFlightLocked refuses an UpdateTable changing the table
// class or deletion protection while a replica of the table is being
// created or deleted (DDB-TABLE-227, -228). The table's lock is held
// (Feature.CheckUpdateLocked), so a replica added meanwhile is seen in
// d.
func checkReplicaInFlightLocked(in *service.UpdateTableInput, d service.Definition, now time.Time) error {
	if in.TableClass == nil && in.DeletionProtectionEnabled == nil {
		return nil
	}
	if x, _ := partOf(d); x.replicaChanging(now) {
		return apierr.ResourceInUse(apierr.MsgReplicaInFlight)
	}
	return nil
}
