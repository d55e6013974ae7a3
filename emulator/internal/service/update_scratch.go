package service

import (
	"github.com/dynamoemu/dynamoemu/emulator/internal/wire"
	"github.com/dynamoemu/dynamoemu/internal/storage"
)

// Scratch maps of UpdateItem's patch path (update_patch.go). The path
// decodes the few attributes an update and its condition read into one
// map and applies the update into another; both die with the request
// (what outlives it, the UPDATED_* projections and the written record,
// is copied out of them). Two maps of a few entries cost about 900 bytes
// per request, a quarter of what the request allocates, so they come from
// the wire decoder's pool of small maps and go back to it.

// patchScratch is one request's pair of maps.
type patchScratch struct {
	old, next storage.Item
}

// newPatchScratch returns an empty pair of maps.
func newPatchScratch() patchScratch {
	return patchScratch{old: wire.ItemMap(0), next: wire.ItemMap(0)}
}

// put gives s's maps back. Nothing may use them afterwards.
func (s *patchScratch) put() {
	wire.RecycleItem(s.old)
	wire.RecycleItem(s.next)
}
