package globaltables

import (
	"slices"
	"strconv"
	"time"

	"github.com/dynamoemu/dynamoemu/emulator/internal/apierr"
	"github.com/dynamoemu/dynamoemu/emulator/internal/service"
)

// Disassociating the local replica of a global table: UpdateTable's
// ReplicaUpdates Disassociate (API reference:
// DisassociateReplicationGroupMemberAction, UpdateTable; developer guide
// "Disassociating a global table replica", October 2026). The replica
// stops replicating and stays a table of its region with its items and
// settings; of a global table of two replicas both become tables of one
// region, of more the others go on without it. Only a replica of an
// eventually consistent 2019.11.21 global table, in the request's own
// region, with its disassociation protection off (protection.go), may
// go. WAIT_FOR_REPLICATION, the one mode: the writes on their way are
// applied first. No record gives AWS's words for the refusals; the
// messages are the emulator's (apierr.MsgDisassociate*).

// disassociationMode is DisassociationMode's one value.
const disassociationMode = "WAIT_FOR_REPLICATION"

// DisassociateAction is DisassociateReplicationGroupMemberAction.
type DisassociateAction struct {
	RegionName         *string `json:"RegionName"`
	DisassociationMode *string `json:"DisassociationMode"`
}

// disassociateConstraints reports the model constraint violations of
// the Disassociate actions of us.
func disassociateConstraints(us []ReplicationGroupUpdate) error {
	var cs apierr.Constraints
	for i, u := range us {
		if a := u.Disassociate; a != nil {
			p := "replicaUpdates." + strconv.Itoa(i+1) + ".member.disassociate."
			apierr.NotNull(&cs, a.RegionName, p+"regionName")
			if apierr.NotNull(&cs, a.DisassociationMode, p+"disassociationMode") {
				apierr.Enum(&cs, a.DisassociationMode, p+"disassociationMode", disassociationMode)
			}
		}
	}
	return cs.Err()
}

// disassociate takes t, the replica in the request's region, out of its
// global table (x its part). globalMu is held.
func (r *replicator) disassociate(c service.Call, t service.Table, x part, a *DisassociateAction) error {
	now := c.Now()
	others := liveRegions(x.Replicas, now)
	switch {
	case *a.RegionName != c.Region():
		return apierr.Validation(apierr.MsgDisassociateLocal)
	case x.GlobalVersion != globalVersion2019 || len(others) == 0 || x.Consistency == consistencyStrong:
		return apierr.Validation(apierr.MsgDisassociateNotReplica)
	case !x.NoDisassociationProtection:
		return apierr.Validation(apierr.MsgDisassociateProtected)
	}
	r.drainMu.Lock() // WAIT_FOR_REPLICATION: what is on its way arrives first
	r.drainLocked(time.Time{}, true)
	r.drainMu.Unlock()
	ms := members(c, t, x)
	leaving := []member{ms[0]}
	if len(ms) == 2 {
		leaving = ms // the last two: both are tables of one region again
	}
	rest := regionsOf(ms)
	for _, m := range leaving {
		rest = without(rest, m.region)
	}
	for _, m := range ms {
		if slices.ContainsFunc(leaving, func(l member) bool { return l.region == m.region }) {
			r.forget(m.t.Info().ID)
			if err := changePart(m.t, func(y *part) { *y = part{AutoScaling: y.AutoScaling} }); err != nil {
				return err
			}
			continue
		}
		r.route(c, m, rest, false)
		if err := changePart(m.t, func(y *part) {
			y.Replicas = slices.DeleteFunc(slices.Clone(y.Replicas), func(rec replicaRec) bool { return rec.Region == c.Region() })
		}); err != nil {
			return err
		}
	}
	return nil
}
