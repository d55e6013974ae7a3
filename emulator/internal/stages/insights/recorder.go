package insights

import (
	"encoding/json"
	"sync"
	"sync/atomic"
	"time"

	"github.com/dynamoemu/dynamoemu/emulator/internal/accessreport"
	"github.com/dynamoemu/dynamoemu/emulator/internal/service"
	"github.com/dynamoemu/dynamoemu/emulator/internal/stagestate"
	"github.com/dynamoemu/dynamoemu/internal/insights"
)

// Each namespace's recorder, the report's settings every recorder
// follows, and Contributor Insights across restarts (-dbPath).
//
// A namespace's recorder is made on first need: a use while the report
// collects, a report read, a Contributor Insights operation, or a
// configuration put back at load. A namespace nobody reports on and
// nobody watches keeps a nil pointer and nothing else (the report of a
// recorder made late starts when it is made).
//
// Each change of a namespace's Contributor Insights (an
// UpdateContributorInsights, a table or GSI deleted) saves its whole
// configuration (every table's and GSI's status, mode and times,
// accessreport.CIState) as one DB metadata key,
// stagestate.MetaKeyContributorInsights: a RecordMeta, logged and kept in
// snapshots. Loaded puts it back, leaving out tables and GSIs that are
// gone. The counters start afresh, as the report's do.

// space is a namespace's part: its recorder, nil until needed.
type space struct {
	rec atomic.Pointer[accessreport.Recorder]
}

// spaces holds each namespace's space.
var spaces = service.NewState[space]()

// settings are the report's settings of a service, which every
// namespace's recorder follows, present and future.
type settings struct {
	mu        sync.Mutex // serializes the changes of reporting and design with the making of recorders; a leaf but for recorders' locks
	reporting atomic.Bool
	design    atomic.Pointer[insights.Design]
	// recorders counts the recorders made in the service's namespaces,
	// each before it is stored: while none, On need not find one.
	recorders atomic.Int32

	// saveMu serializes the saves of Contributor Insights
	// configurations; held over a recorder's lock and a DB's SetMeta.
	saveMu sync.Mutex
}

// settingsOf holds each service's settings.
var settingsOf = service.NewServiceState(func(*service.Service) *settings { return new(settings) })

// Existing returns sp's recorder, or nil when none was made (a
// namespace nobody has created anything in has none).
func Existing(sp service.Space) *accessreport.Recorder { return spaces.In(sp).rec.Load() }

// RecorderOf returns sp's recorder, made with the service's report
// settings if it has none.
func RecorderOf(sp service.Space) *accessreport.Recorder {
	st := spaces.In(sp)
	if r := st.rec.Load(); r != nil {
		return r
	}
	set := settingsOf.In(sp)
	set.mu.Lock()
	defer set.mu.Unlock()
	if r := st.rec.Load(); r != nil {
		return r
	}
	r := accessreport.New(accessreport.Options{Clock: sp.Clock()})
	if d := set.design.Load(); d != nil {
		r.SetDesign(d)
	}
	if set.reporting.Load() {
		r.SetReporting(true)
	}
	set.recorders.Add(1)
	st.rec.Store(r)
	return r
}

// SetReporting starts or stops the access-pattern report in every
// namespace of s, present and future.
func SetReporting(s *service.Service, on bool) {
	set := settingsOf.For(s)
	set.mu.Lock()
	defer set.mu.Unlock()
	set.reporting.Store(on)
	for _, sp := range s.Spaces() {
		if r := Existing(sp); r != nil {
			r.SetReporting(on)
		}
	}
}

// Reporting reports whether the access-pattern report collects.
func Reporting(s *service.Service) bool { return settingsOf.For(s).reporting.Load() }

// SetDesign checks the traffic of every namespace of s against d (nil:
// none), present and future.
func SetDesign(s *service.Service, d *insights.Design) {
	set := settingsOf.For(s)
	set.mu.Lock()
	defer set.mu.Unlock()
	set.design.Store(d)
	for _, sp := range s.Spaces() {
		if r := Existing(sp); r != nil {
			r.SetDesign(d)
		}
	}
}

// Design returns the design the traffic is checked against, or nil.
func Design(s *service.Service) *insights.Design { return settingsOf.For(s).design.Load() }

// SaveContributorInsights saves sp's Contributor Insights configuration
// in its DB, when the DB is kept on disk. Saves are serialized, each
// writing the configuration as it is when it runs, so the last one saved
// is the latest. A failed save is logged: the change is made all the
// same, and a restart forgets it.
func SaveContributorInsights(sp service.Space) {
	r := Existing(sp)
	if !sp.Persisted() || r == nil {
		return
	}
	set := settingsOf.In(sp)
	set.saveMu.Lock()
	defer set.saveMu.Unlock()
	states := r.ContributorInsightsState()
	const key = stagestate.MetaKeyContributorInsights
	if len(states) == 0 && sp.Meta(key) == nil {
		return // nothing to keep, and nothing kept
	}
	var b []byte
	if len(states) > 0 {
		var err error
		if b, err = json.Marshal(stagestate.ContributorInsights(states)); err != nil {
			sp.Log().Warn("cannot save Contributor Insights: a restart forgets this change", "err", err)
			return
		}
	}
	if err := sp.SetMeta(key, b); err != nil {
		sp.Log().Warn("cannot save Contributor Insights: a restart forgets this change", "err", err)
	}
}

// loaded puts back the Contributor Insights configuration saved in sp's
// DB, for the tables and GSIs that exist (its Loaded hook).
func loaded(sp service.Space, _ time.Time) {
	b := sp.Meta(stagestate.MetaKeyContributorInsights)
	if b == nil {
		return
	}
	states, v, err := stagestate.DecodeContributorInsights(b)
	if err != nil || v != stagestate.ContributorInsightsVersion {
		sp.Log().Warn("the saved Contributor Insights configuration is not readable: left out", "err", err, "version", v)
		return
	}
	keep := states[:0]
	for _, s := range states {
		t, ok := sp.Table(s.Table)
		if !ok {
			continue
		}
		if s.Index != "" {
			if !hasGSI(t, s.Index) {
				continue
			}
		}
		keep = append(keep, s)
	}
	if len(keep) > 0 {
		RecorderOf(sp).RestoreContributorInsights(keep)
	}
}

// dropped forgets a deleted table's Contributor Insights and saves the
// configuration without it (its Dropped hook).
func dropped(d service.Dropped) { forget(d.Table().Space(), d.Table().Info().Name, "") }

// indexDropped forgets a deleted GSI's Contributor Insights and saves
// the configuration without it (its IndexDropped hook).
func indexDropped(t service.Table, index string) { forget(t.Space(), t.Info().Name, index) }

// forget drops the Contributor Insights of a table ("" index: and its
// GSIs') or of one of its GSIs, and saves the configuration.
func forget(sp service.Space, table, index string) {
	if r := Existing(sp); r != nil {
		r.ForgetContributorInsights(table, index)
		SaveContributorInsights(sp)
	}
}

// hasGSI reports whether t has a global secondary index named name.
func hasGSI(t service.Table, name string) bool {
	gsis, _ := t.Indexes()
	for _, x := range gsis {
		if x.Name == name {
			return true
		}
	}
	return false
}
