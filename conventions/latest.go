package conventions

import (
	"cmp"
	"maps"
	"slices"
	"strings"

	"github.com/dynamoemu/dynamoemu/internal/storage"
)

// Rule L1, the 'latest' pattern of versioned documents (seed 002): a table
// that keeps a copy of its newest version under a fixed key
// (Policy.Latest, "latest") keeps that copy in step with the versions,
// the latest item naming the version it copies in its pointer attribute
// (Policy.LatestPointer, "actualVersion") and holding the same
// attributes. The seed allows two ways (Policy.LatestWrite), each checked
// for what it must guarantee:
//
//   - a transaction: the new version and the latest item in one
//     TransactWriteItems, so that neither is written without the other;
//   - a conditional write: the new version first, then the latest item by
//     a write whose condition fails when the latest item moved since the
//     writer read it (<pointer> = :seen, or attribute_not_exists for the
//     first), pointing at a version the table holds.
//
// Either way, the latest item does not move back to an older version
// (when the two names compare: versionOrder), the version the latest item
// points at is not rewritten (by PutItem, UpdateItem or PartiQL UPDATE)
// (the latest item would no longer copy it, or would be moved onto a
// rewritten old version), and neither it nor the latest item is deleted
// unless the same transaction deletes the other (or moves the latest
// item elsewhere). On a table with a sort key the latest item of a
// partition is the one whose sort key is the marker, and the pointer
// names a sort key in the same partition; without a sort key (SK "") the
// partition key is the marker and the pointer names a partition key.

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
		switch {
		case isLatestKey(w):
			c.latestItem(ws)
		case w.Old == nil:
			// A new version: in a transaction with its latest item, or
			// first of the conditional way's two writes.
			if p.LatestWrite == LatestTransaction && findLatestFor(ws, w) == nil {
				c.add("L1", msgLatestMissing, latestSlot(w), p.Latest)
			}
		default:
			c.versionRewrite(ws)
		}
		out = c.out
	}
	return out
}

// versionRewrite checks a write over an existing version: it may not
// change the version the latest item points at, as this transaction
// leaves the latest item (its own write of it, else the stored one).
func (c *checker) versionRewrite(ws []Write) {
	w := c.w
	name, changed := firstChange(w.Old, w.New)
	if !changed {
		return // a retried write of the same version
	}
	latest, inTx := latestAfter(ws, w)
	ptr, ok := latest[w.Policy.latestPointer()]
	if !ok || ptr.Kind() != storage.KindS || ptr.Str() != slotOf(w) {
		return
	}
	if inTx {
		c.add("L1", msgLatestRewriteWith, w.Op, latestSlot(w), slotOf(w), name, w.Policy.Latest)
		return
	}
	c.add("L1", msgLatestRewrite, w.Op, latestSlot(w), slotOf(w), name, w.Policy.Latest)
}

// latestAfter returns the latest item of w's document as the transaction
// ws leaves it: its write in ws (inTx), else the stored one (w.Get; nil
// when there is none or no Get).
func latestAfter(ws []Write, w *Write) (item storage.Item, inTx bool) {
	lk := latestKeyOf(w)
	for i := range ws {
		if o := &ws[i]; o.Table == w.Table && o.Key == lk {
			return o.New, true
		}
	}
	if w.Get == nil {
		return nil, false
	}
	return w.Get(lk.PK, lk.SK), false
}

// latestKeyOf is the key of the latest item of w's document.
func latestKeyOf(w *Write) Key {
	if w.Key.SK == "" {
		return Key{PK: w.Policy.Latest}
	}
	return Key{PK: w.Key.PK, SK: w.Policy.Latest}
}

// slotOf is w's key as a pointer names it: the sort key, or the partition
// key of a table without one.
func slotOf(w *Write) string {
	if w.Key.SK == "" {
		return w.Key.PK
	}
	return w.Key.SK
}

