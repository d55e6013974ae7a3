package adminhttp

import (
	"io"
	"time"

	"github.com/dynamoemu/dynamoemu/conventions"
	"github.com/dynamoemu/dynamoemu/emulator/internal/httpedge"
	"github.com/dynamoemu/dynamoemu/emulator/internal/service"
	"github.com/dynamoemu/dynamoemu/internal/faults"
)

// Host is what the admin endpoints ask of the emulator through its Go
// API (the emulator's *Emulator is one).
type Host interface {
	Now() time.Time
	SetNow(t time.Time) (time.Time, error)
	Advance(d time.Duration) (time.Time, error)
	SweepTTL() int
	ConventionsReport() conventions.Snapshot
	ResetConventionsReport()
	WriteReport(w io.Writer) error
	ResetReport()
	SetReporting(on bool)
	SetDesign(src []byte) error
}

// Paths are the admin paths an answer names (the emulator's exported
// constants).
type Paths struct {
	Namespaces  string // the namespaces endpoint, named by a bad tables request
	Report      string // the access-pattern report
	Conventions string // the conventions report
}

// Admin serves the admin endpoints the emulator routes to its methods.
// Every field is set once, before the first request, and read only.
type Admin struct {
	Host     Host
	CORS     *httpedge.CORS   // the headers every answer gets
	Svc      *service.Service // the namespaces, the report's recorders
	Faults   *faults.Injector // the fault rules
	SharedDB bool             // -sharedDb: one namespace for every key
	Paths    Paths
	// Lag returns the gate of a table's view: of its GSI index, of its
	// eventually consistent reads (reads), else of its stream.
	Lag func(accessKey, region, table, index string, reads bool) (Gate, error)
}
