package conventions

import (
	"maps"
	"slices"

	"github.com/dynamoemu/dynamoemu/internal/storage"
)

// Rule L1, the 'latest' pattern of versioned documents: a table that keeps a copy of its
// newest item under a fixed key (Policy.Latest, "latest") writes the new item
// and the latest item in one TransactWriteItems, the latest item naming the
// new item's key in its pointer attribute (Policy.LatestPointer,
// "actualVersion") and holding the same attributes. The item the latest
// item points at is not deleted unless the same transaction moves the
// latest item elsewhere or deletes it too. On a table with a sort
// key the latest item of a partition is the one whose sort key is the
// marker, and the pointer names a sort key in the same partition; without a
// sort key (SK "") the partition key is the marker and the pointer names a
// partition key.

// checkLatest appends the L1 violations of one transaction's writes.
func checkLatest(out []Violation, ws []Write) []Violation {
	for i := range ws {
		w := &ws[i]
		p := w.Policy
		if !p.Active() || p.Latest == "" || p.exempt(w.Key.PK) {
			continue
		}
		if w.Op == OpDelete || w.New == nil {
			out = checkLatestDelete(out, ws, w)
			continue
		}
		c := checker{w: w, out: out}
		if isLatestKey(w) {
			c.latestItem(ws)
		} else if w.Op == OpPut && w.Old == nil && findLatestFor(ws, w) == nil {
			c.add("L1", msgLatestMissing, latestSlot(w), p.Latest)
		}
		out = c.out
	}
	return out
}

// checkLatestItemDelete appends the L1 violation of a delete of the
// latest item itself while the item it points at stays: the versions
// would be left without their latest item. A transaction that deletes
// the item it points at too (the document goes) may delete it.
func checkLatestItemDelete(out []Violation, ws []Write, w *Write) []Violation {
	ptr, ok := w.Old[w.Policy.latestPointer()]
	if !ok || ptr.Kind() != storage.KindS {
		return out
	}
	target := Key{PK: w.Key.PK, SK: ptr.Str()}
	if w.Key.SK == "" {
		target = Key{PK: ptr.Str()}
	}
	for i := range ws {
		if o := &ws[i]; o.Table == w.Table && o.Key == target && (o.Op == OpDelete || o.New == nil) {
			return out
		}
	}
	c := checker{w: w, out: out}
	c.add("L1", msgLatestItemDeleted, w.Op, latestSlot(w), w.Policy.Latest, ptr.Str())
	return c.out
}

// latestItem checks a write of the latest item against the write it copies.
func (c *checker) latestItem(ws []Write) {
	w, pointer := c.w, c.w.Policy.latestPointer()
	ptr, ok := w.New[pointer]
	if !ok || ptr.Kind() != storage.KindS {
		c.add("L1", msgLatestNoPointer, pointer)
		return
	}
	target := findWrite(ws, w, ptr.Str())
	if target == nil {
		c.add("L1", msgLatestDangling, latestSlot(w), ptr.Str())
		return
	}
	names := w.KeyNames()
	skip := func(name string) bool { return name == names.PK || name == names.SK || name == pointer }
	for _, name := range slices.Sorted(maps.Keys(target.New)) {
		if skip(name) {
			continue
		}
		if lv, ok := w.New[name]; !ok || !storage.Equal(lv, target.New[name]) {
			c.add("L1", msgLatestDiffers, name, ptr.Str())
			return
		}
	}
	for _, name := range slices.Sorted(maps.Keys(w.New)) {
		if _, ok := target.New[name]; !ok && !skip(name) {
			c.add("L1", msgLatestExtra, name, ptr.Str())
			return
		}
	}
}

// KeyNames returns the write's key attribute names: w.Names, or "pk" and
// "sk" when it is zero.
func (w *Write) KeyNames() Key {
	if w.Names == (Key{}) {
		return Key{PK: "pk", SK: "sk"}
	}
	return w.Names
}

// isLatestKey reports whether w writes the latest item.
func isLatestKey(w *Write) bool {
	if w.Key.SK == "" {
		return w.Key.PK == w.Policy.Latest
	}
	return w.Key.SK == w.Policy.Latest
}

func latestSlot(w *Write) string {
	if w.Key.SK == "" {
		return "partition key"
	}
	return "sort key"
}

// findWrite returns the Put in ws to the same table as latest whose key is
// named by ptr, or nil.
func findWrite(ws []Write, latest *Write, ptr string) *Write {
	for i := range ws {
		o := &ws[i]
		if o == latest || o.Table != latest.Table || o.Op != OpPut || o.New == nil {
			continue
		}
		if latest.Key.SK == "" && o.Key.PK == ptr && o.Key.SK == "" {
			return o
		}
		if latest.Key.SK != "" && o.Key.PK == latest.Key.PK && o.Key.SK == ptr {
			return o
		}
	}
	return nil
}

// findLatestFor returns the write of the latest item that points at w, or
// nil.
func findLatestFor(ws []Write, w *Write) *Write {
	for i := range ws {
		o := &ws[i]
		if o == w || o.Table != w.Table || o.Op == OpDelete || o.New == nil || !isLatestKey(o) {
			continue
		}
		if w.Key.SK != "" && o.Key.PK != w.Key.PK {
			continue
		}
		ptr, ok := o.New[o.Policy.latestPointer()]
		if !ok || ptr.Kind() != storage.KindS {
			continue
		}
		if (w.Key.SK == "" && ptr.Str() == w.Key.PK) || (w.Key.SK != "" && ptr.Str() == w.Key.SK) {
			return o
		}
	}
	return nil
}

// checkLatestDelete appends the L1 violation of a delete of the item the
// latest item points at: the latest item as this transaction leaves it
// (its own write of it, else the stored one, read by w.Get).
func checkLatestDelete(out []Violation, ws []Write, w *Write) []Violation {
	if w.Old == nil {
		return out
	}
	if isLatestKey(w) {
		return checkLatestItemDelete(out, ws, w)
	}
	lk := Key{PK: w.Key.PK, SK: w.Policy.Latest}
	if w.Key.SK == "" {
		lk = Key{PK: w.Policy.Latest}
	}
	var latest storage.Item
	found := false
	for i := range ws {
		if o := &ws[i]; o.Table == w.Table && o.Key == lk {
			latest, found = o.New, true
		}
	}
	if !found {
		if w.Get == nil {
			return out
		}
		latest = w.Get(lk.PK, lk.SK)
	}
	ptr, ok := latest[w.Policy.latestPointer()]
	if !ok || ptr.Kind() != storage.KindS {
		return out
	}
	target, slot, marker := w.Key.SK, "sort key", lk.SK
	if w.Key.SK == "" {
		target, slot, marker = w.Key.PK, "partition key", lk.PK
	}
	if ptr.Str() != target {
		return out
	}
	c := checker{w: w, out: out}
	c.add("L1", msgLatestDeleted, w.Op, slot, target, slot, marker)
	return c.out
}
