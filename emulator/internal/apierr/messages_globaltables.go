package apierr

import "net/http"

// Global tables (emulator/internal/globaltables), after AWS's API reference
// (API_UpdateTable ReplicaUpdates, API_CreateGlobalTable,
// API_UpdateGlobalTable, API_DescribeGlobalTable, API_ListGlobalTables,
// API_DescribeGlobalTableSettings, API_UpdateGlobalTableSettings).
// DynamoDB Local has none of them; where no record of AWS's wording was
// found, the message is ours.
var (
	// ErrGlobalTableAlreadyExists: CreateGlobalTable of an existing one.
	ErrGlobalTableAlreadyExists = &Class{"GlobalTableAlreadyExistsException", nsDynamoDB, http.StatusBadRequest, false}
	// ErrGlobalTableNotFound: no (2017.11.29) global table of that name.
	ErrGlobalTableNotFound = &Class{"GlobalTableNotFoundException", nsDynamoDB, http.StatusBadRequest, false}
	// ErrReplicaAlreadyExists: UpdateGlobalTable adding a present region.
	ErrReplicaAlreadyExists = &Class{"ReplicaAlreadyExistsException", nsDynamoDB, http.StatusBadRequest, false}
	// ErrReplicaNotFound: a region that is no replica.
	ErrReplicaNotFound = &Class{"ReplicaNotFoundException", nsDynamoDB, http.StatusBadRequest, false}
)

// MsgReplicaWriteCapacity: a PROVISIONED table without write auto
// scaling given a replica (AWS's wording, as Terraform issue
// hashicorp/terraform-provider-aws#13097 quotes it).
const MsgReplicaWriteCapacity = "Table write capacity should either be Pay-Per-Request or AutoScaled."

// MsgReplicaStreamRequired: a replica of a table without a
// NEW_AND_OLD_IMAGES stream (ours).
const MsgReplicaStreamRequired = "A global table replica requires DynamoDB Streams enabled with StreamViewType NEW_AND_OLD_IMAGES"

// MsgReplicaSharedDB: replicas need a namespace per region (ours).
const MsgReplicaSharedDB = "Global tables need a database per region: the emulator runs with -sharedDb"

// MsgReplicaRegionInvalid: a region that cannot hold a replica (ours).
func MsgReplicaRegionInvalid(region string) string {
	return "Invalid replica region: " + region
}

// MsgReplicaExists and MsgReplicaTableExists gave way to AWS's
// MsgReplicaAlreadyTables (messages_replicas.go).

// MsgReplicaVersionMix: a 2019.11.21 change to a 2017.11.29 global table, or the reverse (ours).
const MsgReplicaVersionMix = "The table belongs to a global table of the other version (2017.11.29 or 2019.11.21)"

// MsgReplicaOneAction: a ReplicationGroupUpdate with not exactly one action (ours).
const MsgReplicaOneAction = "One and only one of Create, Update or Delete must be given in a replica update"

// MsgGlobalTableNotFound is GlobalTableNotFoundException's message (ours).
func MsgGlobalTableNotFound(name string) string { return "Global table not found: " + name }

// MsgGlobalTableExists is GlobalTableAlreadyExistsException's message (ours).
func MsgGlobalTableExists(name string) string { return "Global table already exists: " + name }

// MsgGlobalTableRegionTable: a 2017.11.29 replica's table missing (ours).
func MsgGlobalTableRegionTable(name, region string) string {
	return "Table not found: " + name + " in region " + region
}

// MsgGlobalTableNotEmpty: 2017.11.29 replicas must start empty (ours).
func MsgGlobalTableNotEmpty(name, region string) string {
	return "Table " + name + " in region " + region + " must be empty to join a global table"
}

// MsgGlobalTableKeyMismatch: replicas with other key schemas (ours).
func MsgGlobalTableKeyMismatch(name, region string) string {
	return "Table " + name + " in region " + region + " has another key schema"
}

// MsgReplicaNotInGroup is ReplicaNotFoundException's message (ours).
func MsgReplicaNotInGroup(region string) string { return "Replica not found in region " + region }

// MsgReplicaInGroup is ReplicaAlreadyExistsException's message (ours).
func MsgReplicaInGroup(region string) string { return "Replica already exists in region " + region }
