package adminhttp

import (
	"bytes"
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strconv"

	"github.com/dynamoemu/dynamoemu/emulator/internal/wire"
	"github.com/dynamoemu/dynamoemu/internal/storage"
)

// A diff, of a snapshot against now or of a branch against its base,
// compares each table of one side with the table of that name on the
// other: added, removed, replaced (same name, another TableId), changed
// or unchanged, with the item counts then and now; for a changed table
// of at most diffScanLimit items on each side, the items added, removed
// and modified (counted exactly, the first limit listed with their key
// and both images in DynamoDB JSON). Neither changes anything.

// diffScanLimit bounds the items a diff reads on each side of a table: a
// larger table's change is given by its counts alone.
const diffScanLimit = 50_000

// Item lists of a diff, per table: the default and the most.
const (
	diffListDefault = 100
	diffListMax     = 1000
)

// diffLimit reads a diff's limit parameter s ("": the default).
func diffLimit(s string) (int, error) {
	if s == "" {
		return diffListDefault, nil
	}
	n, err := strconv.Atoi(s)
	if err != nil || n < 0 || n > diffListMax {
		return 0, fmt.Errorf("limit %q is not a number from 0 to %d", s, diffListMax)
	}
	return n, nil
}

// tableDiff is one table in a diff.
type tableDiff struct {
	Table     string     `json:"table"`
	Change    string     `json:"change"` // added, removed, replaced, changed, unchanged
	ItemsThen int        `json:"itemsThen"`
	ItemsNow  int        `json:"itemsNow"`
	Added     int        `json:"added"`
	Removed   int        `json:"removed"`
	Modified  int        `json:"modified"`
	Items     []itemDiff `json:"items,omitempty"`
	Truncated bool       `json:"truncated,omitempty"` // more items differ than are listed
	Note      string     `json:"note,omitempty"`      // why items are not compared
}

// itemDiff is one item that differs: its key and its images (DynamoDB JSON).
type itemDiff struct {
	Change string          `json:"change"` // added, removed, modified
	Key    json.RawMessage `json:"key"`
	Old    json.RawMessage `json:"old,omitempty"`
	New    json.RawMessage `json:"new,omitempty"`
}

// diffTables compares a namespace's tables then (snapshot, nil: none)
// and now (db, nil: none), by name.
func diffTables(then *storage.Snapshot, db *storage.DB, limit int) []tableDiff {
	thenTables := map[string]*storage.TableSnapshot{}
	if then != nil {
		for _, t := range then.Tables() {
			thenTables[t.Name()] = t
		}
	}
	nowTables := map[string]*storage.Table{}
	if db != nil {
		for _, t := range db.Tables() {
			nowTables[t.Name()] = t
		}
	}
	names := slices.Sorted(maps.Keys(thenTables))
	for name := range nowTables {
		if thenTables[name] == nil {
			names = append(names, name)
		}
	}
	slices.Sort(names)
	out := make([]tableDiff, 0, len(names))
	for _, name := range names {
		old, cur := thenTables[name], nowTables[name]
		d := tableDiff{Table: name}
		switch {
		case cur == nil:
			d.Change, d.ItemsThen, d.Removed = "removed", old.ItemCount(), old.ItemCount()
		case old == nil:
			d.Change, d.ItemsNow, d.Added = "added", cur.ItemCount(), cur.ItemCount()
		case old.ID() == cur.ID() && cur.Unchanged(old):
			d.Change, d.ItemsThen, d.ItemsNow = "unchanged", old.ItemCount(), old.ItemCount()
		default:
			d = diffItems(name, old, cur.Snapshot(), limit)
		}
		out = append(out, d)
	}
	return out
}

// diffItems compares the items of two states of a table of one name.
func diffItems(name string, old, cur *storage.TableSnapshot, limit int) tableDiff {
	d := tableDiff{Table: name, Change: "changed", ItemsThen: old.ItemCount(), ItemsNow: cur.ItemCount()}
	replaced := old.ID() != cur.ID()
	if replaced {
		d.Change = "replaced"
	}
	if d.ItemsThen > diffScanLimit || d.ItemsNow > diffScanLimit {
		d.Note = fmt.Sprintf("over %d items: compared by their counts only", diffScanLimit)
		return d
	}
	ks := cur.KeySchema()
	keyNames := []string{ks.Partition.Name}
	if ks.HasSort() {
		keyNames = append(keyNames, ks.Sort.Name)
	}
	add := func(change string, oldItem, newItem *storage.EncodedItem) {
		switch change {
		case "added":
			d.Added++
		case "removed":
			d.Removed++
		default:
			d.Modified++
		}
		if len(d.Items) >= limit {
			d.Truncated = true
			return
		}
		x := itemDiff{Change: change}
		some := newItem
		if some == nil {
			some = oldItem
		}
		x.Key = wire.AppendItem(nil, some.Attributes(keyNames))
		if oldItem != nil {
			x.Old = wire.AppendStoredItem(nil, *oldItem)
		}
		if newItem != nil {
			x.New = wire.AppendStoredItem(nil, *newItem)
		}
		d.Items = append(d.Items, x)
	}
	before := make(map[storage.Key]storage.EncodedItem, d.ItemsThen)
	var order []storage.Key // the snapshot's scan order, for the removed ones
	old.ScanEncoded(storage.ScanRange{}, func(it storage.EncodedItem) bool {
		k := it.Key()
		before[k] = it
		order = append(order, k)
		return true
	})
	cur.ScanEncoded(storage.ScanRange{}, func(it storage.EncodedItem) bool {
		k := it.Key()
		was, ok := before[k]
		switch {
		case !ok:
			add("added", nil, &it)
		case !bytes.Equal(wire.AppendStoredItem(nil, was), wire.AppendStoredItem(nil, it)):
			add("modified", &was, &it)
		}
		delete(before, k)
		return true
	})
	for _, k := range order {
		if was, ok := before[k]; ok {
			add("removed", &was, nil)
		}
	}
	if !replaced && d.Added+d.Removed+d.Modified == 0 && slices.Equal(indexNames(old), indexNames(cur)) {
		d.Change = "unchanged"
	}
	return d
}

// indexNames are a table's secondary indexes' names, sorted.
func indexNames(t *storage.TableSnapshot) []string {
	var names []string
	for _, x := range t.Indexes() {
		names = append(names, x.Name)
	}
	slices.Sort(names)
	return names
}
