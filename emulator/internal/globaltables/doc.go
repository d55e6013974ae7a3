// Package globaltables is DynamoDB's global tables, both versions, and
// replica auto scaling, as one feature behind the service core's
// table-feature seam (emulator/internal/service, feature*.go). The core
// names nothing of it; the emulator wires it (emulator/features.go,
// after point-in-time recovery).
//
// # What it owns
//
// A global table is a table of one name in several regions' namespaces
// of one access key (so the shared namespace of -sharedDb has none);
// each such table is a member, or replica. The package owns:
//
//   - UpdateTable's ReplicaUpdates (Create, Update, Delete: the
//     2019.11.21 version), a member of the core's request it owns
//     (service.UpdateTableMember), and DescribeTable's Replicas and
//     GlobalTableVersion (its Describe hook): replicas.go, gsi.go (a
//     replica's GSI read capacity), status.go (UPDATING while a replica
//     comes or goes, and what UpdateTable refuses then), stream.go (the
//     stream a global table needs and keeps), delete.go (a member's
//     deletion and AWS's 24-hour source rule, a refusal of DeleteTable:
//     its CheckDrop hook).
//   - Multi-Region strong consistency and witnesses (mrsc.go): UpdateTable's
//     GlobalTableWitnessUpdates, a member it owns that comes with
//     ReplicaUpdates (service.MemberRules' With; alone it is no change),
//     judged with MultiRegionConsistency in one request (updateGroup);
//     DescribeTable's MultiRegionConsistency (STRONG only) and
//     GlobalTableWitnesses; the DeleteTable an MRSC member refuses.
//   - UpdateTable's DisassociationProtectionEnabled, another member it
//     owns, and the described protection and settings replication mode
//     (protection.go); ReplicaUpdates' Disassociate, which takes the
//     local replica out of its global table (disassociate.go).
//   - The 2017.11.29 operations: CreateGlobalTable, DescribeGlobalTable,
//     ListGlobalTables, UpdateGlobalTable (legacy.go), their Settings
//     (settings.go) and the aws:rep:* attributes of their items
//     (legacy_attrs.go).
//   - DescribeTableReplicaAutoScaling and UpdateTableReplicaAutoScaling
//     (autoscaling.go): settings kept and described, nothing scaled.
//   - The replication (replication.go, sync.go, stamps.go): a tap in
//     front of every namespace's DB hook (service.Hooker, outermost)
//     queues each committed item write of a member, its definition
//     changes and its drop for the other members; the queue is applied
//     at the start of each request (its Starting hook) or at once by Drain
//     (the facade's DrainReplication), through storage's write path with
//     storage.OriginReplica, last writer winning by commit time.
//
// # Nouns
//
//   - part: the feature's part of a table's definition, its slot
//     (globalTables in the record): the other members (replicaRec, each
//     with its state and overrides), the version, where the member was
//     made from, and the auto scaling rules (autoScalingRule). Every
//     member records the others, so replay and persistence rebuild the
//     group: a definition replayed routes its writes again
//     (its Defined hook).
//   - replicator: a service's replication state (service.ServiceState):
//     the routes (by table ID, where its writes go), the queue of
//     replOp (an item write, a definition, a member's drop, aws:rep:*),
//     the per-key write stamps last writer wins compares, the last
//     definition record of each member.
//   - member: a region and its table, as a change of the group walks
//     them.
//
// The tap reads routes only, under the replicator's lock: the data
// plane pays one hook call per commit (and no record is built for a
// write while no table of the service has ever had a replica:
// WantsCommits). A replica is made from a copy-on-write snapshot of the
// table (service.Call.MakeTable); a definition change is carried as the
// source's whole record (service.ParseDefinition) and only the
// synchronized settings that changed are applied, through the core's one
// funnel (service.Table.Change). Nothing re-reads a table.
//
// # Records
//
// The part is JSON in the table's definition record. Records written
// while the feature was in the service core kept its members
// (autoScaling, replicas, globalVersion, source, sourceAt,
// globalCreated) in the record's "ext" object; the core reads them back
// as the slot (service.Registrar.ExtMembers), and the next change writes the
// slot in its own member. A slot that does not decode is read as none.
//
// # Locks
//
// In the service's lock order (emulator/internal/service/doc.go), top to
// bottom; a goroutine holding one takes only those below it:
//
//	replicator.globalMu  a change of a global table's membership
//	                  (ReplicaUpdates, the 2017.11.29 operations): it
//	                  may take the table lock (Table.Change) of every
//	                  member, one after the other, and drainMu
//	replicator.drainMu  applying the queue: taken with no lock held (a
//	                  request's start, Drain) or under globalMu (a
//	                  replica's creation); it takes the table lock of a
//	                  member whose definition it changes and storage's
//	                  locks (a replicated write)
//	table.mu, storage's locks   the core's
//	replicator.mu     the routes, the queue, the stamps, the last
//	                  definitions: a leaf, taken by the tap in the DB's
//	                  hook under storage's locks, and inside a
//	                  replicated write's storage callback
//
// TestGlobalTableConcurrency and TestGlobalTableConcurrentDefinitions
// run writes, drains, replica creations and deletions and definition
// changes at once under -race.
//
// # Caveats
//
//   - Nothing is billed or throttled per replica; auto scaling settings
//     are kept, never acted on.
//   - A replicated write is due after the service's replication delay
//     (SetDelay, 0 by default) and applied at the next request's start,
//     not in the background.
//   - Conflicts are decided per key by commit time and region name, as
//     AWS documents last writer wins; on a clock that does not move a
//     later local write still wins (replication.go).
package globaltables
