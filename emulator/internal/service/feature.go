package service

import (
	"github.com/dynamoemu/dynamoemu/emulator/internal/boundary"
	"maps"
	"reflect"
	"slices"
	"strings"
	"time"

	"github.com/dynamoemu/dynamoemu/emulator/internal/apierr"
	"github.com/dynamoemu/dynamoemu/emulator/internal/tablerec"
	"github.com/dynamoemu/dynamoemu/emulator/internal/wire"
)

// The table-feature seam. A table-level feature (resource policies,
// Kinesis destinations, transfers, backups, point-in-time recovery,
// global tables, tagging, Time to Live's operations, the Streams API,
// SearchVectors, ...) lives in a package of its own and is handed to
// the service that serves it (Config.Features): New has it register its
// operations with the service's Registrar, and it keeps its part of a
// table's definition in a slot the core carries without reading, or
// reads and changes a part the core keeps for its own operations through
// accessors (feature_definition.go and its siblings). What else it takes
// part in is the service's life (Hooks, feature_lifecycle.go), asked
// once in New: only a Starting hook runs on every request (one call,
// nothing per item), and a WrapDB hook's hook on every commit it
// selects. The core never names a feature: the emulator hands it the
// features it links (emulator/features.go), and internal/lint's seam
// test keeps the core free of their names.
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
	// Register installs the feature's operations with Op, once for each
	// service that serves it.
	Register(r Registrar)
}

// Registrar is what New hands a feature's Register: the way to add
// operations to the service's operation table.
type Registrar struct {
	sm      *seams
	feature string
}

// seams is what a service's features and stages plugged into it (New's
// plug), read-only once New returns: its operation table and the hooks,
// checks and stages each request meets, in Config's order (the
// features', then the stages').
type seams struct {
	ops        map[string]*opHandler // by name; another API's by its whole target (APIOp)
	apis       []string              // the X-Amz-Target prefixes of the other APIs (APIOp)
	limits     *wire.Limits          // the decoder's: the core's rows and the features' (limits.go)
	features   []string              // the features' names
	extMembers map[string][]string   // the "ext" members of each feature that has them (Registrar.ExtMembers)
	members    []*ownedMember        // the UpdateTable members the features own (UpdateTableMember)

	hooks      []Hooks                         // the features' and the stages' (Hooker)
	starting   []func(*Service, time.Time)     // their Starting hooks: on every request
	checkCalls []func(Call, string, any) error // their CheckCall hooks: on every other call

	stages []Stage        // the pipeline's (stage.go)
	guards []KeyGuard     // the stages that are KeyGuards (stage_check.go)
	writes []WriteChecker // the stages that are WriteCheckers (stage_check.go)
}

// plug installs the core's operations, then the features' and the
// stages': two features of one name, a feature named as a member of the
// table record (its slot would be read from it), or an operation
// registered twice, panics (a wiring bug).
func (sm *seams) plug(features []Feature, stages []Stage) {
	sm.ops, sm.limits = make(map[string]*opHandler, 96), coreLimits()
	sm.core() // register.go
	members := recordMembers()
	for _, f := range features {
		name := f.Name()
		if name == "" || slices.Contains(sm.features, name) {
			panic("emulator: feature without a name or used twice: " + name)
		}
		if slices.Contains(members, name) {
			panic("emulator: a feature named as a member of the table record: " + name)
		}
		sm.features = append(sm.features, name)
		f.Register(Registrar{sm: sm, feature: name})
		sm.hook(f)
	}
	for _, st := range stages {
		sm.stages = append(sm.stages, st)
		if g, ok := st.(KeyGuard); ok {
			sm.guards = append(sm.guards, g)
		}
		if w, ok := st.(WriteChecker); ok {
			sm.writes = append(sm.writes, w)
		}
		sm.hook(st)
	}
}

// hook keeps v's Hooks, if it has any.
func (sm *seams) hook(v any) {
	h, ok := v.(Hooker)
	if !ok {
		return
	}
	hs := h.Hooks()
	sm.hooks = append(sm.hooks, hs)
	if hs.Starting != nil {
		sm.starting = append(sm.starting, hs.Starting)
	}
	if hs.CheckCall != nil {
		sm.checkCalls = append(sm.checkCalls, hs.CheckCall)
	}
}

// recordMembers are the members of the table record
// (catalog_record.go), and "ext", the object old records kept features'
// parts in: a feature's slot is read from the member of its feature's
// name, so a feature may not be named as one. plug reads the record's
// type once for all the features (once per feature, it was 16% of New's
// CPU: BenchmarkNew).
func recordMembers() []string {
	typ := reflect.TypeFor[tablerec.Table]()
	names := append(make([]string, 0, typ.NumField()+1), "ext")
	for i := range typ.NumField() {
		tag, _, _ := strings.Cut(typ.Field(i).Tag.Get("json"), ",")
		names = append(names, tag)
	}
	return names
}

// Op registers a feature's operation with what it touches, d: the
// core's adapter decodes its input, puts it once per call to the stages
// as any control-plane operation (the CheckCall hooks, stage.go, which
// judge d) and encodes its output. One that reads a table's items (d.On
// boundary.Items: SearchVectors, PartiQL) is a data-plane operation,
// run inside the request pipeline's stages (pipeline.go) as the core's
// own, which reaches them through Call's scope (Call.Search);
// TestPipeline walks it through every stage.
func Op[In, Out any](r Registrar, name string, d boundary.Decl, f func(c Call, in *In) (*Out, error)) {
	r.sm.install(name, d, (*In)(nil), (*Out)(nil), func(c *call, in any) (any, bool, error) {
		out, err := f(Call{c: c}, in.(*In))
		return out, out == nil, err
	})
}

// Call is one request as a feature's operation sees it.
type Call struct{ c *call }

// Declared is what the request's operation declared it touches.
func (c Call) Declared() boundary.Decl { return c.c.decl }

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
func (t Table) StreamLabel() string { return t.t.snapshot().StreamLabel }

// APIOp registers a feature's operation of another API served on the
// same port (the DynamoDB Streams API), under its whole X-Amz-Target:
// prefix and name. Lookup finds it by that target and names it by name
// (a stage's rules name it so); DynamoDB's own operations keep their
// prefix.
func APIOp[In, Out any](r Registrar, prefix, name string, d boundary.Decl, f func(c Call, in *In) (*Out, error)) {
	if !slices.Contains(r.sm.apis, prefix) {
		r.sm.apis = append(r.sm.apis, prefix)
	}
	Op(r, prefix+name, d, f)
}

// ExtMembers names the members of the "ext" object that definition
// records of an earlier version kept the feature's part in, rather than
// one member named by the feature: the slot of such a record is the
// object of those members it has.
func (r Registrar) ExtMembers(names ...string) {
	if r.sm.extMembers == nil {
		r.sm.extMembers = map[string][]string{}
	}
	r.sm.extMembers[r.feature] = names
}

// Registered reports whether an operation is registered under name
// (another API's operation under its whole target: APIOp), by the core
// or one of the service's features.
func (s *Service) Registered(name string) bool {
	_, ok := s.seams.ops[name]
	return ok
}

// Operations returns the names every operation of the service is
// registered under, in ascending order.
func (s *Service) Operations() []string { return slices.Sorted(maps.Keys(s.seams.ops)) }

// Space is the table's namespace.
func (t Table) Space() Space { return Space{ns: t.t.ns} }
