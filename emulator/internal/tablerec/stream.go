package tablerec

import (
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/dynamoemu/dynamoemu/emulator/internal/streamlog"
)

// A namespace's streams in a persistence snapshot are pieces: per
// stream a header piece, then its records in pieces. Each piece is
// version(1) kind(1) body; kind pieceStream, a StreamPiece as JSON; kind
// pieceRecords, records in streamlog's binary form
// (streamlog.AppendRecords).
const (
	pieceVersion = 1
	pieceStream  = 1
	pieceRecords = 2
)

// StreamPiece is a stream's identity and state at a snapshot's mark.
type StreamPiece struct {
	ARN        string    `json:"arn"`
	Label      string    `json:"label"`
	Table      string    `json:"table"`
	Region     string    `json:"region"`
	View       string    `json:"view"`
	KeySchema  []Key     `json:"keySchema"`
	Schema     []Key     `json:"schema"`
	Shard      string    `json:"shard"`
	Created    time.Time `json:"created"`
	Next       uint64    `json:"next"`
	DisabledAt time.Time `json:"disabledAt,omitzero"`
	At         time.Time `json:"at"` // the mark's time
	// Def is the definition record of the stream's table at the mark
	// (none: not known), so that a stream outliving its table is still
	// the table's after a restart.
	Def []byte `json:"def,omitempty"`
}

// EncodeStreamPiece is the header piece of the stream p describes.
func EncodeStreamPiece(p *StreamPiece) []byte {
	b, err := json.Marshal(p)
	if err != nil {
		panic("service: encoding a stream: " + err.Error()) // plain data
	}
	return append([]byte{pieceVersion, pieceStream}, b...)
}

// EncodeRecordsPiece is a piece of records recs.
func EncodeRecordsPiece(recs []streamlog.Record) ([]byte, error) {
	return streamlog.AppendRecords([]byte{pieceVersion, pieceRecords}, recs)
}

// ErrPiece is the error of pieces that do not parse.
var ErrPiece = errors.New("stream state in the snapshot does not parse")

// ParsePieces reads the streams of a snapshot's pieces, calling each
// with every stream and its records, in order, as soon as the next
// stream's header (or the end) is read; it stops at each's first error.
func ParsePieces(pieces [][]byte, each func(p *StreamPiece, recs []streamlog.Record) error) error {
	var p *StreamPiece
	var recs []streamlog.Record
	finish := func() error {
		if p == nil {
			return nil
		}
		if err := each(p, recs); err != nil {
			return err
		}
		p, recs = nil, nil
		return nil
	}
	for i, b := range pieces {
		if len(b) < 2 || b[0] != pieceVersion {
			return fmt.Errorf("%w: piece %d: version", ErrPiece, i)
		}
		switch b[1] {
		case pieceStream:
			if err := finish(); err != nil {
				return err
			}
			p = new(StreamPiece)
			if err := json.Unmarshal(b[2:], p); err != nil {
				return fmt.Errorf("%w: piece %d: %v", ErrPiece, i, err)
			}
		case pieceRecords:
			if p == nil {
				return fmt.Errorf("%w: piece %d: records before their stream", ErrPiece, i)
			}
			rs, err := streamlog.ParseRecords(b[2:])
			if err != nil {
				return fmt.Errorf("%w: piece %d: %v", ErrPiece, i, err)
			}
			recs = append(recs, rs...)
		default:
			return fmt.Errorf("%w: piece %d: kind %d", ErrPiece, i, b[1])
		}
	}
	return finish()
}
