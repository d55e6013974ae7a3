package globaltables

import (
	"encoding/json"
	"slices"
	"time"

	"github.com/dynamoemu/dynamoemu/emulator/internal/service"
)

// slotName is the feature's slot in a table's definition and record.
// Records written while the feature was in the core hold the members of
// part in their "ext" object instead (ExtMembers), which the core reads
// back as the slot.
const slotName = "globalTables"

// part is the feature's part of a table's definition (its slot, JSON):
// replica auto scaling and the table's replicas. Like a definition it is
// never changed once recorded: a change decodes a copy, changes it and
// sets it whole (setPart), its slices replaced, never changed in place.
type part struct {
	AutoScaling []autoScalingRule `json:"autoScaling,omitempty"`
	// Replicas are the other regions of the global table this table
	// belongs to (replicas.go); none for a table that is not one.
	Replicas []replicaRec `json:"replicas,omitempty"`
	// GlobalVersion is the global table version: "2019.11.21" (replicas
	// added by UpdateTable) or "2017.11.29" (CreateGlobalTable); "" for
	// a table that is no replica of anything.
	GlobalVersion string `json:"globalVersion,omitempty"`
	// Source is the region this table was created from as a replica
	// (2019.11.21), SourceAt when: delete.go.
	Source   string    `json:"source,omitempty"`
	SourceAt time.Time `json:"sourceAt,omitzero"`
	// GlobalCreated is when a 2017.11.29 global table was created.
	GlobalCreated time.Time `json:"globalCreated,omitzero"`
	// NoDisassociationProtection: UpdateTable turned this replica's
	// disassociation protection off (it is on by default): protection.go.
	NoDisassociationProtection bool `json:"noDisassociationProtection,omitempty"`
	// Consistency is "STRONG" for a member of an MRSC table, Witnesses
	// its witness (mrsc.go): every member records both.
	Consistency string       `json:"consistency,omitempty"`
	Witnesses   []witnessRec `json:"witnesses,omitempty"`
}

// extMembers are the members of part, which records of an earlier
// version keep in their "ext" object (service.Registrar.ExtMembers).
var extMembers = []string{"autoScaling", "replicas", "globalVersion", "source", "sourceAt", "globalCreated"}

// partOf returns the feature's part of definition d (zero: none, or a
// slot that does not decode: a record of another version, read as
// none), and whether d has a slot at all.
func partOf(d service.Definition) (part, bool) {
	slot := d.Slot(slotName)
	if slot == nil {
		return part{}, false
	}
	var x part
	if err := json.Unmarshal(slot, &x); err != nil {
		return part{}, false
	}
	return x, true
}

// setPart makes x the feature's part of the definition being changed (a
// part with nothing in it: none).
func setPart(e *service.Edit, x part) {
	if x.empty() {
		e.SetSlot(slotName, nil)
		return
	}
	b, err := json.Marshal(x)
	if err != nil {
		panic("globaltables: encoding a table's slot: " + err.Error()) // plain data: cannot fail
	}
	e.SetSlot(slotName, b)
}

// empty reports whether x holds nothing.
func (x part) empty() bool {
	return len(x.AutoScaling) == 0 && len(x.Replicas) == 0 && x.GlobalVersion == "" && x.Source == "" &&
		x.SourceAt.IsZero() && x.GlobalCreated.IsZero() && !x.NoDisassociationProtection &&
		x.Consistency == "" && len(x.Witnesses) == 0
}

// replicaRec is one other region of a global table, as its members
// record it: its state is Status until Until, then Next ("" : Status
// for good).
type replicaRec struct {
	Region string    `json:"region"`
	Status string    `json:"status"`
	Until  time.Time `json:"until,omitzero"`
	Next   string    `json:"next,omitempty"`
	// Source is the region the replica was created from and Created
	// when (2019.11.21): that region cannot leave for 24 hours
	// (delete.go).
	Source  string    `json:"source,omitempty"`
	Created time.Time `json:"created,omitzero"`
	// Overrides (UpdateTable's replica Create and Update).
	ReadOverride int64 `json:"read,omitempty"`
	// GSIRead are the replica's GSI read capacity overrides
	// (ReplicaGlobalSecondaryIndex: gsi.go).
	GSIRead    []gsiReadOverride `json:"gsiRead,omitempty"`
	TableClass string            `json:"class,omitempty"`
	KMS        string            `json:"kms,omitempty"`
}

// statusAt is the replica's ReplicaStatus at now.
func (r replicaRec) statusAt(now time.Time) string {
	if r.Next != "" && !now.Before(r.Until) {
		return r.Next
	}
	return r.Status
}

// replicaRegions returns the regions of the global table x belongs to
// at now, own (the table's region) first, the others in ascending order
// (a replica DELETING included, one gone not); just own for a table with
// no replicas.
func (x part) replicaRegions(own string, now time.Time) []string {
	out := []string{own}
	var others []string
	for _, r := range x.Replicas {
		if r.statusAt(now) != replicaGone {
			others = append(others, r.Region)
		}
	}
	slices.Sort(others)
	return append(out, others...)
}

// replicaStatus is the ReplicaStatus of region in the global table of
// d, whose part is x (own: the table itself, ACTIVE while the table is).
func replicaStatus(d service.Definition, x part, region string, now time.Time) string {
	for _, r := range x.Replicas {
		if r.Region == region {
			return r.statusAt(now)
		}
	}
	if st := d.StatusAt(now); st != statusActive {
		return st
	}
	return "ACTIVE"
}

// str returns *p, or "" for nil.
func str(p *string) string {
	if p == nil {
		return ""
	}
	return *p
}

// TableStatus values the feature reads.
const (
	statusActive   = "ACTIVE"
	statusUpdating = "UPDATING"
)

// deref returns *p, or "null" for nil, for messages.
func deref(p *string) string {
	if p == nil {
		return "null"
	}
	return *p
}
