package emulator

import (
	"errors"
	"fmt"
	"log/slog"
	"strings"

	"github.com/dynamoemu/dynamoemu/emulator/internal/service"
	"github.com/dynamoemu/dynamoemu/internal/persist"
	"github.com/dynamoemu/dynamoemu/internal/storage"
	"github.com/dynamoemu/dynamoemu/internal/vector"
)

// Persistence (Options.DataDir, cmd/dynamoemu's -dbPath): the
// namespaces' storage.DBs come from a persist.Store, one directory per
// namespace named as DynamoDB Local names its files
// (persist.NamespaceName(access key, region), or persist.SharedNamespace
// with SharedDB). New opens the directory, loads every namespace this
// emulator serves (a SharedDB emulator the shared one, any other the
// others) and has the service rebuild each one's catalog from its DB
// (internal/service/persistence.go); namespaces created later get their
// directory when their first table is created. Without DataDir nothing
// here runs: a namespace's DB has no hook and the write path is
// untouched.
//
// What a DB holds, and so what survives a restart, is written down in
// internal/catalog/doc.go: items, tables and every part of
// their definitions (indexes, tags, TTL, stream settings and the
// stream's identity), from which the conventions policies and item
// collection tracking are rebuilt; and the streams (their records within
// the retention, their sequence numbers, disabled streams still listed),
// rebuilt from the log and kept in snapshots by the service's sidecar
// (internal/streamrec/sidecar.go); ClientRequestTokens within their
// window (internal/service/idempotency_persist.go); the clock's offset
// (clock_persist.go). Not kept: the conventions report.
//
// A change the log refuses (a full disk, an I/O error, the store closed)
// is undone by storage and answered 500 InternalServerError (apierr:
// storage.ErrHookFailed); a change made but whose fsync failed is
// answered 500 too (storage.ErrNotDurable). Reads go on either way.

// progressMinBytes is the size of a file below which its load is not
// reported as it goes.
const progressMinBytes = 32 << 20

// openStore opens o.DataDir with o.Persist, logging to log. The log's
// records are stamped with the emulator's clock and each namespace's
// streams are kept by the service's sidecar (a streamrec.Sidecar, made by
// the service's StreamSidecar; e.svc is set before any namespace is opened).
func (e *Emulator) openStore(o Options, log *slog.Logger) (*persist.Store, error) {
	po := o.Persist.store()
	po.Clock = e.clock
	po.Sidecar = func(name string) persist.Sidecar {
		key, region, shared, ok := persist.ParseNamespaceName(name)
		switch {
		case !ok:
			return nil
		case shared:
			return e.svc.StreamSidecar("shared")
		}
		return e.svc.StreamSidecar(key + "/" + region)
	}
	if po.Logger == nil {
		po.Logger = log
	}
	po.Progress = func(p persist.Progress) {
		if p.Total < progressMinBytes {
			return // a short load: its "namespace loaded" line says it all
		}
		log.Info("loading namespace", "namespace", p.Namespace, "phase", p.Phase, "file", p.File,
			"bytes", p.Bytes, "total", p.Total, "items", p.Items, "records", p.Records, "done", p.Done)
	}
	po.VectorIndexes = vector.Options{Approximate: o.ApproximateVectors}
	st, err := persist.Open(o.DataDir, po)
	if err != nil {
		return nil, fmt.Errorf("-dbPath %s: %w", o.DataDir, err)
	}
	return st, nil
}

// persistName is the store's name of the namespace of ID id ("shared" or
// "<access key id>/<region>").
func persistName(id string) string {
	if id == "shared" {
		return persist.SharedNamespace
	}
	key, region, _ := strings.Cut(id, "/")
	return persist.NamespaceName(key, region)
}

// storeDBs returns the service's DBs function over st.
func storeDBs(st *persist.Store) func(id string) (*storage.DB, error) {
	return func(id string) (*storage.DB, error) { return st.DB(persistName(id)) }
}

// loadNamespaces loads the namespaces of st that s serves and rebuilds
// their catalogs. A namespace that does not load (persist refuses what it
// cannot read whole) fails it: better no server than one missing data.
func loadNamespaces(s *service.Service, st *persist.Store, log *slog.Logger) error {
	names, err := st.Namespaces()
	if err != nil {
		return err
	}
	for _, name := range names {
		key, region, shared, ok := persist.ParseNamespaceName(name)
		if !ok || shared != s.SharedDB() {
			log.Info("not loading a namespace directory this server does not serve (see -sharedDb)", "namespace", name)
			continue
		}
		if _, err := st.DB(name); err != nil {
			if errors.Is(err, persist.ErrIncomplete) {
				err = fmt.Errorf("%w; -dbAcceptLoss (PersistOptions.AcceptLoss) opens it at the records before the first one missing, losing the rest", err)
			}
			return err
		}
		id := "shared"
		if !shared {
			id = key + "/" + region
		}
		ns := s.Namespace(id)
		if ns == nil {
			continue
		}
		tables, err := ns.RebuildCatalog()
		if err != nil {
			return fmt.Errorf("namespace %s: %w", name, err)
		}
		rec, _ := st.Recovery(name)
		attrs := []any{"namespace", name, "tables", tables, "items", rec.Items, "snapshot", rec.Snapshot,
			"records", rec.Records, "took", rec.Took}
		switch {
		case rec.Lost != "":
			log.Error("namespace loaded WITHOUT the records it was missing (-dbAcceptLoss): they are lost, every transaction before them is whole",
				append(attrs, "lost", rec.Lost, "cut", rec.Cut)...)
		case rec.Cut != "" || len(rec.Skipped) > 0:
			log.Warn("namespace loaded after recovery: data after the damage is lost, every transaction before it is whole",
				append(attrs, "cut", rec.Cut, "skippedSnapshots", strings.Join(rec.Skipped, "; "))...)
		default:
			log.Info("namespace loaded", attrs...)
		}
	}
	return nil
}
