package catalog

import (
	"errors"
	"strings"

	"github.com/dynamoemu/dynamoemu/internal/storage"
)

// Key selects a namespace: the shared one, or one access key id +
// region; with Shared, a non-empty AccessKey is the name of a branch of
// the shared namespace (emulator/branches.go), which has no region as
// the shared namespace has none.
type Key struct {
	Shared            bool
	AccessKey, Region string
}

// String is the namespace ID of k: "shared", "shared/NAME" for branch
// NAME of the shared namespace, or "AKID/region".
func (k Key) String() string {
	if k.Shared {
		if k.AccessKey != "" {
			return "shared/" + k.AccessKey
		}
		return "shared"
	}
	return k.AccessKey + "/" + k.Region
}

// KeyOf returns the Key of namespace ID id ("AKID/region", "shared" or,
// when shared, "shared/NAME"), its strings parts of id's, or false when
// id names no namespace a service with one shared namespace (shared) or
// one per key and region could serve.
func KeyOf(shared bool, id string) (Key, bool) {
	if shared {
		switch {
		case id == "shared":
			return Key{Shared: true}, true
		case strings.HasPrefix(id, "shared/") && len(id) > len("shared/"):
			return Key{Shared: true, AccessKey: id[len("shared/"):]}, true
		}
		return Key{}, false
	}
	key, region, ok := strings.Cut(id, "/")
	return Key{AccessKey: key, Region: region}, ok
}

// FailingHook refuses every change with Err: the hook of a namespace
// whose stored DB could not be opened, of the catalogs forks share
// (ErrShared) and of the empty one (Registry.Empty).
type FailingHook struct{ Err error }

// Commit refuses r.
func (h FailingHook) Commit(*storage.Record) (uint64, error) { return 0, h.Err }

// Wait has nothing to wait for.
func (FailingHook) Wait(uint64) error { return nil }

// ErrShared is the refusal of a change of a catalog forks share: a bug caught.
var ErrShared = errors.New("service: a change of a catalog forks share")
