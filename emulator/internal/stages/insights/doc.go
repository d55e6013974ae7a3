// Package insights is the stage of the request pipeline that feeds the
// access-pattern report and Contributor Insights: it plugs into the
// service core through the stage seam
// (emulator/internal/service/stage.go), wired in emulator/features.go
// first of the stages, so that its End hears of every use a later stage
// refused; the core names nothing of it.
//
// End records each use of a table or index by a data-plane operation
// (its operation, access, key condition, units, items read and
// returned, a search's bytes) in the namespace's recorder
// (internal/insights), when the recorder collects, and a use refused
// for throughput as a throttled key of Contributor Insights. Reports,
// ReportOf, Recorder, ResetReport and Contributors read the recorders
// over a service's namespaces, each with its namespace's tables as the
// report's catalog (report.go).
//
// The stage keeps each namespace's recorder (a service.State),
// made on first need (recorder.go: a use while the report collects, a
// report read, a Contributor Insights operation, a configuration put
// back at load), so a namespace nobody reports on or watches keeps none;
// the report's settings (SetReporting, SetDesign), which every recorder
// follows, per service (service.NewServiceState); and Contributor
// Insights' configuration across restarts, saved as DB metadata on each
// change and put back when a namespace is loaded (its Loaded hook),
// forgotten with a deleted table or GSI (its Dropped and
// IndexDropped hooks). Contributor Insights' operations
// (emulator/internal/contributorinsights) reach the recorder through
// RecorderOf, Existing and SaveContributorInsights.
//
// Its locks: settings.mu serializes the settings' changes with the
// making of recorders (the namespaces' list and each recorder's mutex
// inside it, one at a time), settings.saveMu the saves (taken with no
// lock held, or under the core's table.mu when a table or GSI is
// deleted; a recorder's mutex, then the DB's SetMeta, inside it); a
// recorder's mutex is a leaf, taken in End, under storage's locks for a
// batch's items.
package insights
