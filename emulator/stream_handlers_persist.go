package emulator

// The event source mappings across restarts (Options.DataDir): every
// create, update and delete, and Close, saves the mappings with their
// checkpoints as the store's state "eventsourcemappings"
// (persist.Store.SaveState: replaced whole, durably); New makes them
// again once the namespaces, and so their streams, are loaded
// (emulator/internal/lambdaesm/persist.go), as Lambda keeps a mapping
// until it is deleted.

import (
	"fmt"

	"github.com/dynamoemu/dynamoemu/emulator/internal/lambdaesm"
)

// esmStateName is the store's state holding the event source mappings.
const esmStateName = "eventsourcemappings"

// initStreamHandlers sets the stream handlers' retry backoff and what
// they may reach and, with a store, puts back the saved mappings (each
// checked as a new one: one the options no longer allow is left out,
// with a warning) and saves each change.
func (e *Emulator) initStreamHandlers() error {
	m := e.esm()
	m.SetRetryBackoff(e.opts.StreamRetryBackoff)
	m.SetFilterQuota(e.opts.StreamHandlerFilterQuota)
	m.SetStreamChanges(&e.streamChanges)
	m.SetLogger(e.log)
	t := lambdaesm.Targets{Remote: e.opts.StreamHandlerRemote}
	if e.opts.StreamHandlerFileDir != "" {
		dir, err := lambdaesm.CleanFileDir(e.opts.StreamHandlerFileDir)
		if err != nil {
			return fmt.Errorf("StreamHandlerFileDir: %w", err)
		}
		t.FileDir = dir
	}
	m.SetTargets(t)
	if e.store == nil {
		return nil
	}
	b, err := e.store.State(esmStateName)
	if err != nil {
		return err
	}
	if b != nil {
		n, refused, err := m.Restore(b)
		for _, why := range refused {
			e.log.Warn(why)
		}
		if err != nil {
			return err
		}
		if n > 0 {
			e.log.Info("event source mappings restored", "mappings", n)
		}
	}
	m.SetSaver(func(b []byte) {
		if err := e.store.SaveState(esmStateName, b); err != nil {
			e.log.Error("cannot save the event source mappings: a restart will not keep this change", "err", err)
		}
	})
	return nil
}
