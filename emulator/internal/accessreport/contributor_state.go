package accessreport

import (
	"cmp"
	"sort"
	"time"
)

// CIState is one table's or GSI's Contributor Insights configuration as
// a restart keeps it (the emulator saves it with -dbPath): its status as
// last changed, mode, and the times that show in its answers (the rules'
// creation time and LastUpdateDateTime). Counters are not part of it:
// they start afresh, as the report's do.
type CIState struct {
	Table   string    `json:"table"`
	Index   string    `json:"index,omitempty"`
	HasSort bool      `json:"hasSort,omitempty"`
	Status  CIStatus  `json:"status"`
	Mode    CIMode    `json:"mode,omitempty"`
	Changed time.Time `json:"changed"`
	Created time.Time `json:"created"`
}

// ContributorInsightsState returns the Contributor Insights of every
// table and GSI ever configured, by table and index.
func (r *Recorder) ContributorInsightsState() []CIState {
	r.mu.Lock()
	defer r.mu.Unlock()
	out := make([]CIState, 0, len(r.ci))
	for k, e := range r.ci {
		out = append(out, CIState{Table: k.table, Index: k.index, HasSort: e.hasSort,
			Status: e.status, Mode: e.mode, Changed: e.changed, Created: e.created})
	}
	compare := func(a, b CIState) int {
		return cmp.Or(cmp.Compare(a.Table, b.Table), cmp.Compare(a.Index, b.Index))
	}
	sort.Slice(out, func(i, j int) bool { return compare(out[i], out[j]) < 0 })
	return out
}

// RestoreContributorInsights puts back states ContributorInsightsState
// returned (after a restart), replacing any of the same table and index;
// a status still ENABLING or DISABLING settles as it would have.
func (r *Recorder) RestoreContributorInsights(states []CIState) {
	r.mu.Lock()
	defer r.mu.Unlock()
	for _, s := range states {
		k := resKey{s.Table, s.Index}
		if e := r.ci[k]; e != nil && collects(e.status) {
			r.watchers.Add(-1)
		}
		e := &ciEntry{status: s.Status, mode: s.Mode, changed: s.Changed, created: s.Created, hasSort: s.HasSort}
		r.ci[k] = e
		if collects(e.status) {
			r.watchers.Add(1)
		}
	}
}
