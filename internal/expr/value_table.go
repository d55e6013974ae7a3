package expr

import (
	"iter"

	"github.com/dynamoemu/dynamoemu/internal/storage"
)

// ValueTable is a request's ExpressionAttributeValues held other than as
// a Go map: a map of hundreds of thousands of entries costs a slot, its
// growth and a key string for each (about 75 bytes an entry beside a
// 32-byte value), several times its JSON, while what a compile needs of
// it is a lookup of the few placeholders its expressions name, its
// number of entries and, for the unused ones' message, its keys. A
// table's keys are distinct, and each is a valid placeholder (":"
// followed by letters, digits or underscores, at most 255 bytes): the
// maps' own checks (Err) have nothing to report of them.
type ValueTable interface {
	// Len is the number of distinct keys.
	Len() int
	// Value is the value of key, and whether the table holds it.
	Value(key string) (storage.Value, bool)
	// Keys are the keys, in any order, valid while the table is.
	Keys() iter.Seq[string]
}

// NewPooledTableCompiler is NewPooledCompiler over values held as a
// ValueTable.
func NewPooledTableCompiler(cache *Cache, names map[string]string, values ValueTable) *Compiler {
	c := compilers.Get()
	*c = Compiler{names: names, table: values, err: checkPlaceholders(names, nil), cache: cache}
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

// unusedValues are the keys of the values no expression used, in the
// order DynamoDB's message lists them.
func (c *Compiler) unusedValues() []string {
	if c.table == nil {
		return unusedKeys(c.values, &c.used)
	}
	keys := make([]string, 0, c.table.Len()-c.used.values)
	for k := range c.table.Keys() {
		if !c.used.has(k) {
			keys = append(keys, k)
		}
	}
	if len(keys) == 0 {
		return nil
	}
	return javaHashOrder(keys)
}
