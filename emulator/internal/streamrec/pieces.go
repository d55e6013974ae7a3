package streamrec

import (
	"fmt"
	"time"

	"github.com/dynamoemu/dynamoemu/emulator/internal/streamlog"
	"github.com/dynamoemu/dynamoemu/emulator/internal/tablerec"
	"github.com/dynamoemu/dynamoemu/internal/storage"
)

// A snapshot carries every stream of a namespace as it stood at the
// snapshot's mark: per stream a header piece (its identity, where its
// numbering stands, whether and when it was disabled), then its records
// within the retention, in pieces of up to captureBatch (tablerec frames
// them).

// DisabledAt returns when the stream was disabled (zero: it is open).
func (s Stream) DisabledAt() time.Time {
	_, _, disabled := s.s.log.Mark()
	return disabled
}

// Capture notes where each of streams stands, and returns the function
// that writes them out at the mark's time at: per stream a header piece
// (with the definition record of its Owner, def's; def nil: none), then
// its records, read from the live log a batch at a time (so no lock is
// held long; records trimmed meanwhile are simply not written).
func Capture(streams []Stream, at time.Time, def func(owner any) []byte) func(emit func([]byte) error) error {
	type mark struct {
		s           Stream
		first, next uint64
		disabled    time.Time
		def         []byte
	}
	marks := make([]mark, len(streams))
	for i, s := range streams {
		first, next, disabled := s.s.log.Mark()
		marks[i] = mark{s, first, next, disabled, nil}
		if o := s.Owner(); o != nil && def != nil {
			marks[i].def = def(o)
		}
	}
	return func(emit func([]byte) error) error {
		for _, m := range marks {
			if err := emit(encodePiece(m.s.s, m.next, m.disabled, at, m.def)); err != nil {
				return err
			}
			for from := m.first; from < m.next; {
				recs := m.s.s.log.Copy(from, m.next, captureBatch)
				if len(recs) == 0 {
					break
				}
				b, err := tablerec.EncodeRecordsPiece(recs)
				if err != nil {
					return err
				}
				if err := emit(b); err != nil {
					return err
				}
				from = recs[len(recs)-1].Seq + 1
			}
		}
		return nil
	}
}

// captureBatch is the number of records per piece.
const captureBatch = 1024

// encodePiece is the header piece of s at a snapshot's mark.
func encodePiece(s *stream, next uint64, disabled, at time.Time, def []byte) []byte {
	schema := []storage.KeyAttr{s.schema.Partition}
	if s.schema.HasSort() {
		schema = append(schema, s.schema.Sort)
	}
	return tablerec.EncodeStreamPiece(&tablerec.StreamPiece{
		ARN: s.arn, Label: s.label, Table: s.tableName, Region: s.region, View: s.viewType,
		KeySchema: tablerec.KeyElemRecords(s.keySchema), Schema: tablerec.KeyAttrRecords(schema),
		Shard: s.shardID, Created: s.created, Next: next, DisabledAt: disabled, At: at, Def: def,
	})
}

// Captured is a stream read back from a snapshot.
type Captured struct {
	Stream
	At   time.Time // the mark's time
	Live bool      // its table was found with it enabled (the reader's to set)
	Def  []byte    // its table's definition record at the mark (nil: not known)
}

// ParsePieces reads the streams of a snapshot's pieces, each with the
// options o (its clock and the bound of its bytes).
func ParsePieces(pieces [][]byte, o Options) ([]*Captured, error) {
	var out []*Captured
	err := tablerec.ParsePieces(pieces, func(p *tablerec.StreamPiece, recs []streamlog.Record) error {
		c, err := restore(p, recs, o)
		if err != nil {
			return err
		}
		out = append(out, c)
		return nil
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

// restore makes the stream p describes, with records recs (those before
// a gap dropped: the log trimmed them while the snapshot was written, so
// they were past the retention).
func restore(p *tablerec.StreamPiece, recs []streamlog.Record, o Options) (*Captured, error) {
	for i := len(recs) - 1; i > 0; i-- {
		if recs[i].Seq != recs[i-1].Seq+1 {
			recs = recs[i:]
			break
		}
	}
	schema := tablerec.KeyAttrs(p.Schema)
	if len(schema) == 0 {
		return nil, fmt.Errorf("%w: stream %s: no key schema", tablerec.ErrPiece, p.ARN)
	}
	ks := storage.KeySchema{Partition: schema[0]}
	if len(schema) > 1 {
		ks.Sort = schema[1]
	}
	s := &stream{
		arn: p.ARN, label: p.Label, tableName: p.Table, region: p.Region, viewType: p.View,
		keySchema: tablerec.KeyElems(p.KeySchema), schema: ks, shardID: p.Shard, created: p.Created,
		clock: o.Clock, idPrefix: streamlog.EventIDPrefix(p.ARN),
	}
	// The images, parsed from records, get their key attributes back.
	kp := &s.schema
	for i := range recs {
		if recs[i].HasNew {
			recs[i].New = recs[i].New.WithKeySchema(kp)
		}
		if recs[i].HasOld {
			recs[i].Old = recs[i].Old.WithKeySchema(kp)
		}
	}
	log, err := streamlog.Restore(o.retention(), p.Next, p.DisabledAt, recs)
	if err != nil {
		return nil, fmt.Errorf("%w: stream %s: %v", tablerec.ErrPiece, p.ARN, err)
	}
	s.log = log
	log.Attach(o.Budget)
	return &Captured{Stream: Stream{s: s}, At: p.At, Def: p.Def}, nil
}
