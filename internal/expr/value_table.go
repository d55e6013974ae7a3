package expr

import (
	"sort"

	"github.com/dynamoemu/dynamoemu/internal/storage"
)

// ValueTable is a request's ExpressionAttributeValues held other than as
// a Go map: a map of hundreds of thousands of entries costs a slot, its
// growth and a key string for each (about 75 bytes an entry beside a
// 32-byte value), several times its JSON, while what a compile needs of
// it is a lookup of the few placeholders its expressions name, its
// number of entries and, for the unused ones' message, its keys. A
// table's keys are distinct; those that are no valid placeholder (":"
// followed by letters, digits or underscores, at most 255 bytes) are
// the ones Bad holds, which the maps' own checks (Err) report.
type ValueTable interface {
	// Len is the number of keys.
	Len() int
	// Key is the i-th key, 0 <= i < Len(), in any order of the table's.
	Key(i int) string
	// Value is the value of key, and whether the table holds it.
	Value(key string) (storage.Value, bool)
	// Bad is the entries whose keys Err reports, of each rule the key
	// that sorts first (nil: none).
	Bad() map[string]storage.Value
}

// NewPooledTableCompiler is NewPooledCompiler over values held as a
// ValueTable.
func NewPooledTableCompiler(cache *Cache, names map[string]string, values ValueTable) *Compiler {
	c := compilers.Get()
	*c = Compiler{names: names, table: values, err: checkPlaceholders(names, values.Bad()), cache: cache}
	return c
}

// value is the value of placeholder key, from the map or the table.
func (c *Compiler) value(key string) (storage.Value, bool) {
	if c.table != nil {
		return c.table.Value(key)
	}
	v, ok := c.values[key]
	return v, ok
}

// valueCount is the number of ExpressionAttributeValues entries.
func (c *Compiler) valueCount() int {
	if c.table != nil {
		return c.table.Len()
	}
	return len(c.values)
}

// unusedValues is the unused values' message, "" when every value was
// used. Over a table it holds the unused keys by their indexes, 4 bytes
// each and 4 for their buckets, not a string of 16 and 4 each (the
// 190,646 unused values of a 4 MB Query: 3.8 MB so, 1.5 MB this way:
// BenchmarkOversizeMemory).
func (c *Compiler) unusedValues() string {
	const param = "ExpressionAttributeValues"
	if c.table == nil {
		if keys := unusedKeys(c.values, &c.used); len(keys) > 0 {
			return unusedMessage(param, keys)
		}
		return ""
	}
	t := c.table
	idx := make([]int32, 0, t.Len()-c.used.values)
	for i := range t.Len() {
		if !c.used.has(t.Key(i)) {
			idx = append(idx, int32(i))
		}
	}
	if len(idx) == 0 {
		return ""
	}
	h := hashedIndexes{key: func(i int32) string { return t.Key(int(i)) }, idx: idx, buckets: make([]uint32, len(idx))}
	capacity := javaHashCapacity(len(idx))
	for i, x := range idx {
		h.buckets[i] = javaBucket(h.key(x), capacity)
	}
	sort.Sort(h)
	return unusedMessageOf(param, len(idx), func(i int) string { return h.key(h.idx[i]) })
}

// hashedIndexes sorts the indexes of keys by the keys' buckets, then by
// the keys themselves (hashedKeys by index).
type hashedIndexes struct {
	key     func(int32) string
	idx     []int32
	buckets []uint32 // of key(idx[i])
}

func (h hashedIndexes) Len() int { return len(h.idx) }

func (h hashedIndexes) Less(i, j int) bool {
	if h.buckets[i] != h.buckets[j] {
		return h.buckets[i] < h.buckets[j]
	}
	return h.key(h.idx[i]) < h.key(h.idx[j])
}

func (h hashedIndexes) Swap(i, j int) {
	h.idx[i], h.idx[j] = h.idx[j], h.idx[i]
	h.buckets[i], h.buckets[j] = h.buckets[j], h.buckets[i]
}
