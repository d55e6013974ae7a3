package wire

import (
	"github.com/dynamoemu/dynamoemu/internal/lease"
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
// preload: BenchmarkPreload) have a pool of their own, so a key never
// takes an item's map.
//
// Under the race detector (lease's checked mode) a map given back keeps
// its keys and every value becomes the invalid storage.Value (names:
// poisonName), so an operation that reads a map after giving it back
// reads values every encoder and comparison rejects, not an empty map.
//
// Each pool pays on the operations it serves. BenchmarkOps handler,
// 2000x -count 5, medians, pool on -> off:
//   - valueMaps: GetItem 233 -> 697 B/op (+199%), 6 -> 8 allocs;
//     UpdateItemCondition 1308 -> 3165 B/op (+142%), 16 -> 24 allocs;
//     QueryPartition10 295 -> 761 B/op (+158%); ScanFiltered 714 -> 1643
//     B/op (+130%); TransactGet2 1914 -> 2842 B/op (+49%), 33 -> 37.
//   - itemMaps: PutItem 816 -> 1801 B/op (+121%), 10 -> 14 allocs.
//   - nameMaps: UpdateItemCondition 1308 -> 1645 B/op (+26%), 16 -> 18
//     allocs; ScanFiltered 714 -> 1049 B/op (+47%), 15 -> 17 allocs.

const (
	recycleMax     = 8  // the most entries of a map reused for small maps
	itemRecycleMax = 64 // the most entries of an item map reused for items
)

// poisonName is what a given-back names map's values become in the
// checked mode: no attribute has that name.
const poisonName = "\x00given back"

var (
	valueMaps = lease.NewPool(lease.Config[map[string]storage.Value]{Reset: resetValues(recycleMax), Poison: poisonValues})     // at most recycleMax entries used
	itemMaps  = lease.NewPool(lease.Config[map[string]storage.Value]{Reset: resetValues(itemRecycleMax), Poison: poisonValues}) // recycleMax+1 to itemRecycleMax used
	nameMaps  = lease.NewPool(lease.Config[map[string]string]{Reset: resetNames, Poison: poisonNames})
)

// resetValues returns a Reset that clears a map of at most max entries
// and declines a larger one.
func resetValues(max int) func(map[string]storage.Value) bool {
	return func(m map[string]storage.Value) bool {
		if len(m) > max {
			return false
		}
		clear(m)
		return true
	}
}

func poisonValues(m map[string]storage.Value) {
	for k := range m {
		m[k] = storage.Value{}
	}
}

func resetNames(m map[string]string) bool {
	if len(m) > recycleMax {
		return false
	}
	clear(m)
	return true
}

func poisonNames(m map[string]string) {
	for k := range m {
		m[k] = poisonName
	}
}

// valueMap returns an empty map for about size values: a reused one when
// size is at most itemRecycleMax and one is there.
func valueMap(size int) map[string]storage.Value {
	pool := valueMaps
	switch {
	case size > itemRecycleMax:
		return make(map[string]storage.Value, size)
	case size > recycleMax:
		pool = itemMaps
	}
	if m, ok := pool.TryGet(); ok {
		return m
	}
	return make(map[string]storage.Value, size)
}

// nameMap returns an empty ExpressionAttributeNames map, reused when one
// is there.
func nameMap() map[string]string {
	if m, ok := nameMaps.TryGet(); ok {
		return m
	}
	return make(map[string]string)
}

// RecycleItem gives back a decoded item or key map: it takes ownership of
// m, and nothing may use m afterwards (values copied out of it stay
// valid: only the map is reused).
func RecycleItem(m map[string]storage.Value) { recycleValues(m) }

// RecycleValues gives back a decoded ExpressionAttributeValues map, as
// RecycleItem.
func RecycleValues(m map[string]storage.Value) { recycleValues(m) }

func recycleValues(m map[string]storage.Value) {
	switch n := len(m); {
	case m == nil || n > itemRecycleMax:
	case n > recycleMax:
		itemMaps.Put(m)
	default:
		valueMaps.Put(m)
	}
}

// RecycleNames gives back a decoded ExpressionAttributeNames map, as
// RecycleItem.
func RecycleNames(m map[string]string) {
	if m == nil {
		return
	}
	nameMaps.Put(m)
}
