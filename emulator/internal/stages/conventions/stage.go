package conventions

import (
	"github.com/dynamoemu/dynamoemu/conventions"
	"github.com/dynamoemu/dynamoemu/emulator/internal/convcheck"
	"github.com/dynamoemu/dynamoemu/emulator/internal/service"
	reportstage "github.com/dynamoemu/dynamoemu/emulator/internal/stages/insights"
	"github.com/dynamoemu/dynamoemu/internal/insights"
	"github.com/dynamoemu/dynamoemu/internal/storage"
)

// Stage is the conventions check's stage (service.Stage,
// service.KeyGuard, service.WriteChecker and service.Hooker).
type Stage struct{}

// The checks the core finds by type assertion: a method missing would
// drop the check without a word.
var (
	_ service.KeyGuard     = Stage{}
	_ service.WriteChecker = Stage{}
	_ service.Hooker       = Stage{}
)

// Hooks make the service's conventions layer (configure), guard a call
// that reads or changes a table as a whole (checkCall: calls.go), check a
// table's definition as it is made, tagged or its stream changed
// (checkDefinition), and take a table read back, copied or restored
// (loadedDefinition).
func (Stage) Hooks() service.Hooks {
	return service.Hooks{Configure: configure, CheckCall: checkCall, CheckDefinition: checkDefinition, LoadedDefinition: loadedDefinition}
}

var (
	// states are each service's conventions layer.
	states = service.NewServiceState(func(*service.Service) *state { return &state{} })
	// policies are each table's policy (nil: the table does not opt in).
	policies = service.NewTableState[convcheck.Policy]()
)

// state is a service's conventions layer, made by configure.
type state struct{ st *convcheck.State }

// Setting is the key of the conventions check's configuration, a
// *conventions.Config, in service.Config.Settings.
var Setting service.SettingOf[*conventions.Config]

// configure makes the service's layer from its *conventions.Config
// setting (none: the tables' tags alone).
func configure(s *service.Service) error {
	cfg, _ := Setting.Of(s)
	st, err := convcheck.New(cfg, s.Log(), func() *insights.Design { return reportstage.Design(s) })
	if err != nil {
		return err
	}
	states.For(s).st = st
	return nil
}

// Watches is false: the stage takes part in no use, only in the seam's
// checks.
func (Stage) Watches(service.Table) bool { return false }

// Begin does nothing (never called: Watches is false).
func (Stage) Begin(*service.TableUse) error { return nil }

// End does nothing (never called: Watches is false).
func (Stage) End(*service.TableUse, service.Outcome) {}

// req is the request as the rules see it.
func req(c service.Call) convcheck.Req {
	return convcheck.Req{Op: c.Op(), RequestID: c.RequestID(), Now: c.Now(), AccessKey: c.Caller(),
		TenantHdr: c.Tenant(), Log: c.Space().Log()}
}

// table is t as the rules check its definition, with the stream of its
// published definition.
func table(t service.Table) convcheck.Table {
	ks := t.Schema()
	ct := convcheck.Table{Name: t.Info().Name, Keys: conventions.KeySchema{
		Partition: conventions.KeyAttribute{Name: ks.Partition.Name, Type: ks.Partition.Kind.String()},
		Sort:      conventions.KeyAttribute{Name: ks.Sort.Name, Type: ks.Sort.Kind.String()}}}
	if view := t.Definition().StreamView(); view != "" {
		ct.StreamEnabled, ct.StreamView = true, view
	}
	return ct
}

// tagMap is tags as the rules read them.
func tagMap(tags []service.TagDesc) map[string]string {
	m := make(map[string]string, len(tags))
	for _, tg := range tags {
		m[tg.Key] = tg.Value
	}
	return m
}

// checkDefinition resolves t's policy from tags and the configuration
// when t is created or tagged (kept once the change is recorded), checks
// rule A11 when UpdateTable changed the stream of a table that opted in,
// and guards a table copied (copied).
func checkDefinition(c service.Call, t service.Table, change service.DefinitionChange, tags []service.TagDesc) (func(), error) {
	if change == service.DefinitionCopied {
		return nil, copied(c, t, tags)
	}
	if change == service.DefinitionStreamChanged {
		if p := policies.Load(t); p != nil {
			ct := table(t)
			p.CheckStream(req(c), t.Info().Name, ct.StreamEnabled, ct.StreamView)
		}
		return nil, nil
	}
	st := states.Of(c).st
	p, err := st.Attach(req(c), table(t), tagMap(tags), c.Op() == "CreateTable", c.Space().TableNames)
	if err != nil {
		return nil, err
	}
	return func() { store(t, p) }, nil
}

// loadedDefinition rebuilds the policy of a table read back, copied or
// restored.
func loadedDefinition(sp service.Space, t service.Table, tags []service.TagDesc) {
	store(t, states.In(sp).st.Restored(t.Info().Name, tagMap(tags)))
}

// store keeps p as t's policy. It may come after t's definition was
// published (CreateTable publishes it before its done), so the core asks
// GuardsKeys again unless t had no policy and still has none.
func store(t service.Table, p *convcheck.Policy) {
	old := policies.Load(t)
	policies.Store(t, p)
	if old != nil || p != nil {
		t.Reask()
	}
}

// GuardsKeys reports whether t opted in: a table without a policy has
// no key of it put to the guards.
func (Stage) GuardsKeys(t service.Table) bool { return policies.Load(t) != nil }

// GuardKey is the tenant guard (rule B10) for one key of t: an
// AccessDeniedException when the caller is bound to a tenant that may
// not use the key's (warn mode: reported only).
func (Stage) GuardKey(c service.Call, t service.Table, k storage.Key) error {
	p := policies.Load(t)
	if p == nil {
		return nil
	}
	return p.GuardKey(req(c), t.Info().Name, k)
}

// GuardRead is rule A14 for one key a read names: a data table read by
// a versioned sort key.
func (Stage) GuardRead(c service.Call, t service.Table, k storage.Key) error {
	p := policies.Load(t)
	if p == nil || !t.Schema().HasSort() || k.Sort.Kind() != storage.KindS {
		return nil
	}
	return p.CheckRead(req(c), t.Info().Name, k)
}

// GuardScan is the tenant guard for a read not confined to one of the
// table's partitions: a Scan, or a read of a secondary index. A Query of
// one index partition (partition valid) is judged by its key: a local
// index's partition key is the table's (GuardKey), a global index's
// must name the caller's tenant (rule B10, as rule B16 keeps index keys).
func (Stage) GuardScan(c service.Call, t service.Table, index string, partition storage.Value) error {
	p := policies.Load(t)
	switch {
	case p == nil:
		return nil
	case !partition.IsValid():
		return p.GuardScan(req(c), t.Info().Name, index)
	}
	_, lsis := t.Indexes()
	for _, x := range lsis {
		if x.Name == index {
			return p.GuardKey(req(c), t.Info().Name, storage.Key{Partition: partition})
		}
	}
	return p.GuardIndex(req(c), t.Info().Name, index, partition)
}
