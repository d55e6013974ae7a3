package globaltables

import (
	"github.com/dynamoemu/dynamoemu/emulator/internal/boundary"
	"time"

	"github.com/dynamoemu/dynamoemu/emulator/internal/apierr"
	"github.com/dynamoemu/dynamoemu/emulator/internal/service"
	"github.com/dynamoemu/dynamoemu/internal/storage"
)

// Feature is global tables and replica auto scaling
// (service.Config.Features): the replication between the members of a
// global table, in a tap in front of every namespace's DB hook
// (Hooks.WrapDB) and applied at the start of each request
// (Hooks.Starting); UpdateTable's ReplicaUpdates (the member it owns:
// service.UpdateTableMember) and its refusals while a table has replicas
// (Hooks.CheckUpdate, CheckUpdateLocked, CheckDrop); DescribeTable's
// Replicas (Hooks.Describe); the routes of members loaded from disk
// (Hooks.Defined); the 2017.11.29 operations and replica auto scaling.
type Feature struct{}

// Name is the feature's name, the key of its slot.
func (Feature) Name() string { return slotName }

// replicators is every service's replication state.
var replicators = service.NewServiceState(func(s *service.Service) *replicator { return &replicator{svc: s} })

// Register installs the operations and UpdateTable's ReplicaUpdates, and
// names the members of the feature's part that records of an earlier
// version keep in their "ext" object.
func (Feature) Register(r service.Registrar) {
	r.ExtMembers(extMembers...)
	// The witnesses first: a request with them and another change
	// gets their answer (mrsc.go).
	service.UpdateTableMember(r, memberWitnesses, service.TableUpdate[[]WitnessGroupUpdate]{
		Given: func(v *[]WitnessGroupUpdate) bool { return len(*v) > 0 },
		Rules: service.MemberRules{Alone: apierr.Validation(apierr.MsgMRSCOthers), With: []string{memberReplicas}, NoChange: true},
		Run:   updateWitnesses,
	})
	service.UpdateTableMember(r, memberReplicas, service.TableUpdate[[]ReplicationGroupUpdate]{
		Given: func(v *[]ReplicationGroupUpdate) bool { return len(*v) > 0 },
		Rules: service.MemberRules{Alone: apierr.Validation(apierr.MsgOnlyOperation("Replica")), With: []string{memberWitnesses}},
		Run:   updateReplicas,
	})
	service.UpdateTableMember(r, "DisassociationProtectionEnabled", service.TableUpdate[*bool]{
		Given: func(v **bool) bool { return *v != nil },
		Rules: service.MemberRules{Alone: apierr.Validation(apierr.MsgOnlyOperation("DisassociationProtection"))},
		Run:   updateDisassociation, // protection.go
	})
	service.Op(r, "CreateGlobalTable", boundary.TableCopy, createGlobalTable)
	service.Op(r, "DescribeGlobalTable", boundary.TableDescribe, describeGlobalTable)
	service.Op(r, "ListGlobalTables", boundary.List, listGlobalTables)
	service.Op(r, "UpdateGlobalTable", boundary.TableCopy, updateGlobalTable)
	service.Op(r, "DescribeGlobalTableSettings", boundary.TableDescribe, describeGlobalTableSettings)
	service.Op(r, "UpdateGlobalTableSettings", boundary.TableWrite, updateGlobalTableSettings)
	service.Op(r, "DescribeTableReplicaAutoScaling", boundary.TableDescribe, describeReplicaAutoScaling)
	service.Op(r, "UpdateTableReplicaAutoScaling", boundary.TableWrite, updateReplicaAutoScaling)
}

// Hooks are the feature's part in the core's table operations and in
// every namespace's commits.
func (Feature) Hooks() service.Hooks {
	return service.Hooks{WrapDB: hooked, Starting: starting, Defined: defined, Describe: describe,
		CheckDrop: checkDrop, CheckUpdate: checkUpdate, CheckUpdateLocked: checkUpdateLocked}
}

// hooked puts the namespace's replication tap in front of its DB's hook
// (outermost: the features used before this one wrap it first).
func hooked(s service.Space, db *storage.DB) {
	wrapReplication(db, replicators.In(s), s.Clock())
}

// starting applies the replicated writes due at now.
func starting(s *service.Service, now time.Time) { replicators.For(s).drainDue(now) }

// defined routes the writes of a member of a global table whose
// definition a record being applied publishes (a namespace loaded from
// disk replicates again).
func defined(_, d service.Definition) {
	if d.Replayed() {
		syncReplication(d)
	}
}

// describe adds the table's Replicas and GlobalTableVersion to its
// description, and shows it UPDATING while a replica comes or goes.
func describe(d service.Definition, now time.Time, out *service.TableDescription) {
	x, ok := partOf(d)
	if !ok {
		return
	}
	if out.TableStatus == statusActive && x.replicaChanging(now) {
		out.TableStatus = statusUpdating // status.go
	}
	if rs, version := describeReplicas(x, now); len(rs) > 0 {
		out.Add("Replicas", rs)
		if version != "" {
			out.Add("GlobalTableVersion", version)
		}
		if version == globalVersion2019 {
			// The consistency mode is shown for an MRSC table only, with
			// its witness (mrsc.go).
			if x.Consistency == consistencyStrong {
				out.Add("MultiRegionConsistency", consistencyStrong)
				if ws := describeWitnesses(x, now); len(ws) > 0 {
					out.Add("GlobalTableWitnesses", ws)
				}
			}
			out.Add("GlobalTableSettingsReplicationMode", settingsModeSameAccount) // protection.go
			out.Add("DisassociationProtectionEnabled", !x.NoDisassociationProtection)
		}
	}
}

// checkDrop refuses DeleteTable of a member another was created from
// in the last 24 hours (delete.go).
func checkDrop(c service.Call, t service.Table) error {
	if err := checkStrongDrop(c, t); err != nil { // mrsc.go
		return err
	}
	return checkReplicaDelete(c, t)
}

// checkUpdate refuses an UpdateTable that disables the stream of a
// table with replicas (stream.go).
func checkUpdate(c service.Call, t service.Table, in *service.UpdateTableInput) error {
	return checkReplicaStream(c, t, in)
}

// checkUpdateLocked refuses an UpdateTable of the table class or
// deletion protection while a replica comes or goes (status.go).
func checkUpdateLocked(c service.Call, d service.Definition, in *service.UpdateTableInput) error {
	return checkReplicaInFlightLocked(in, d, c.Now())
}

// SetDelay sets how long a write takes to reach the other replicas of a
// global table of service s (0: the next request sees it).
func SetDelay(s *service.Service, d time.Duration) {
	r := replicators.For(s)
	r.mu.Lock()
	r.delay = d
	r.mu.Unlock()
}

// Drain applies every replicated write of service s still on its way
// now, whatever the delay, and returns how many it applied.
func Drain(s *service.Service) int {
	r := replicators.For(s)
	r.drainMu.Lock()
	defer r.drainMu.Unlock()
	return r.drainLocked(time.Time{}, true)
}
