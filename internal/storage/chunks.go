package storage

import (
	"encoding/binary"
	"fmt"
	"github.com/dynamoemu/dynamoemu/internal/number"
	"unsafe"
)

// Tables as stored records, for snapshot files. A table snapshot writes
// its items as the records it stores, packed the way a slab chunk packs
// them (EachChunk), and each secondary index's order (IndexOrder); a
// TableBuilder takes such chunks without copying them (AddChunk), and
// given an index's order loads its entries in that order, checking it,
// instead of sorting them (TableBuilder.IndexOrder). Loading a million
// items with a GSI that way skips copying every record and sorting the
// index's entries: BenchmarkLoadDir, docs/persistence.md.
//
// A stored record is
//
//	record = uvarint(len(pk)) pk uvarint(len(sk)) sk image
//
// pk is the partition key's text (a number's canonical text), sk the
// sort key's order-preserving encoding (keyenc.go; empty without a sort
// key), image the item without its key attributes (encode.go). Once
// written to a file this layout is a format: changing it means a new
// format version of the files holding it.

// EachChunk calls emit with s's items as stored records in scan order,
// each prefixed by its length (a uvarint), about size bytes of them at a
// time (a record larger than size alone). The slice emit gets is reused
// after it returns. EachChunk stops at emit's first error and returns it.
func (s *TableSnapshot) EachChunk(size int, emit func(chunk []byte) error) error {
	var buf []byte
	var err error
	s.parts.ascend(0, "", func(p *partition) bool {
		return p.walk(bound{}, bound{}, true, func(e entry) bool {
			if len(buf) > 0 && len(buf)+binary.MaxVarintLen32+len(e.rec) > size {
				err = emit(buf)
				buf = buf[:0]
			}
			buf = binary.AppendUvarint(buf, uint64(len(e.rec)))
			buf = append(buf, e.rec...)
			return err == nil
		})
	})
	if err == nil && len(buf) > 0 {
		err = emit(buf)
	}
	return err
}

// IndexOrder returns the order of the entries of s's secondary index i
// (of Indexes): numbering the items with an entry 0, 1, ... in scan
// order, the numbers of their entries' items in the index's order. It
// is nil when that cannot be told (an entry not of an item of s).
func (s *TableSnapshot) IndexOrder(i int) []uint32 {
	x := s.indexes[i]
	// An entry names its item by the record it shares with the table:
	// the same memory, so the record's address is the item's identity.
	at := make(map[*byte]uint32, x.count)
	n := uint32(0)
	x.tree.Scan(func(ie ientry) bool {
		at[unsafe.StringData(ie.e.rec)] = n
		n++
		return true
	})
	order := make([]uint32, 0, len(at))
	s.parts.ascend(0, "", func(p *partition) bool {
		return p.walk(bound{}, bound{}, true, func(e entry) bool {
			if j, ok := at[unsafe.StringData(e.rec)]; ok {
				order = append(order, j)
			}
			return true
		})
	})
	if len(order) != int(n) || len(at) != int(n) {
		return nil
	}
	perm := make([]uint32, n)
	for k, j := range order {
		perm[j] = uint32(k)
	}
	return perm
}

// AddChunk adds the items of chunk, stored records as EachChunk writes
// them, which must come after the items added before (as for Add), and
// returns how many it added. The table keeps chunk's memory, its records
// viewing it: the caller must never change it. Each record is checked as
// Add checks an item.
func (b *TableBuilder) AddChunk(chunk []byte) (int, error) {
	if b.err != nil {
		return 0, b.err
	}
	d := decoder{s: unsafe.String(unsafe.SliceData(chunk), len(chunk))}
	n := 0
	for d.pos < len(d.s) {
		rec := d.str()
		if d.err != nil || rec == "" {
			b.err = fmt.Errorf("%w: record length at byte %d of a chunk", ErrCorrupt, d.pos)
			return n, b.err
		}
		if b.err = b.addRecord(rec); b.err != nil {
			return n, b.err
		}
		n++
	}
	return n, nil
}

// ChunkMemory returns n bytes for a chunk AddChunk will keep, backed by
// the kernel at once (one call, not a fault per page as they are first
// written: a fifth of loading a million items, BenchmarkLoadDir).
func ChunkMemory(n int) []byte {
	b := make([]byte, n)
	populateSlice(b)
	return b
}

// addRecord adds the item stored as rec, which stays where it is.
func (b *TableBuilder) addRecord(rec string) error {
	ks := &b.t.ks
	pk, sk, body, ok := splitRecord(rec)
	if !ok || len(rec)-len(body) > maxRecordHeader {
		return fmt.Errorf("%w: malformed record", ErrCorrupt)
	}
	key := Key{Partition: Value{kind: ks.Partition.Kind, str: pk}}
	if ks.Partition.Kind == KindN && !isCanonicalNumber(pk) {
		return fmt.Errorf("%w: key number not canonical", ErrCorrupt)
	}
	switch {
	case !ks.HasSort():
		if sk != "" {
			return fmt.Errorf("%w: sort key value for a table without a sort key", ErrCorrupt)
		}
	case ks.Sort.Kind == KindN:
		n, ok := number.DecodeKey(sk)
		var enc [24]byte // as sortKeyBytes: the encoding's usual size
		if !ok || !isCanonicalNumber(string(n)) || string(number.AppendKey(enc[:0], n)) != sk {
			return fmt.Errorf("%w: number sort key malformed", ErrCorrupt)
		}
		key.Sort = Value{kind: KindN, str: string(n)}
	default:
		key.Sort = Value{kind: ks.Sort.Kind, str: sk}
	}
	size, err := b.itemSize(key, body)
	if err != nil {
		return err
	}
	p, h, err := b.partitionFor(pk, sk)
	if err != nil {
		return err
	}
	b.place(p, h, key, parseEntry(rec, uint32(size)))
	return nil
}

// splitRecord parses a stored record read from elsewhere (addRecord),
// checking its lengths.
func splitRecord(rec string) (pk, sk, body string, ok bool) {
	d := decoder{s: rec}
	pk = d.str()
	sk = d.str()
	if d.err != nil || pk == "" {
		return "", "", "", false
	}
	return pk, sk, rec[d.pos:], true
}

// IndexOrder gives Finish the order of secondary index i's entries, as
// TableSnapshot.IndexOrder returns it: Finish then loads the entries in
// that order, checking it, instead of sorting them. An order that does
// not fit the entries made costs the sort, never a wrong index.
func (b *TableBuilder) IndexOrder(i int, order []uint32) {
	if i < len(b.fills) {
		b.fills[i].order = order
	}
}
