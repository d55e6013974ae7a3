// Package stagestate is the saved form of a namespace's stage state
// with -dbPath, and the settings it is made from: the Contributor
// Insights configuration and the lags, each one JSON DB metadata key
// (logged and kept in snapshots as any metadata record is), versioned;
// and the lag settings given at start (LagSetting). The stages decide
// when to save and what to put back (the insights stage's recorder.go,
// the lag stage's persist.go); this package only encodes and decodes, so the
// format is fixed by the data directories already written.
package stagestate
