package streamlog

import (
	"encoding/binary"
	"errors"

	"github.com/dynamoemu/dynamoemu/internal/storage"
)

// Records in bytes, for a log kept across restarts (the service's
// streamrec/sidecar.go writes them into snapshots a batch at a time):
// uvarint(n), then per record uvarint(seq) varint(at) byte(event | 16
// for a deletion by the service) uvarint(len) record, where record is
// storage's binary form of a RecordCommit whose first write carries the
// key, HadOld for "the old image is shown" and the new image when
// shown, and whose second write, when the old image is shown, carries
// it as its new image.

// serviceFlag marks a deletion by the service in a record's event byte.
const serviceFlag = 16

// AppendRecords appends recs to b in their binary form.
func AppendRecords(b []byte, recs []Record) ([]byte, error) {
	b = binary.AppendUvarint(b, uint64(len(recs)))
	var rec []byte
	for i := range recs {
		r := &recs[i]
		flags := byte(r.Event)
		if r.Service {
			flags |= serviceFlag
		}
		ws := []storage.ItemWrite{{Committed: storage.Committed{Key: r.Key, HadOld: r.HasOld, HasNew: r.HasNew, New: r.New}}}
		if r.HasOld {
			ws = append(ws, storage.ItemWrite{Committed: storage.Committed{Key: r.Key, HasNew: true, New: r.Old}})
		}
		var err error
		rec, err = storage.AppendRecord(rec[:0], &storage.Record{Kind: storage.RecordCommit, Writes: ws})
		if err != nil {
			return nil, err
		}
		b = binary.AppendUvarint(b, r.Seq)
		b = binary.AppendVarint(b, r.At)
		b = append(b, flags)
		b = binary.AppendUvarint(b, uint64(len(rec)))
		b = append(b, rec...)
	}
	return b, nil
}

// ParseRecords reads the records AppendRecords wrote, all of b. The
// images are as storage parses them: without their key attributes
// (storage.EncodedItem.WithKeySchema gives them back).
func ParseRecords(b []byte) ([]Record, error) {
	n, k := binary.Uvarint(b)
	if k <= 0 || n > uint64(len(b)) {
		return nil, errors.New("count")
	}
	b = b[k:]
	out := make([]Record, 0, n)
	for range n {
		seq, k1 := binary.Uvarint(b)
		if k1 <= 0 {
			return nil, errors.New("sequence number")
		}
		at, k2 := binary.Varint(b[k1:])
		if k2 <= 0 || len(b) < k1+k2+1 {
			return nil, errors.New("time")
		}
		flags := b[k1+k2]
		b = b[k1+k2+1:]
		size, k3 := binary.Uvarint(b)
		if k3 <= 0 || size > uint64(len(b)-k3) {
			return nil, errors.New("record length")
		}
		rec, err := storage.ParseRecord(b[k3 : k3+int(size)])
		b = b[k3+int(size):]
		if err != nil {
			return nil, err
		}
		ev := Event(flags &^ serviceFlag)
		if rec.Kind != storage.RecordCommit || len(rec.Writes) == 0 || ev > Remove {
			return nil, errors.New("bad record")
		}
		w := rec.Writes[0]
		r := Record{Seq: seq, At: at, Event: ev, Service: flags&serviceFlag != 0,
			HasOld: w.HadOld, HasNew: w.HasNew, Key: w.Key, New: w.New}
		if r.HasOld {
			if len(rec.Writes) != 2 {
				return nil, errors.New("old image missing")
			}
			r.Old = rec.Writes[1].New
		}
		out = append(out, r)
	}
	if len(b) != 0 {
		return nil, errors.New("trailing bytes")
	}
	return out, nil
}
