package storage

import (
	"maps"
	"slices"
	"strings"
)

// Metadata: opaque key/value state a DB keeps for its caller, per table
// and for the DB itself, and records like any other change (RecordMeta).
// Storage does not interpret it; the emulator keeps there what is not
// items (table settings, tags, TTL and stream settings, conventions
// attachments), one key per concern, so that a DB holds the whole durable
// state of a namespace: a log of its records, or a copy of its tables and
// their metadata, is enough to rebuild it.
//
// Values are kept as given, latest value per key. A value handed out by
// Meta is shared: the caller must not modify it.

// SetMeta sets the table's metadata key to value (nil deletes the key)
// and records it (RecordMeta). value is copied. The change is made under
// the table's write lock, so the hook sees it in order with the table's
// writes.
func (t *Table) SetMeta(key string, value []byte) error {
	res, err := t.setMetaLocking(key, value)
	if err != nil {
		return err
	}
	return res.finish()
}

func (t *Table) setMetaLocking(key string, value []byte) (hookResult, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	value = cloneValue(value)
	var res hookResult
	if t.hook != nil {
		var err error
		if res, err = callHook(t.hook, &Record{Kind: RecordMeta, Table: t.uid, Key: key, Value: value}); err != nil {
			return hookResult{}, err
		}
	}
	t.metaMu.Lock()
	if t.metaShared {
		t.meta, t.metaShared = maps.Clone(t.meta), false
	}
	t.meta = setMeta(t.meta, key, value)
	t.metaMu.Unlock()
	t.stamp = 0
	return res, nil
}

// Meta returns the value of the table's metadata key (nil: none).
func (t *Table) Meta(key string) []byte {
	t.metaMu.Lock()
	defer t.metaMu.Unlock()
	return t.meta[key]
}

// MetaKeys returns the table's metadata keys in order.
func (t *Table) MetaKeys() []string {
	t.metaMu.Lock()
	defer t.metaMu.Unlock()
	return slices.Sorted(maps.Keys(t.meta))
}

// SetMeta sets the DB's own metadata key to value (nil deletes the key)
// and records it (RecordMeta with no Table). value is copied.
func (db *DB) SetMeta(key string, value []byte) error {
	res, err := db.setMetaLocking(key, value)
	if err != nil {
		return err
	}
	return res.finish()
}

func (db *DB) setMetaLocking(key string, value []byte) (hookResult, error) {
	db.mu.Lock()
	defer db.mu.Unlock()
	value = cloneValue(value)
	var res hookResult
	if db.hook != nil {
		var err error
		if res, err = callHook(db.hook, &Record{Kind: RecordMeta, Key: key, Value: value}); err != nil {
			return hookResult{}, err
		}
	}
	db.meta = setMeta(db.meta, key, value)
	db.metaGen++
	return res, nil
}

// Meta returns the value of the DB's own metadata key (nil: none).
func (db *DB) Meta(key string) []byte {
	db.mu.RLock()
	defer db.mu.RUnlock()
	return db.meta[key]
}

// MetaKeys returns the DB's own metadata keys in order.
func (db *DB) MetaKeys() []string {
	db.mu.RLock()
	defer db.mu.RUnlock()
	return slices.Sorted(maps.Keys(db.meta))
}

// setMeta sets or (value nil) deletes key in m, making m if needed.
func setMeta(m map[string][]byte, key string, value []byte) map[string][]byte {
	if value == nil {
		delete(m, key)
		return m
	}
	if m == nil {
		m = make(map[string][]byte)
	}
	m[strings.Clone(key)] = value
	return m
}

// cloneValue copies a metadata value, keeping nil nil and empty non-nil.
func cloneValue(v []byte) []byte {
	if v == nil {
		return nil
	}
	return append(make([]byte, 0, len(v)), v...)
}

// cloneMeta copies a metadata map (nil values are dropped).
func cloneMeta(m map[string][]byte) map[string][]byte {
	var out map[string][]byte
	for k, v := range m {
		out = setMeta(out, k, cloneValue(v))
	}
	return out
}
