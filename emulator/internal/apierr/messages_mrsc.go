package apierr

// Messages of multi-Region strong consistency (UpdateTable's
// MultiRegionConsistency STRONG with ReplicaUpdates and
// GlobalTableWitnessUpdates, DeleteTable of a member) as AWS words them.
// Source: the ack-api-quirks lab notes for DynamoDB (aws-controllers-k8s
// dynamodb-controller docs/api-quirks/table-global-tables.md, verified
// against AWS 2026-10-09): DDB-TABLE-257 (the shape of the request that
// makes an MRSC table), DDB-TABLE-202 (STRONG on an existing global
// table) and DDB-TABLE-260 (what an MRSC table refuses). Where a message
// is the emulator's it says so.

const (
	// MsgMRSCReplicaCount: STRONG with other than three regions (the
	// table, and two replica Creates or one Create and a witness).
	MsgMRSCReplicaCount = "Unsupported replica count for global tables with MultiRegionConsistency set to STRONG."
	// MsgMRSCWitnessNeedsStrong: a witness Create without STRONG.
	MsgMRSCWitnessNeedsStrong = "MultiRegionConsistency must be set as STRONG when GlobalTableWitnessUpdates parameter is present."
	// MsgMRSCSameAction: a witness in the region of a replica the same
	// request creates.
	MsgMRSCSameAction = "Cannot target multiple regions with the same action"
	// MsgMRSCWitnessLocal: a witness in the table's own region.
	MsgMRSCWitnessLocal = "Cannot add a witness in the same region as an existing replica when creating a global table with MultiRegionConsistency set to STRONG."
	// MsgMRSCOthers: a replica or witness change with another change.
	MsgMRSCOthers = "Requests that modify replicas or witnesses must not also modify other fields"
	// MsgMRSCExisting: MultiRegionConsistency given for a table that is
	// a global table already.
	MsgMRSCExisting = "MultiRegionConsistency parameter is unsupported on existing global table"
	// MsgMRSCCreateOnly: STRONG with a replica Delete or Update.
	MsgMRSCCreateOnly = "Only Replica Create actions are supported when MultiRegionConsistency parameter is provided."
	// MsgMRSCNoAdd: a replica Create on an MRSC table.
	MsgMRSCNoAdd = "Cannot add replicas to a global table with strong MultiRegionConsistency"
	// MsgMRSCDeleteWitnesses: deleting an MRSC table's replica without
	// its witness.
	MsgMRSCDeleteWitnesses = "Update table delete operation does not include all witnesses."
	// MsgMRSCDeleteOne: DeleteTable of an MRSC table's member, or a
	// Delete of fewer than all of its other replicas.
	MsgMRSCDeleteOne = "Deletion of only one table replica is not supported for global tables with MultiRegionConsistency set to STRONG."
	// MsgWitnessNoAction: a GlobalTableWitnessGroupUpdate with neither
	// or both of Create and Delete (no record: the emulator's).
	MsgWitnessNoAction = "One and only one of Create or Delete must be given in a witness update"
)

// MsgMRSCRegions: STRONG with replicas or a witness in regions that
// cannot hold an MRSC table.
func MsgMRSCRegions(regions []string) string {
	return "Unsupported Region(s) specified for global tables with MultiRegionConsistency set to STRONG: " + listOf(regions) + "."
}

// MsgWitnessNotPart: a witness Delete of a region that is no witness of
// the table. The record quotes the message from "one or more
// witnesses"; its start is MsgReplicaNotPart's.
func MsgWitnessNotPart(regions []string) string {
	return "Update global table operation failed because one or more witnesses were not part of the global table. Please retry the request without these witnesses: " + listOf(regions) + "."
}

// WitnessUpdatesValue renders GlobalTableWitnessUpdates as the value of
// a constraint violation; the record shows its start
// ("[GlobalTableWitnessGroupUpdate(") only.
func WitnessUpdatesValue(updates []WitnessUpdateRegions) string {
	var b []byte
	b = append(b, '[')
	for i, u := range updates {
		if i > 0 {
			b = append(b, ", "...)
		}
		b = append(b, "GlobalTableWitnessGroupUpdate("...)
		sep := ""
		if u.Create != nil {
			b = append(b, "Create=CreateGlobalTableWitnessGroupMemberAction(RegionName="+*u.Create+")"...)
			sep = ", "
		}
		if u.Delete != nil {
			b = append(b, sep+"Delete=DeleteGlobalTableWitnessGroupMemberAction(RegionName="+*u.Delete+")"...)
		}
		b = append(b, ')')
	}
	return string(append(b, ']'))
}

// WitnessUpdateRegions is a witness update's regions, for
// WitnessUpdatesValue: Create's or Delete's, nil when absent.
type WitnessUpdateRegions struct{ Create, Delete *string }

// listOf renders regions as AWS lists them: "[a, b]".
func listOf(regions []string) string {
	out := "["
	for i, r := range regions {
		if i > 0 {
			out += ", "
		}
		out += r
	}
	return out + "]"
}
