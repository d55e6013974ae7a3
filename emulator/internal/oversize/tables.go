package oversize

import (
	"bytes"
	"cmp"
	"encoding/json"
	"strconv"

	"github.com/dynamoemu/dynamoemu/emulator/internal/wire"
	"github.com/dynamoemu/dynamoemu/internal/storage"
)

// Tables are what a decoder did not keep of a map of tables' key lists
// and names lists (BatchGetItem's RequestItems: a table's Keys and
// AttributesToGet), until the body ends. A table's list keeps its first
// Keep keys, or, once the lists read before it held Keep keys in all,
// its first one: the others past Keep in all are parked (a map of more
// than Keep-1 keys in all is refused for its total, whatever its keys,
// unless a table or the map given again let some go); those past a
// list's Keep are counted and echoed to EchoKeep bytes (a list of Keep
// keys or more is refused for its count). Its names are kept while
// their echo is under EchoKeep bytes, the others parked: they are needed
// only when the table may be served, of fewer keys than Keep. Finish
// then puts back what the answer may read, and lets the rest go.
type Tables struct {
	Keep, EchoKeep int
	read           int      // keys of the lists read so far
	lists          []*Table // the key lists read, by slot
	parked         Parking  // keys past Keep in all: the list's slot, then the key
	named          []*Table // the tables whose names are parked
}

// Table is what a decoder did not keep of one table's lists.
type Table struct {
	Past      int    // keys not kept: parked, or counted and echoed
	Echo      []byte // the echo of the keys past Keep, each after a ','
	parks     bool   // the list keeps its first key, parks the others
	slot      int    // the list's in Tables.lists
	final     bool   // the map as decoded holds it (Finish)
	names     Parking
	namesEcho int   // the echo of the names kept
	namesErr  error // of names put back when a names list came again
}

// StartKeys starts a key list of r (one given again leaves what the
// last one parked).
func (ts *Tables) StartKeys(r *Table) {
	r.Past, r.Echo = 0, nil
	r.parks = ts.read > ts.Keep-1
	r.slot = len(ts.lists)
	ts.lists = append(ts.lists, r)
}

// KeepKey reports whether key i of r's list is kept.
func (ts *Tables) KeepKey(r *Table, i int) bool {
	ts.read++
	return i < ts.Keep && (i == 0 || !r.parks)
}

// PastKey is key i of r's list, not kept: parked past Keep keys in all,
// else echoed while the answer can show it, as the answer's echo of the
// map (encoding/json's) writes it.
func (ts *Tables) PastKey(r *Table, i int, key wire.WireItem) {
	r.Past++
	switch {
	case i < ts.Keep && key == nil:
		ts.parked.Park(append(strconv.AppendInt(nil, int64(r.slot), 10), "null"...))
	case i < ts.Keep:
		ts.parked.Park(wire.AppendItem(strconv.AppendInt(nil, int64(r.slot), 10), key))
	case len(r.Echo) < ts.EchoKeep:
		echo, _ := json.Marshal(key)
		r.Echo = append(append(r.Echo, ','), echo...)
	}
}

// StartNames starts names, a names list of r: a list given again is
// read into the last one's names, which go back first.
func (ts *Tables) StartNames(r *Table, names *[]string) {
	r.namesEcho = 0
	r.namesErr = cmp.Or(r.namesErr, r.names.Unpark(func(name []byte) error {
		*names = append(*names, string(name))
		return nil
	}))
}

// KeepName reports whether name i of names, r's list, is kept.
func (ts *Tables) KeepName(r *Table, names []string, i int) bool {
	if r.namesEcho < ts.EchoKeep && i > 0 && i <= len(names) { // the name before, kept
		r.namesEcho += len(names[i-1]) + len(`"",`) // at least its echo
	}
	return r.namesEcho < ts.EchoKeep
}

// PastName parks name, of r's list, not kept.
func (ts *Tables) PastName(r *Table, name string) {
	if r.names.Len() == 0 {
		ts.named = append(ts.named, r)
	}
	r.names.Park([]byte(name))
}

// Finish ends the reading (ok: the body decoded) of the map's tables as
// decoded, final (each a Table, and its keys and names as the request
// holds them): the answer reads every key when echo (the map is echoed)
// or when the map holds fewer than Keep keys in all. The names parked go
// back to a table that may be served, the keys to their lists, and the
// rest is let go. The error is ErrParking's.
func (ts *Tables) Finish(ok, echo bool, final func(each func(r *Table, keys *[]wire.WireItem, names *[]string))) error {
	total := 0
	lists := map[*Table]*[]wire.WireItem{}
	final(func(r *Table, keys *[]wire.WireItem, names *[]string) {
		r.final, lists[r] = true, keys
		total += len(*keys) + r.Past
		if ok && len(*keys)+r.Past < ts.Keep && r.names.Len() > 0 {
			r.namesErr = cmp.Or(r.namesErr, r.names.Unpark(func(name []byte) error {
				*names = append(*names, string(name))
				return nil
			}))
		}
	})
	var err error
	for _, r := range ts.named {
		err = cmp.Or(err, r.namesErr)
		r.names.LetGo()
	}
	if ok && (echo || total < ts.Keep) {
		err = cmp.Or(err, ts.parked.Unpark(func(rec []byte) error {
			at := bytes.IndexAny(rec, "{n") // the slot's digits, then the key, or null
			slot, _ := strconv.Atoi(string(rec[:at]))
			r := ts.lists[slot]
			if r.slot != slot || !r.final {
				return nil
			}
			var key storage.Item
			var err error
			if rec[at] == '{' {
				key, err = wire.DecodeHeld(rec[at:])
			}
			*lists[r], r.Past = append(*lists[r], wire.WireItem(key)), r.Past-1
			return err
		}))
	}
	ts.parked.LetGo()
	return err
}
