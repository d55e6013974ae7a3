// Package throttle is capacity throttling's stage of the request
// pipeline: it plugs into the service core through the stage seam
// (emulator/internal/service/stage.go), wired in emulator/features.go
// after the other stages, so that no stage refuses a use after the
// throttler admitted it (a batch's item takes its units at admission).
// The core names nothing of it.
//
// Each namespace has a Throttler (internal/faults/throttle), made at its
// first use with the service's throttle.Settings (the emulator's
// FaultOptions.Throttle, in service.Config.Settings). Which tables it
// throttles, and with what capacity, is computed from each definition
// of a table (its billing mode, provisioned throughput, GSIs, vector
// indexes and the tags throttle.Tag and throttle.VectorSearchTag) when
// the seam asks Watches, once per definition, and kept on the table
// (a service.TableState). Begin admits a use (the table or the GSI read,
// and for a write every GSI of the table: AWS throttles a table's
// writes when a GSI is out of write capacity); End charges what it
// consumed, and each GSI the write updated. A deleted table's buckets
// go with it (its Dropped hook).
//
// The stage's locks are the throttler's mutex, a leaf taken in Begin
// and End (under storage's locks for a batch's items, which are charged
// inside its transaction), and space.mu, which makes a namespace's
// throttler and takes nothing inside.
package throttle
