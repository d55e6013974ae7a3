package globaltables

import (
	"slices"
	"time"

	"github.com/dynamoemu/dynamoemu/emulator/internal/apierr"
	"github.com/dynamoemu/dynamoemu/emulator/internal/service"
)

// Multi-Region strong consistency (MRSC) and global table witnesses, as
// AWS answers them (ack-api-quirks lab notes for DynamoDB,
// aws-controllers-k8s dynamodb-controller
// docs/api-quirks/table-global-tables.md, verified against AWS
// 2026-10-09; the API reference's UpdateTable, GlobalTableWitnessGroupUpdate
// and CreateGlobalTableWitnessGroupMemberAction):
//
//   - An MRSC table is made in one UpdateTable of a table with no
//     replicas: MultiRegionConsistency STRONG with ReplicaUpdates of
//     two Creates, or of one Create and a GlobalTableWitnessUpdates
//     Create: three regions (DDB-TABLE-257, -258). Any other count is
//     MsgMRSCReplicaCount, a region outside AWS's MRSC region sets
//     MsgMRSCRegions, a witness in a created replica's region
//     MsgMRSCSameAction and in the table's own MsgMRSCWitnessLocal; a
//     witness without STRONG is MsgMRSCWitnessNeedsStrong; STRONG on
//     a global table already MsgMRSCExisting (DDB-TABLE-202).
//   - GlobalTableWitnessUpdates or MultiRegionConsistency alone is no
//     change ("At least one of ..."), and neither comes with any member
//     but the other and ReplicaUpdates (MsgMRSCOthers).
//   - An MRSC table is frozen (DDB-TABLE-260): no replica is added
//     (MsgMRSCNoAdd), its members go together in one UpdateTable that
//     deletes every other replica and the witness (DDB-TABLE-261: the
//     table is then a table of one region again), DeleteTable of a
//     member is MsgMRSCDeleteOne, and so is a Delete of some replicas
//     only; one without the witness is MsgMRSCDeleteWitnesses.
//   - DescribeTable shows MultiRegionConsistency STRONG and
//     GlobalTableWitnesses (RegionName, WitnessStatus) in every member
//     (DDB-TABLE-259); an eventually consistent global table shows no
//     MultiRegionConsistency (DDB-TABLE-201). The witness region holds
//     no table.
//
// The record refutes the API reference's "within the same Region set":
// a eu-west-1 replica with a us-east-2 witness was accepted
// (DDB-TABLE-257); the emulator takes any region of the three sets.
// Nothing is strongly consistent across regions here beyond what the
// replication does (the data plane is the same as an MREC table's).

// consistencyStrong is MultiRegionConsistency STRONG.
const consistencyStrong = "STRONG"

// mrscRegions are the regions that can hold a member or the witness of
// an MRSC table: the API reference's three region sets (US, EU, AP).
var mrscRegions = []string{
	"us-east-1", "us-east-2", "us-west-2",
	"eu-west-1", "eu-west-2", "eu-west-3", "eu-central-1",
	"ap-northeast-1", "ap-northeast-2", "ap-northeast-3",
}

// WitnessGroupUpdate is one of UpdateTable's GlobalTableWitnessUpdates.
type WitnessGroupUpdate struct {
	Create *WitnessAction `json:"Create"`
	Delete *WitnessAction `json:"Delete"`
}

// WitnessAction is CreateGlobalTableWitnessGroupMemberAction or
// DeleteGlobalTableWitnessGroupMemberAction.
type WitnessAction struct {
	RegionName *string `json:"RegionName"`
}

// WitnessDescription is one of DescribeTable's GlobalTableWitnesses.
type WitnessDescription struct {
	RegionName    string `json:"RegionName"`
	WitnessStatus string `json:"WitnessStatus"`
}

// groupUpdate is what one UpdateTable asks of a table's global table:
// its ReplicaUpdates, GlobalTableWitnessUpdates and
// MultiRegionConsistency, judged together.
type groupUpdate struct {
	replicas  []ReplicationGroupUpdate
	witnesses []WitnessGroupUpdate
	mode      *string
}

