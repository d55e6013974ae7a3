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
// report's catalog (report.go). The recorder, its settings and its
// saving stay the core's for now (its fx.go, fx_api.go and
// fx_persist.go; Space.Insights).
//
// The stage keeps no state and takes no lock of its own: a recorder's
// mutex is a leaf.
package insights
