package service

import (
	"time"

	"github.com/dynamoemu/dynamoemu/emulator/internal/apierr"
)

// Deleting a member of a 2019.11.21 global table. UpdateTable's
// ReplicaUpdates Delete (global_tables.go) and DeleteTable in the
// member's region both delete the member's table; the other members show
// it DELETING for the transient delay, then no more, and stop sending it
// writes (DeleteTable's drop reaches them through the replication tap:
// global_tables_sync.go). When the last other member is gone, the table
// is a table of one region again: DescribeTable shows no Replicas and no
// GlobalTableVersion (as AWS does: ack-api-quirks lab notes
// DDB-TABLE-228).
//
// AWS refuses to remove a region that another replica was created from
// less than 24 hours ago while that replica exists (DELETING included),
// with MsgReplicaSourceRecent: a ReplicaUpdates Delete of it from any
// member, and DeleteTable in it (the developer guide's global tables
// notes; lab notes DDB-TABLE-266, -267, -298). Deleting the replicas it
// sourced first (leaf first) lifts the refusal. Each member records the
// region it was created from (tableExt.Source) and, for every other
// member, where that one came from (replicaRec.Source).

// sourceWindow is how long a region that a replica was created from
// must stay.
const sourceWindow = 24 * time.Hour

// sourcedRecently reports whether region x, as m (the definition of the
// member in region own) knows the global table, is where a still
// existing member was created from less than sourceWindow before now.
func (m *tableMeta) sourcedRecently(x, own string, now time.Time) bool {
	if m.ext == nil {
		return false
	}
	if own != x && m.ext.Source == x && now.Before(m.ext.SourceAt.Add(sourceWindow)) {
		return true // this member came from x
	}
	for _, r := range m.ext.Replicas {
		if r.Region != x && r.Source == x && now.Before(r.Created.Add(sourceWindow)) && r.statusAt(now) != replicaGone {
			return true
		}
	}
	return false
}

// checkReplicaDelete refuses DeleteTable of t, a member of a global
// table that another member was created from in the last 24 hours
// (deleteTable calls it).
func (c *call) checkReplicaDelete(t *table) error {
	if t.snapshot().sourcedRecently(c.region, c.region, c.now) {
		return apierr.Validation(apierr.MsgReplicaSourceRecent)
	}
	return nil
}

// checkReplicasSettled refuses a change of t's replicas while one of
// them is being created, deleted or updated: AWS answers a second
// replica action with ResourceInUseException until the first has
// settled (lab notes DDB-TABLE-224, -227, -228; a table class or
// deletion protection change then is refused too:
// global_tables_status.go). With no transient delay (the default) a
// replica settles at once.
func (c *call) checkReplicasSettled(t *table) error {
	m := t.snapshot()
	if m.ext == nil {
		return nil
	}
	for _, r := range m.ext.Replicas {
		switch r.statusAt(c.now) {
		case "CREATING", "DELETING", "UPDATING":
			return apierr.ResourceInUse(apierr.MsgReplicaInFlight)
		}
	}
	return nil
}
