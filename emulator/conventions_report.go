package emulator

import (
	"github.com/dynamoemu/dynamoemu/conventions"
	convstage "github.com/dynamoemu/dynamoemu/emulator/internal/stages/conventions"
)

// The conventions layer at the edge: the caller's tenant header, which the
// conventions stage's tenant guard reads, and the report of violations over HTTP
// (GET and DELETE adminpath.Conventions) and in Go.

// headerTenantCode names the caller's tenant, as the framework's
// x-tenant-code request header does.
const headerTenantCode = "X-Tenant-Code"

// ConventionsReport returns the conventions violations seen since the
// emulator started or the report was last reset: totals, and per table (in
// name order) the counts by rule and one entry per distinct violation,
// most recently seen first.
func (e *Emulator) ConventionsReport() conventions.Snapshot {
	return convstage.Report(e.svc)
}

// ResetConventionsReport empties the report, so that a test can assert
// that what it does next makes no violation.
func (e *Emulator) ResetConventionsReport() {
	convstage.ResetReport(e.svc)
}
