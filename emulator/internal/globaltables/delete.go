package globaltables

import (
	"time"

	"github.com/dynamoemu/dynamoemu/emulator/internal/apierr"
	"github.com/dynamoemu/dynamoemu/emulator/internal/service"
)

// Deleting a member of a 2019.11.21 global table. UpdateTable's
// ReplicaUpdates Delete (replicas.go) and DeleteTable in the
// member's region both delete the member's table; the other members show
// it DELETING for the transient delay, then no more, and stop sending it
// writes (DeleteTable's drop reaches them through the replication tap:
// sync.go). When the last other member is gone, the table
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
// region it was created from (part.Source) and, for every other
// member, where that one came from (replicaRec.Source).

// sourceWindow is how long a region that a replica was created from
// must stay.
const sourceWindow = 24 * time.Hour

// sourcedRecently reports whether region y, as m (the part of the
// member in region own) knows the global table, is where a still
// existing member was created from less than sourceWindow before now.
func (m part) sourcedRecently(y, own string, now time.Time) bool {
	if own != y && m.Source == y && now.Before(m.SourceAt.Add(sourceWindow)) {
		return true // this member came from y
	}
	for _, r := range m.Replicas {
		if r.Region != y && r.Source == y && now.Before(r.Created.Add(sourceWindow)) && r.statusAt(now) != replicaGone {
			return true
		}
	}
	return false
}

// checkReplicaDelete refuses DeleteTable of t, a member of a global
// table that another member was created from in the last 24 hours
// (Feature.CheckDrop).
func checkReplicaDelete(c service.Call, t service.Table) error {
	if x, ok := partOf(t.Definition()); ok && x.sourcedRecently(c.Region(), c.Region(), c.Now()) {
		return apierr.Validation(apierr.MsgReplicaSourceRecent)
	}
	return nil
}

// checkReplicasSettled refuses a change of t's replicas while one of
// them is being created, deleted or updated: AWS answers a second
// replica action with ResourceInUseException until the first has
// settled (lab notes DDB-TABLE-224, -227, -228; a table class or
// deletion protection change then is refused too: status.go). With no
// transient delay (the default) a replica settles at once.
func checkReplicasSettled(c service.Call, t service.Table) error {
	x, _ := partOf(t.Definition())
	for _, r := range x.Replicas {
		switch r.statusAt(c.Now()) {
		case "CREATING", "DELETING", "UPDATING":
			return apierr.ResourceInUse(apierr.MsgReplicaInFlight)
		}
	}
	return nil
}
