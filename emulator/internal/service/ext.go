package service

import (
	"slices"
	"time"
)

// tableExt is the part of a table's definition that the table-level features
// still in the core add: replica auto scaling (replica_autoscaling.go)
// and global table replicas (global_tables*.go). It is recorded with the
// rest of the definition (catalog_record.go), in the record's "ext"
// member; a record written before a feature moved behind the seam
// (feature.go) may hold that feature's slot there too. Like tableMeta it is
// immutable once published: a change copies it (extCopy) and replaces
// its slices whole.
type tableExt struct {
	AutoScaling []autoScalingRule `json:"autoScaling,omitempty"`
	// Replicas are the other regions of the global table this table
	// belongs to (global_tables.go); none for a table that is not one.
	Replicas []replicaRec `json:"replicas,omitempty"`
	// GlobalVersion is the global table version: "2019.11.21" (replicas
	// added by UpdateTable) or "2017.11.29" (CreateGlobalTable); "" for
	// a table that is no replica of anything.
	GlobalVersion string `json:"globalVersion,omitempty"`
	// Source is the region this table was created from as a replica
	// (2019.11.21), SourceAt when: global_tables_delete.go.
	Source   string    `json:"source,omitempty"`
	SourceAt time.Time `json:"sourceAt,omitzero"`
	// GlobalCreated is when a 2017.11.29 global table was created.
	GlobalCreated time.Time `json:"globalCreated,omitzero"`
}

// extCopy returns a copy of m.ext to change (a new one if m has none),
// which the caller stores back in m.ext.
func (m *tableMeta) extCopy() *tableExt {
	if m.ext == nil {
		return &tableExt{}
	}
	e := *m.ext
	return &e
}

// transientUntil is when a state that AWS keeps for a while (ENABLING,
// UPDATING, ...) ends: now plus the configured TransientDelay (0: the
// state is answered once, by the request that starts it).
func (c *call) transientUntil() time.Time { return c.now.Add(c.svc.cfg.TransientDelay) }

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
	// (global_tables_delete.go).
	Source  string    `json:"source,omitempty"`
	Created time.Time `json:"created,omitzero"`
	// Overrides (UpdateTable's replica Create and Update).
	ReadOverride int64 `json:"read,omitempty"`
	// GSIRead are the replica's GSI read capacity overrides
	// (ReplicaGlobalSecondaryIndex: global_tables_gsi.go).
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

// replicaRegions returns the regions of the global table m belongs to
// at now, own (the table's region) first, the others in ascending order
// (a replica DELETING included, one gone not); just own for a table with
// no replicas.
func (m *tableMeta) replicaRegions(own string, now time.Time) []string {
	out := []string{own}
	if m.ext == nil {
		return out
	}
	var others []string
	for _, r := range m.ext.Replicas {
		if r.statusAt(now) != replicaGone {
			others = append(others, r.Region)
		}
	}
	slices.Sort(others)
	return append(out, others...)
}

// replicaStatus is the ReplicaStatus of region in m's global table
// (own: the table itself, ACTIVE while the table is).
func (m *tableMeta) replicaStatus(region, own string, now time.Time) string {
	if m.ext != nil {
		for _, r := range m.ext.Replicas {
			if r.Region == region {
				return r.statusAt(now)
			}
		}
	}
	if st := m.statusAt(now); st != statusActive {
		return st
	}
	return "ACTIVE"
}

// str returns *p, or "" for nil (deref, for messages, says "null").
func str(p *string) string {
	if p == nil {
		return ""
	}
	return *p
}
