package service

import (
	"encoding/json"

	"github.com/dynamoemu/dynamoemu/emulator/internal/fxstate"
)

// Contributor Insights across restarts (-dbPath). Each change of a
// namespace's Contributor Insights (UpdateContributorInsights, a table
// deleted) saves the namespace's whole configuration (every table's and
// GSI's status, mode and times, insights.CIState) as one DB metadata key,
// fxstate.MetaKeyContributorInsights: a RecordMeta, logged and kept in snapshots
// like the ClientRequestTokens (idempotency_persist.go). RebuildCatalog
// puts it back (restoreContributorInsights), leaving out tables and GSIs
// that are gone. The counters start afresh, as the report's do. The fault
// rules, which are the service's and not a namespace's, are saved by the
// emulator as a state of the store (emulator/faults_persist.go).

// saveContributorInsights saves ns's Contributor Insights configuration
// in its DB, when the DB is kept on disk. Saves are serialized (fxState's
// saveMu), each writing the configuration as it is when it runs, so the
// last one saved is the latest. A failed save is logged: the change is
// made all the same, and a restart forgets it.
func (ns *Namespace) saveContributorInsights() {
	ns = ns.registered()
	if !ns.persisted() || ns.rec == nil {
		return
	}
	fx := &ns.svc.fx
	fx.saveMu.Lock()
	defer fx.saveMu.Unlock()
	states := ns.rec.ContributorInsightsState()
	ns.saveStateLocked(fxstate.MetaKeyContributorInsights, "Contributor Insights", fxstate.ContributorInsights(states), len(states) == 0)
}

// saveStateLocked saves v as JSON in ns's DB metadata under key, or
// removes the key when none is true (nothing is left to keep; nothing is
// written when nothing was saved either). A failure is logged with what
// it was: the change stands, and a restart forgets it. fxState's saveMu
// is held.
func (ns *Namespace) saveStateLocked(key, what string, v any, none bool) {
	if none && ns.db.Meta(key) == nil {
		return
	}
	var b []byte
	if !none {
		var err error
		if b, err = json.Marshal(v); err != nil {
			ns.svc.log.Warn("cannot save "+what+": a restart forgets this change", "err", err)
			return
		}
	}
	if err := ns.db.SetMeta(key, b); err != nil {
		ns.svc.log.Warn("cannot save "+what+": a restart forgets this change", "err", err)
	}
}

// restoreContributorInsights puts back the configuration saved in ns's
// DB, for the tables and GSIs that exist.
func (ns *Namespace) restoreContributorInsights() {
	b := ns.db.Meta(fxstate.MetaKeyContributorInsights)
	if b == nil || ns.rec == nil {
		return
	}
	states, v, err := fxstate.DecodeContributorInsights(b)
	if err != nil || v != fxstate.ContributorInsightsVersion {
		ns.svc.log.Warn("the saved Contributor Insights configuration is not readable: left out", "err", err, "version", v)
		return
	}
	keep := states[:0]
	for _, s := range states {
		t := ns.getTable(s.Table)
		if t == nil {
			continue
		}
		if s.Index != "" {
			if x := partiqlIndex(t, s.Index); x == nil || x.Local {
				continue
			}
		}
		keep = append(keep, s)
	}
	ns.rec.RestoreContributorInsights(keep)
}

// forgetIndexFx drops a deleted GSI's Contributor Insights (and saves
// the configuration without it).
func (ns *Namespace) forgetIndexFx(table, index string) {
	if ns.rec == nil {
		return
	}
	ns.rec.ForgetContributorInsights(table, index)
	ns.saveContributorInsights()
}
