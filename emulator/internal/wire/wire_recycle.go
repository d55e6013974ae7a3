package wire

import (
	"sync"

	"github.com/dynamoemu/dynamoemu/internal/storage"
)

// Maps a decoded request gives back. A map of a few entries (a Key, a
// request's ExpressionAttributeNames and ExpressionAttributeValues) costs
// 300 to 450 bytes whatever its entries, more than all its strings; an
// operation whose input's maps die with the request (UpdateItem: its
// outputs copy what they keep) gives them back with Recycle*, and the
// decoder reuses them, cleared, for the next request's small maps. A map
// not given back is left to the collector as before.
//
// Only maps of at most recycleMax entries are kept among the small ones: a
// pool of large maps would hold their memory for small requests. Item
// maps of up to itemRecycleMax attributes (PutItem's Item, BatchWriteItem's
// items: about 1 KB each for ten attributes, the largest garbage of a
// BenchmarkPreload) have a pool of their own, so a key never takes
// an item's map.

const (
	recycleMax     = 8  // the most entries of a map reused for small maps
	itemRecycleMax = 64 // the most entries of an item map reused for items
)

var (
	valueMaps sync.Pool // empty map[string]storage.Value, at most recycleMax entries used
	itemMaps  sync.Pool // empty map[string]storage.Value, recycleMax+1 to itemRecycleMax used
	nameMaps  sync.Pool // empty ExpressionNames
)

// valueMap returns an empty map for about size values: a reused one when
// size is at most itemRecycleMax and one is there.
func valueMap(size int) map[string]storage.Value {
	pool := &valueMaps
	switch {
	case size > itemRecycleMax:
		return make(map[string]storage.Value, size)
	case size > recycleMax:
		pool = &itemMaps
	}
	if m, ok := pool.Get().(map[string]storage.Value); ok {
		return m
	}
	return make(map[string]storage.Value, size)
}

// ItemMap returns an empty item map for about size attributes, from the
// maps given back when size is small; give it back with RecycleItem.
func ItemMap(size int) storage.Item { return valueMap(size) }

// nameMap returns an empty ExpressionNames map, reused when one is there.
func nameMap() ExpressionNames {
	if m, ok := nameMaps.Get().(ExpressionNames); ok {
		return m
	}
	return make(ExpressionNames)
}

// RecycleItem gives back a decoded item or key map. The caller promises
// that nothing uses m afterwards (values copied out of it stay valid:
// only the map is reused).
func RecycleItem(m WireItem) { recycleValues(m) }

// RecycleValues gives back a decoded ExpressionAttributeValues map, as
// RecycleItem.
func RecycleValues(m ExpressionValues) { recycleValues(m) }

func recycleValues(m map[string]storage.Value) {
	switch n := len(m); {
	case m == nil || n > itemRecycleMax:
	case n > recycleMax:
		clear(m)
		itemMaps.Put(m)
	default:
		clear(m)
		valueMaps.Put(m)
	}
}

// RecycleNames gives back a decoded ExpressionAttributeNames map, as
// RecycleItem.
func RecycleNames(m ExpressionNames) {
	if m == nil || len(m) > recycleMax {
		return
	}
	clear(m)
	nameMaps.Put(m)
}