// groupOf reads the members of request in that make a groupUpdate.
func groupOf(in *service.UpdateTableInput) groupUpdate {
	g := groupUpdate{mode: in.MultiRegionConsistency}
	if v, ok := in.Owned.Member(memberReplicas).(*[]ReplicationGroupUpdate); ok {
		g.replicas = *v
	}
	if v, ok := in.Owned.Member(memberWitnesses).(*[]WitnessGroupUpdate); ok {
		g.witnesses = *v
	}
	return g
}

// The members of UpdateTable's request the feature owns.
const (
	memberReplicas  = "ReplicaUpdates"
	memberWitnesses = "GlobalTableWitnessUpdates"
)

// regions returns the regions of the group's replica actions of one
// kind (Create or Delete), in the request's order.
func (g groupUpdate) regions(create bool) []string {
	var out []string
	for _, u := range g.replicas {
		a := u.Delete
		if create {
			a = u.Create
		}
		if a != nil {
			out = append(out, str(a.RegionName))
		}
	}
	return out
}

// witnessRegions returns the regions of the group's witness actions of
// one kind.
func (g groupUpdate) witnessRegions(create bool) []string {
	var out []string
	for _, w := range g.witnesses {
		a := w.Delete
		if create {
			a = w.Create
		}
		if a != nil {
			out = append(out, str(a.RegionName))
		}
	}
	return out
}

// checkWitnessShape refuses a witness update list AWS's model refuses:
// more than one (the model's length constraint) or one with not exactly
// one action.
func (g groupUpdate) checkWitnessShape() error {
	if len(g.witnesses) > 1 {
		rs := make([]apierr.WitnessUpdateRegions, len(g.witnesses))
		for i, w := range g.witnesses {
			if w.Create != nil {
				rs[i].Create = w.Create.RegionName
			}
			if w.Delete != nil {
				rs[i].Delete = w.Delete.RegionName
			}
		}
		return apierr.ConstraintErrors(apierr.Violation("'"+apierr.WitnessUpdatesValue(rs)+"'", "globalTableWitnessUpdates", apierr.LenLE(1)))
	}
	for _, w := range g.witnesses {
		if (w.Create == nil) == (w.Delete == nil) {
			return apierr.Validation(apierr.MsgWitnessNoAction)
		}
		a := w.Create
		if a == nil {
			a = w.Delete
		}
		if a.RegionName == nil || !validRegion(*a.RegionName) {
			return apierr.Validation(apierr.MsgReplicaRegionInvalid(str(a.RegionName)))
		}
	}
	return nil
}

// checkStrongShape applies the rules of a request with
// MultiRegionConsistency STRONG that need no table: only Creates, three
// regions in all, each of AWS's MRSC regions, the witness apart from the
// replicas. own is the table's region.
func (g groupUpdate) checkStrongShape(own string) error {
	if len(g.regions(false)) > 0 || slices.ContainsFunc(g.replicas, func(u ReplicationGroupUpdate) bool { return u.Update != nil || u.Disassociate != nil }) ||
		len(g.witnessRegions(false)) > 0 {
		return apierr.Validation(apierr.MsgMRSCCreateOnly)
	}
	creates, witnesses := g.regions(true), g.witnessRegions(true)
	if len(creates)+len(witnesses) != 2 || len(creates) == 0 {
		return apierr.Validation(apierr.MsgMRSCReplicaCount)
	}
	var bad []string
	for _, r := range append(append([]string{own}, creates...), witnesses...) {
		if !slices.Contains(mrscRegions, r) && !slices.Contains(bad, r) {
			bad = append(bad, r)
		}
	}
	if len(bad) > 0 {
		return apierr.Validation(apierr.MsgMRSCRegions(bad))
	}
	for _, w := range witnesses {
		switch {
		case w == own:
			return apierr.Validation(apierr.MsgMRSCWitnessLocal)
		case slices.Contains(creates, w):
			return apierr.Validation(apierr.MsgMRSCSameAction)
		}
	}
	if len(creates) == 2 && creates[0] == creates[1] {
		return apierr.Validation(apierr.MsgMRSCSameAction)
	}
	return nil
}

