package service

import (
	"time"

	"github.com/dynamoemu/dynamoemu/emulator/internal/apierr"
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

// statusUpdating is TableStatus UPDATING.
const statusUpdating = "UPDATING"

// replicaChanging reports whether one of m's replicas is being created or
// deleted at now.
func (m *tableMeta) replicaChanging(now time.Time) bool {
	if m.ext == nil {
		return false
	}
	for _, r := range m.ext.Replicas {
		switch r.statusAt(now) {
		case "CREATING", "DELETING":
			return true
		}
	}
	return false
}

// describedStatusAt is the TableStatus DescribeTable shows at now:
// statusAt, but UPDATING for an ACTIVE table one of whose replicas is
// being created or deleted (DDB-TABLE-227, -228). Checks that want the
// table ACTIVE keep using statusAt: AWS refuses what it refuses then by
// name (checkReplicaInFlightLocked), not as a table not ACTIVE.
func (m *tableMeta) describedStatusAt(now time.Time) string {
	s := m.statusAt(now)
	if s == statusActive && m.replicaChanging(now) {
		return statusUpdating
	}
	return s
}

// checkReplicaInFlightLocked refuses an UpdateTable changing the table
// class or deletion protection while a replica of the table is being
// created or deleted (DDB-TABLE-227, -228). table.mu is held (it runs in
// changeMeta), so a replica added meanwhile is seen.
func checkReplicaInFlightLocked(in *UpdateTableInput, m *tableMeta, now time.Time) error {
	if in.TableClass == nil && in.DeletionProtectionEnabled == nil {
		return nil
	}
	if m.replicaChanging(now) {
		return apierr.ResourceInUse(apierr.MsgReplicaInFlight)
	}
	return nil
}
