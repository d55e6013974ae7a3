package apierr

// Messages of UpdateTable's ReplicaUpdates (global tables version
// 2019.11.21) as AWS words them. Source: public records of AWS's answers,
// the ack-api-quirks lab notes for DynamoDB (services/dynamodb, verified
// 2026-10-09): DDB-TABLE-203 and DDB-TABLE-225 (a region already a
// replica, or holding a table of that name; the "a the" and the
// typographic quotes are AWS's), DDB-TABLE-307 (a region not in the
// global table), DDB-TABLE-223 and the error catalogue DDB-TABLE-442
// (no action, more than one action, the local region), DDB-TABLE-266
// and -267 (the 24-hour source rule), DDB-TABLE-227 (disabling the
// stream).

// MsgReplicaAlreadyTables: a Create of a region that is a replica
// already, or that holds a table of that name.
func MsgReplicaAlreadyTables(name string) string {
	return "Failed to create a the new replica of table with name: \u2018" + name + "\u2019 because one or more replicas already existed as tables."
}

// MsgReplicaNotPart: a Delete or Update of a region that is not a
// replica of the table.
func MsgReplicaNotPart(region string) string {
	return "Update global table operation failed because one or more replicas were not part of the global table. Please retry the request without these replicas: [" + region + "]."
}

// MsgReplicaNoAction: a ReplicationGroupUpdate with no action.
const MsgReplicaNoAction = "There are no actions specified in the Replica Update Action of the request."

// MsgReplicaManyActions: more than one Create or Delete in one request.
const MsgReplicaManyActions = "Update table operation with more than one create or delete replica actions not allowed"

// MsgReplicaMixedActions: one ReplicationGroupUpdate with more than one
// kind of action. The catalogue quotes only its end ("... more than one
// type of replica actions not allowed."); its start is
// MsgReplicaManyActions' (ours).
const MsgReplicaMixedActions = "Update table operation with more than one type of replica actions not allowed."

// MsgReplicaLocalRegion: a Create or Delete of the request's own region.
const MsgReplicaLocalRegion = "Cannot add or delete the local region through ReplicaUpdates. Use CreateTable, DeleteTable, or UpdateTable as required."

// MsgReplicaSourceRecent: removing a region (ReplicaUpdates Delete or
// DeleteTable there) that another replica was created from less than 24
// hours ago, while that replica exists.
const MsgReplicaSourceRecent = "Replica cannot be deleted because it has acted as a source region for new replica(s) being added to the table in the last 24 hours."

// MsgReplicaStreamDisable: UpdateTable disabling the stream of a table
// with replicas.
const MsgReplicaStreamDisable = "One or more parameter values were invalid: Disabling Stream is not allowed for a Global Table replica."

// MsgReplicaInFlight: UpdateTable's ReplicaUpdates, table class or
// deletion protection while a replica of the table is being created,
// deleted or updated (lab notes DDB-TABLE-227, -228, -224).
const MsgReplicaInFlight = "The resource which you are attempting to change is in use."

// MsgDisassociationNotReplica: UpdateTable's DisassociationProtectionEnabled
// on a table that is no replica of a global table version 2019.11.21.
// The API reference gives the rule ("for the local replica of a
// multi-Region eventual consistency (MREC) global table using Version
// 2019.11.21"), no record gives AWS's words: these are the emulator's.
const MsgDisassociationNotReplica = msgInvalidParams + "DisassociationProtectionEnabled can only be set on a replica of a global table version 2019.11.21"

// Refusals of a ReplicaUpdates Disassociate. The developer guide
// ("Disassociating a global table replica") gives the rules; no record
// gives AWS's words: these are the emulator's.
const (
	MsgDisassociateLocal      = msgInvalidParams + "Disassociate must name the Region the request is sent to"
	MsgDisassociateNotReplica = msgInvalidParams + "Disassociate is supported only for a replica of a global table version 2019.11.21 with multi-Region eventual consistency"
	MsgDisassociateProtected  = msgInvalidParams + "Disassociation protection is enabled for this replica: disable it first (DisassociationProtectionEnabled false)"
)
