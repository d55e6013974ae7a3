package service

import (
	"math/rand/v2"
	"time"
)

// The lags in TestLockOrder: GSIs held from their creation (lag
// settings), and a lagger that takes the gates of GSIs and of
// eventually consistent reads while the changers add and delete GSIs and
// the writers write, holding, releasing and delaying them. Gates are
// stamped under storage's locks and read by lagged reads: the order
// service/doc.go writes down ("Locks").

// lockOrderLagKey and lockOrderLagRegion are testkit.DefaultAuth's namespace.
const lockOrderLagKey, lockOrderLagRegion = "AKID1", "us-east-1"

// lagSettings hold every GSI of the tables from its creation.
func (env *lockOrderEnv) lagSettings() {
	var ls []LagSetting
	for _, name := range lockOrderTables {
		ls = append(ls, LagSetting{Table: name, Index: "*", Hold: true})
	}
	env.e.SetLagSettings(ls)
}

// lagStep takes a gate and moves it.
func (env *lockOrderEnv) lagStep(r *rand.Rand) {
	name := lockOrderTables[r.IntN(len(lockOrderTables))]
	var g interface {
		Hold()
		Release()
		SetDelay(time.Duration)
	}
	var err error
	if r.IntN(2) == 0 {
		g, err = env.e.IndexLag(lockOrderLagKey, lockOrderLagRegion, name, "by-g")
	} else {
		g, err = env.e.TableReadLag(lockOrderLagKey, lockOrderLagRegion, name)
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
	env.e.SetLagSettings(nil)
	for _, name := range lockOrderTables {
		if g, err := env.e.IndexLag(lockOrderLagKey, lockOrderLagRegion, name, "by-g"); err == nil {
			g.SetDelay(0)
		}
		if g, err := env.e.TableReadLag(lockOrderLagKey, lockOrderLagRegion, name); err == nil {
			g.SetDelay(0)
		}
	}
}