// firstChange returns the first attribute (in name order) that differs
// between old and nu.
func firstChange(old, nu storage.Item) (string, bool) {
	if names := changedAttrs(old, nu); len(names) > 0 {
		return names[0], true
	}
	return "", false
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

// latestItem checks a write of the latest item: its pointer, the way it
// is kept in step (a transaction that writes the version it points at, or
// a condition that fails when it moved), and that it copies that version.
func (c *checker) latestItem(ws []Write) {
	w, p, pointer := c.w, c.w.Policy, c.w.Policy.latestPointer()
	ptr, ok := w.New[pointer]
	if !ok || ptr.Kind() != storage.KindS {
		c.add("L1", msgLatestNoPointer, pointer)
		return
	}
	if prev, ok := w.Old[pointer]; ok && prev.Kind() == storage.KindS && prev.Str() != ptr.Str() {
		if order, comparable := versionOrder(ptr.Str(), prev.Str()); comparable && order < 0 {
			c.add("L1", msgLatestBackwards, latestSlot(w), prev.Str(), ptr.Str())
			return
		}
	}
	pinned := pinsLatest(w.Condition, w.ConditionNames, pointer, w.KeyNames()) || w.movedFails(pointer)
	var copied storage.Item
	if target := findWrite(ws, w, ptr.Str()); target != nil {
		// The transaction way.
		if p.LatestWrite == LatestConditional && !pinned {
			c.add("L1", msgLatestUnpinned, p.LatestWrite, pointer, pointer)
			return
		}
		copied = target.New
	} else {
		// The conditional way: the version is in the table already.
		switch {
		case p.LatestWrite == LatestTransaction:
			c.add("L1", msgLatestDangling, latestSlot(w), ptr.Str())
			return
		case !pinned:
			c.add("L1", msgLatestUnpinned, p.LatestWrite, pointer, pointer)
			return
		case w.Get == nil:
			return // nothing to compare with (the offline check)
		}
		tk := Key{PK: w.Key.PK, SK: ptr.Str()}
		if w.Key.SK == "" {
			tk = Key{PK: ptr.Str()}
		}
		if copied = w.Get(tk.PK, tk.SK); copied == nil {
			c.add("L1", msgLatestDanglingStored, latestSlot(w), ptr.Str())
			return
		}
	}
	names := w.KeyNames()
	skip := func(name string) bool { return name == names.PK || name == names.SK || name == pointer }
	for _, name := range slices.Sorted(maps.Keys(copied)) {
		if skip(name) {
			continue
		}
		if lv, ok := w.New[name]; !ok || !storage.Equal(lv, copied[name]) {
			c.add("L1", msgLatestDiffers, name, ptr.Str())
			return
		}
	}
	for _, name := range slices.Sorted(maps.Keys(w.New)) {
		if _, ok := copied[name]; !ok && !skip(name) {
			c.add("L1", msgLatestExtra, name, ptr.Str())
			return
		}
	}
}

// movedSentinel is the pointer value movedFails puts in the latest item
// to stand for a move by another writer: no version is named so.
const movedSentinel = "\x00moved by another writer"

// movedFails reports whether a write of the latest item whose condition
// has no text fails had another writer moved the latest item since this
// one read it: a PartiQL INSERT (its own semantics are the create guard)
// or a PartiQL UPDATE whose WHERE clause Holds evaluates. Moved means,
// for a first write, the latest item there already (New itself); else
// the old latest item pointing elsewhere. A WHERE clause that pins the
// pointer (actualVersion = 'v1') fails on it; one that only names the
// key holds. It cannot tell a condition that fails for this one value
// but holds for others (begins_with(actualVersion, 'v'), say).
func (w *Write) movedFails(pointer string) bool {
	switch {
	case w.Condition != "":
		return false // a ConditionExpression: pinsLatest reads it
	case w.Old == nil && w.NotExistsCondition:
		return true
	case w.Holds == nil:
		return false
	case w.Old == nil:
		return !w.Holds(w.New)
	}
	moved := maps.Clone(w.Old)
	moved[pointer] = storage.S(movedSentinel)
	return !w.Holds(moved)
}

// versionOrder compares two version names the way their writer numbers
// them: a and b are comparable when they have the same shape, the same
// text between runs of digits ("v2" and "v10", "2026-11-01" and
// "2026-12-01"), and then compare by their runs of digits as numbers, the
// first that differs deciding. Names of other shapes (random ids, ULIDs
// beside "v1") are not comparable: the rule does not judge their order.
func versionOrder(a, b string) (order int, comparable bool) {
	ra, rb := digitRuns(a), digitRuns(b)
	if len(ra) != len(rb) {
		return 0, false
	}
	order = 0
	for i := range ra {
		da, db := isDigit(ra[i][0]), isDigit(rb[i][0])
		switch {
		case da != db:
			return 0, false
		case !da && ra[i] != rb[i]:
			return 0, false
		case da && order == 0:
			order = compareDigits(ra[i], rb[i])
		}
	}
	return order, true
}

// digitRuns cuts s into alternating runs of digits and of other bytes.
func digitRuns(s string) []string {
	var runs []string
	for i := 0; i < len(s); {
		j := i + 1
		for j < len(s) && isDigit(s[j]) == isDigit(s[i]) {
			j++
		}
		runs = append(runs, s[i:j])
		i = j
	}
	return runs
}

func isDigit(b byte) bool { return '0' <= b && b <= '9' }

// compareDigits compares two runs of digits as numbers.
func compareDigits(a, b string) int {
	a, b = strings.TrimLeft(a, "0"), strings.TrimLeft(b, "0")
	if len(a) != len(b) {
		return cmp.Compare(len(a), len(b))
	}
	return strings.Compare(a, b)
}

// latestMarkerCase is rule A17 for a table that keeps a latest item: a
// key spelling the marker in another case ("Latest" for "latest") is not
// the latest item, and no reader looking for the marker finds it.
func (c *checker) latestMarkerCase() {
	w := c.w
	if w.Policy.Latest == "" || w.New == nil || isLatestKey(w) {
		return
	}
	if slot := slotOf(w); strings.EqualFold(slot, w.Policy.Latest) {
		c.add("A17", msgLatestMarkerCase, latestSlot(w), slot, w.Policy.Latest, w.Policy.Latest)
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
		if o == latest || o.Table != latest.Table || o.Op == OpDelete || o.New == nil {
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
		if ptr.Str() == slotOf(w) {
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
	latest, _ := latestAfter(ws, w)
	ptr, ok := latest[w.Policy.latestPointer()]
	if !ok || ptr.Kind() != storage.KindS || ptr.Str() != slotOf(w) {
		return out
	}
	c := checker{w: w, out: out}
	c.add("L1", msgLatestDeleted, w.Op, latestSlot(w), slotOf(w), latestSlot(w), w.Policy.Latest)
	return c.out
}
