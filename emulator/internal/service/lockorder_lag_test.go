package service

import (
	"math/rand/v2"
	"time"

	"github.com/dynamoemu/dynamoemu/emulator/internal/stagestate"
)

// The lag stage (emulator/internal/stages/lag) in the core's own tests:
// the stage imports the core, so only the external test package
// (wired_test.go) may import it; it installs the stage and
// fills LagHooks.

// LagGate is a lag gate as the core's tests move it.
type LagGate interface {
	Hold()
	Release()
	SetDelay(time.Duration)
}

// LagHooks reach the lag stage from the core's tests.
var LagHooks struct {
	// Settings returns a Config.Settings value of the stage holding ls,
	// and a function that replaces them.
	Settings func(ls []stagestate.LagSetting) (setting Setting, set func([]stagestate.LagSetting))
	// IndexLag and ReadLag return the gate of a GSI, and of a table's
	// eventually consistent reads, in a namespace of s.
	IndexLag func(s *Service, accessKey, region, table, index string) (LagGate, error)
	ReadLag  func(s *Service, accessKey, region, table string) (LagGate, error)
	// Fuzzer returns a Config.Settings value of the stage that puts
	// the service in consistency fuzzing with seed.
	Fuzzer func(seed uint64) Setting
}

// The lags in TestLockOrder: GSIs held from their creation (lag
// settings), and a lagger that takes the gates of GSIs and of
// eventually consistent reads while the changers add and delete GSIs and
// the writers write, holding, releasing and delaying them. Gates are
// stamped under storage's locks and read by lagged reads: the order
// service/doc.go writes down ("Locks").

// lockOrderLagKey and lockOrderLagRegion are testkit.DefaultAuth's namespace.
const lockOrderLagKey, lockOrderLagRegion = "AKID1", "us-east-1"

// lagConfig is the configuration of TestLockOrder's service: its lag
// settings hold every GSI of the tables from its creation; with fuzz,
// consistency fuzzing (seeded by the test's seed) puts every view in
// fuzz mode at each new definition, ending the settings' holds.
func (env *lockOrderEnv) lagConfig(fuzz bool) Config {
	var ls []stagestate.LagSetting
	for _, name := range lockOrderTables {
		ls = append(ls, stagestate.LagSetting{Table: name, Index: "*", Hold: true})
	}
	setting, set := LagHooks.Settings(ls)
	env.setLags = set
	cfg := Config{Settings: []Setting{setting}}
	if fuzz {
		cfg.Settings = append(cfg.Settings, LagHooks.Fuzzer(env.seed))
	}
	return cfg
}

// lagStep takes a gate and moves it.
func (env *lockOrderEnv) lagStep(r *rand.Rand) {
	name := lockOrderTables[r.IntN(len(lockOrderTables))]
	var g LagGate
	var err error
	if r.IntN(2) == 0 {
		g, err = LagHooks.IndexLag(env.e, lockOrderLagKey, lockOrderLagRegion, name, "by-g")
	} else {
		g, err = LagHooks.ReadLag(env.e, lockOrderLagKey, lockOrderLagRegion, name)
	}
	if err != nil { // no such table or GSI right now
		env.count("lag: no gate", 1)
		return
	}
	switch r.IntN(4) {
	case 0:
		g.Hold()
	case 1:
		g.SetDelay(time.Millisecond)
	default:
		g.Release()
	}
	env.count("lag: gate moved", 1)
}

// unlag ends every lag, so that checkTable sees every write.
func (env *lockOrderEnv) unlag() {
	env.setLags(nil)
	for _, name := range lockOrderTables {
		if g, err := LagHooks.IndexLag(env.e, lockOrderLagKey, lockOrderLagRegion, name, "by-g"); err == nil {
			g.SetDelay(0)
		}
		if g, err := LagHooks.ReadLag(env.e, lockOrderLagKey, lockOrderLagRegion, name); err == nil {
			g.SetDelay(0)
		}
	}
}
