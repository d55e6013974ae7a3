package service

import (
	"log/slog"
	"time"

	"github.com/dynamoemu/dynamoemu/emulator/internal/streamrec"
	"github.com/dynamoemu/dynamoemu/internal/storage"
)

// Config configures a service.
type Config struct {
	// Features are the table-level features the service serves, in
	// order (feature.go): each registers its operations in New.
	Features []Feature
	// Stages are the stages of its request pipeline, in order
	// (stage.go).
	Stages   []Stage
	SharedDB bool
	Logger   *slog.Logger     // nil: discard
	Clock    func() time.Time // nil: time.Now (and RealClock)
	// RealClock says that Clock may be called from the service's own
	// goroutines (the token janitor): it is the real time, moved only by
	// an offset.
	RealClock        bool
	IdempotencyBytes int64 // 0: idempotency.DefaultBytes
	TransientDelay   time.Duration
	Streams          streamrec.Options // the streams' retention, bound and change signal (its Clock: the service's)
	// Hooks returns the commit hook of a new namespace's DB, given the
	// namespace's ID (nil, or a nil hook: none): the seam for persistence
	// (emulator/internal/catalog's doc says what a DB holds).
	Hooks func(namespace string) storage.Hook
	// DBs, when set, opens the DB of a new namespace, given its ID,
	// instead of a new empty DB with Hooks' hook: persistence
	// (persistence.go) hands out the namespace's stored DB.
	DBs func(namespace string) (*storage.DB, error)
	// Keep, when set (with DBs), returns where namespace keeps side
	// files sub ("backups", "pitr"): its backups and point-in-time
	// histories then survive restarts (emulator/internal/backups, emulator/internal/pitr).
	Keep func(namespace, sub string) (Keeper, error)
	// TableDropped is called with the size of each table DeleteTable
	// drops (nil: not at all), so that the edge can return memory.
	TableDropped func(sizeBytes int64)
	// Settings are the stages' settings, as the emulator's options
	// give them, each made by its reader's SettingOf key (stage_state.go)
	// and found by it.
	Settings []Setting
	// ApproximateVectors makes every vector index search approximately
	// (storage's HNSW graph) instead of exactly: for large local data
	// sets; results may then differ from the true nearest neighbours.
	ApproximateVectors bool
}
