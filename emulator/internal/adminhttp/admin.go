package adminhttp

import (
	"context"
	"io"
	"time"

	"github.com/dynamoemu/dynamoemu/conventions"
	"github.com/dynamoemu/dynamoemu/emulator/internal/httpedge"
	"github.com/dynamoemu/dynamoemu/emulator/internal/service"
	"github.com/dynamoemu/dynamoemu/internal/faults"
	"github.com/dynamoemu/dynamoemu/internal/persist"
	"github.com/dynamoemu/dynamoemu/internal/storage"
)

// Host is what the admin endpoints ask of the emulator through its Go
// API (the emulator's adminHost: its handles' methods, flat).
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
	ResetConsistencyReport()
	Snapshot() string
	Restore(id string) error
	DropSnapshot(id string) error
	DropBranch(name string) error
	DrainStreams(ctx context.Context) error
}

// Answers are the Go API's answers whose types are the emulator's, as
// values to encode as JSON.
type Answers struct {
	Fork        func(base, name string) (any, error) // Branches.Fork
	Branches    func() any                           // Branches.List
	Consistency func() any                           // Reports.Consistency
	Mappings    func() any                           // Streams.Mappings
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
	Lag     func(accessKey, region, table, index string, reads bool) (Gate, error)
	Answers Answers
	IAM     IAM // the IAM policy mode

	// The snapshots kept, in the order they were taken; NoSnapshot is
	// the error of an ID none has (wrapped by Host's Restore and
	// DropSnapshot).
	Snapshots  func() []KeptSnapshot
	NoSnapshot error
	// Branch returns branch name's namespace and base (an error when
	// there is none); SnapshotOf a namespace's snapshot as a fork takes
	// it.
	Branch     func(name string) (namespace, base string, err error)
	SnapshotOf func(id string) *storage.Snapshot

	DataDir      string                   // the data directory, "" in memory
	Problems     func() []persist.Problem // the store's problems (nil in memory)
	DrainTimeout time.Duration            // a drain's timeout when its body names none
}