// witnessRec is the witness of an MRSC table as its members record it:
// its WitnessStatus is Status until Until, then Next.
type witnessRec = replicaRec

// describeWitnesses returns DescribeTable's GlobalTableWitnesses of a
// table whose part is x.
func describeWitnesses(x part, now time.Time) []WitnessDescription {
	var out []WitnessDescription
	for _, w := range x.Witnesses {
		if st := w.statusAt(now); st != replicaGone {
			out = append(out, WitnessDescription{RegionName: w.Region, WitnessStatus: st})
		}
	}
	return out
}

// makeStrong makes t, a table with no replicas, an MRSC table: the
// replicas and the witness g creates (checkStrongShape passed), then
// every member records the mode and the witness. globalMu is held.
func (r *replicator) makeStrong(c service.Call, t service.Table, g groupUpdate) error {
	for _, u := range g.replicas {
		if err := r.createReplica(c, t, u.Create); err != nil {
			return err
		}
	}
	var ws []witnessRec
	for _, w := range g.witnessRegions(true) {
		ws = append(ws, witnessRec{Region: w, Status: "CREATING", Until: c.TransientUntil(), Next: "ACTIVE"})
	}
	x, _ := partOf(t.Definition())
	for _, mb := range members(c, t, x) {
		if err := changePart(mb.t, func(y *part) {
			y.Consistency, y.Witnesses = consistencyStrong, ws
		}); err != nil {
			return err
		}
	}
	return nil
}

// dissolveStrong removes every other member and the witness of t's MRSC
// table (x its part): each member forgets the mode and the witness,
// then the replicas are deleted as any replica is, so t is a table of
// one region again. globalMu is held.
func (r *replicator) dissolveStrong(c service.Call, t service.Table, x part, deletes []string) error {
	ms := members(c, t, x)
	for _, mb := range ms {
		if err := changePart(mb.t, func(y *part) { y.Consistency, y.Witnesses = "", nil }); err != nil {
			return err
		}
	}
	for _, region := range deletes {
		if err := r.deleteReplica(c, t, region); err != nil {
			return err
		}
	}
	return nil
}

// updateStrongTable answers ReplicaUpdates and GlobalTableWitnessUpdates
// g of t, an MRSC table whose part is x: only the deletion of every
// other replica and the witness together.
func (r *replicator) updateStrongTable(c service.Call, t service.Table, x part, g groupUpdate) error {
	if len(g.regions(true)) > 0 {
		return apierr.Validation(apierr.MsgMRSCNoAdd)
	}
	deletes, wdeletes := g.regions(false), g.witnessRegions(false)
	if len(deletes) == 0 {
		return r.updateEach(c, t, g.replicas)
	}
	var notPart []string
	for _, w := range wdeletes {
		if !slices.ContainsFunc(describeWitnesses(x, c.Now()), func(d WitnessDescription) bool { return d.RegionName == w }) {
			notPart = append(notPart, w)
		}
	}
	if len(notPart) > 0 {
		return apierr.Validation(apierr.MsgWitnessNotPart(notPart))
	}
	if len(describeWitnesses(x, c.Now())) > len(wdeletes) {
		return apierr.Validation(apierr.MsgMRSCDeleteWitnesses)
	}
	for _, d := range deletes {
		if !slices.Contains(x.replicaRegions(c.Region(), c.Now()), d) || d == c.Region() {
			return apierr.Validation(apierr.MsgReplicaNotPart(d))
		}
	}
	if len(x.replicaRegions(c.Region(), c.Now()))-1 != len(deletes) {
		return apierr.Validation(apierr.MsgMRSCDeleteOne)
	}
	return r.dissolveStrong(c, t, x, deletes)
}

// checkStrongDrop refuses DeleteTable of a member of an MRSC table
// (DDB-TABLE-260): its members go together (updateStrongTable).
func checkStrongDrop(c service.Call, t service.Table) error {
	if x, ok := partOf(t.Definition()); ok && x.Consistency == consistencyStrong && len(x.replicaRegions(c.Region(), c.Now())) > 1 {
		return apierr.Validation(apierr.MsgMRSCDeleteOne)
	}
	return nil
}
