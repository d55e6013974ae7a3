package service

import "github.com/dynamoemu/dynamoemu/internal/storage"

// Files beside a namespace's DB (Config.Keep): what a feature keeps
// there goes through a Keeper (Space.Keep).

// Keeper keeps files beside a namespace's DB (persist.SideDir, through
// the edge): table files and frame logs, as persist writes them.
type Keeper interface {
	WriteTable(name string, ts *storage.TableSnapshot, meta map[string][]byte) (int64, error)
	ReadTable(name string) (*storage.TableSnapshot, map[string][]byte, error)
	List(suffix string) ([]string, error)
	Remove(name string) error
	OpenLog(prefix string, first uint64, replay func(seq uint64, payload []byte) error) (FrameLog, error)
}

// FrameLog is an append-only log of a Keeper (persist.FrameLog).
type FrameLog interface {
	Append(payload []byte) (uint64, error)
	Sync() error
	Rotate() error
	DropThrough(seq uint64) error
	Close() error
	Remove() error
}
