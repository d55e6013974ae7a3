package wire

import (
	"sync"

	"github.com/dynamoemu/dynamoemu/storage"
)

// Maps a decoded request gives back. A map of a few entries (a Key, a
// request's ExpressionAttributeNames and ExpressionAttributeValues) costs
// 300 to 450 bytes whatever its entries, more than all its strings; an
// operation whose input's maps die with the request (UpdateItem: its
// outputs copy what they keep) gives them back with Recycle*, and the
// decoder reuses them, cleared, for the next request's small maps. A map
// not given back is left to the collector as before.
//
// Only maps of at most recycleMax entries are kept: a pool of large maps
// would hold their memory for small requests.

// recycleMax is the most entries a map may hold to be reused.
const recycleMax = 8

var (
	valueMaps sync.Pool // empty map[string]storage.Value
	nameMaps  sync.Pool // empty ExpressionNames
)

// valueMap returns an empty map for about size values: a reused one when
// size is small and one is there.
func valueMap(size int) map[string]storage.Value {
	if size <= recycleMax {
		if m, ok := valueMaps.Get().(map[string]storage.Value); ok {
			return m
		}
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
	if m == nil || len(m) > recycleMax {
		return
	}
	clear(m)
	valueMaps.Put(m)
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
