package service

import (
	"maps"
	"reflect"
	"slices"
	"strings"
	"time"

	"github.com/dynamoemu/dynamoemu/emulator/internal/apierr"
	"github.com/dynamoemu/dynamoemu/emulator/internal/tablerec"
)

// The table-feature seam. A table-level feature (resource policies,
// Kinesis destinations, transfers, backups, point-in-time recovery,
// global tables, tagging, Time to Live's operations, the Streams API,
// SearchVectors, ...) lives in a package of
// its own and plugs into the core here: it registers its operations and
// keeps its part of a table's definition in a slot the core carries
// without reading, or reads and changes a part the core keeps for its
// own operations through accessors (feature_definition.go and its
// siblings). What else it
// may take part in is an optional interface, looked up once in Use
// (feature_*.go): only a Starter runs on every request (one call, nothing
// per item), and a Hooker's hook on every commit it selects. The core
// never names a feature: the emulator wires the features it links
// (emulator/features.go), and internal/lint's seam test keeps the core
// free of their names.
//
// A feature's slot is JSON of its own making, kept in the table's
// definition (tableMeta.features) and in the table's record under the
// feature's name (catalog_record.go), so replay, persistence, snapshots
// and backups carry it with the rest of the definition and it goes with
// the table.

// Feature is a table-level feature.
type Feature interface {
	// Name is the key of the feature's slot in a table's definition and
	// record: stable, since records on disk hold it.
	Name() string
	// Register installs the feature's operations with Op.
	Register(r Registrar)
}

// Registrar is what Use hands a feature's Register: the way to add
// operations to the operation table.
type Registrar struct{ feature string }

// features are the names of the features in use, in the order Use got
// them. Filled by init functions only; read-only afterwards.
var features []string

// Use plugs f into the core. Call it from an init function (the
// operation table is filled before any request is served); using two
// features of one name, a feature named as a member of the table record
// (its slot would be read from it), or registering an operation twice,
// panics.
func Use(f Feature) {
	name := f.Name()
	if name == "" || slices.Contains(features, name) {
		panic("emulator: feature without a name or used twice: " + name)
	}
	if recordMember(name) {
		panic("emulator: a feature named as a member of the table record: " + name)
	}
	features = append(features, name)
	f.Register(Registrar{feature: name})
	if l, ok := f.(Loader); ok {
		loaders = append(loaders, l)
	}
	if o, ok := f.(Opener); ok {
		openers = append(openers, o)
	}
	if d, ok := f.(Dropper); ok {
		droppers = append(droppers, d)
	}
	if h, ok := f.(Hooker); ok {
		hookers = append(hookers, h)
	}
	if d, ok := f.(Definer); ok {
		definers = append(definers, d)
	}
	if c, ok := f.(Closer); ok {
		closers = append(closers, c)
	}
	if s, ok := f.(Starter); ok {
		starters = append(starters, s)
	}
	if d, ok := f.(Describer); ok {
		describers = append(describers, d)
	}
	if d, ok := f.(DropChecker); ok {
		dropCheckers = append(dropCheckers, d)
	}
	if u, ok := f.(UpdateChecker); ok {
		updateCheckers = append(updateCheckers, u)
	}
	if x, ok := f.(ExtMembered); ok {
		if extMembers == nil {
			extMembers = map[string][]string{}
		}
		extMembers[name] = x.ExtMembers()
	}
}

// recordMember reports whether name is a member of the table record
// (catalog_record.go), or "ext", the object old records kept features'
// parts in: a feature's slot is read from the member of its feature's
// name, so a feature may not be named as one.
func recordMember(name string) bool {
	if name == "ext" {
		return true
	}
	typ := reflect.TypeFor[tablerec.Table]()
	for i := range typ.NumField() {
		if tag, _, _ := strings.Cut(typ.Field(i).Tag.Get("json"), ","); tag == name {
			return true
		}
	}
	return false
}

// Op registers a feature's operation: the core's adapter decodes its
// input, puts it once per call to the stages as any control-plane
// operation (the installed CallCheckers, stage.go) and encodes its output.
func Op[In, Out any](r Registrar, name string, f func(c Call, in *In) (*Out, error)) {
	register(name, func(c *call, in *In) (*Out, error) { return f(Call{c: c}, in) })
}

// DataOp registers a feature's operation that reads a table's items
// (SearchVectors): a data-plane operation, run inside the request
// pipeline's stages (pipeline.go) as the core's own, which reaches them
// through Call's entry points (BeginSearch, Searched). TestPipeline walks
// it through every stage.
func DataOp[In, Out any](r Registrar, name string, f func(c Call, in *In) (*Out, error)) {
	registerDataPlane(name, func(c *call, in *In) (*Out, error) { return f(Call{c: c}, in) })
}

// Call is one request as a feature's operation sees it.
type Call struct{ c *call }

// Now is the time the request arrived.
func (c Call) Now() time.Time { return c.c.now }

// TableARN is the ARN of the table name in the request's region and
// account ("" names the prefix every table ARN of the request's
// namespace starts with).
func (c Call) TableARN(name string) string { return c.c.tableARN(name) }

// Table returns the table name of the request's namespace, or false.
func (c Call) Table(name string) (Table, bool) {
	t := c.c.ns.getTable(name)
	return Table{t: t}, t != nil
}

// LookupTable returns the table a control-plane request names (its
// name or ARN), with the checks and ResourceNotFoundException
// ("Requested resource not found: Table: <name> not found") the core's
// own control-plane operations give.
func (c Call) LookupTable(name string) (Table, error) {
	t, err := c.c.lookupTableMsg(name, apierr.MsgTableNotFound(name))
	if err != nil {
		return Table{}, err
	}
	return Table{t: t}, nil
}

// TransientUntil is when a state that AWS keeps for a while (ENABLING,
// UPDATING, ...) and that starts now ends, by the service's
// TransientDelay.
func (c Call) TransientUntil() time.Time { return c.c.transientUntil() }

// transientUntil is when a state that AWS keeps for a while (ENABLING,
// UPDATING, ...) ends: now plus the configured TransientDelay (0: the
// state is answered once, by the request that starts it).
func (c *call) transientUntil() time.Time { return c.now.Add(c.svc.cfg.TransientDelay) }

// Table is a table as a feature sees it.
type Table struct{ t *table }

// StreamLabel is the label of the table's latest stream ("" if it never
// had one).
func (t Table) StreamLabel() string { return t.t.snapshot().streamLabel }

// APIOp registers a feature's operation of another API served on the
// same port (the DynamoDB Streams API), under its whole X-Amz-Target:
// prefix and name. Lookup finds it by that target and names it by name
// (a stage's rules name it so); DynamoDB's own operations keep their
// prefix.
func APIOp[In, Out any](r Registrar, prefix, name string, f func(c Call, in *In) (*Out, error)) {
	if !slices.Contains(apiPrefixes, prefix) {
		apiPrefixes = append(apiPrefixes, prefix)
	}
	Op(r, prefix+name, f)
}

// apiPrefixes are the X-Amz-Target prefixes of the other APIs the
// features in use serve (APIOp). Filled by init functions only;
// read-only afterwards.
var apiPrefixes []string

// Registered reports whether an operation is registered under name
// (another API's operation under its whole target: APIOp), by the core
// or a feature in use.
func Registered(name string) bool {
	_, ok := ops[name]
	return ok
}

// Operations returns the names every operation is registered under, in
// ascending order.
func Operations() []string { return slices.Sorted(maps.Keys(ops)) }

// Space is the table's namespace.
func (t Table) Space() Space { return Space{ns: t.t.ns} }
