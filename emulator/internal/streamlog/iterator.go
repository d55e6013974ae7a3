package streamlog

import (
	"encoding/base64"
	"encoding/binary"
	"hash/crc32"
	"hash/fnv"
	"strconv"
	"strings"
	"time"
)

// Shard iterators and sequence numbers on the wire.
//
// A shard iterator is "<stream ARN>|1|<payload>", the shape AWS's have,
// where the payload is unpadded base64url of: the sequence number of the
// next record to read (8 bytes, big-endian), the time the iterator was
// made (Unix nanoseconds, 8 bytes) and a CRC-32 of the ARN and those 16
// bytes (4 bytes), so a mangled iterator is refused rather than misread.
// Iterators hold no server state: any number may be outstanding.
//
// A sequence number is its decimal value zero-padded to 21 digits, as
// DynamoDB Local writes them (AWS's are 21 to 40 digit decimals too).

const (
	iteratorVersion = "1"
	iteratorPayload = 20
	// MaxIteratorLen is AWS's model constraint on ShardIterator.
	MaxIteratorLen = 2048
	sequenceDigits = 21
	// MaxSequenceChars is the most digits a sequence number may have.
	MaxSequenceChars = 40
)

// Iterator is a decoded shard iterator.
type Iterator struct {
	ARN  string    // the stream's
	Pos  uint64    // sequence number of the next record
	Made time.Time // when GetShardIterator or GetRecords made it
}

// Encode returns the iterator's wire form.
func (it Iterator) Encode() string {
	var p [iteratorPayload]byte
	binary.BigEndian.PutUint64(p[0:], it.Pos)
	binary.BigEndian.PutUint64(p[8:], uint64(it.Made.UnixNano()))
	binary.BigEndian.PutUint32(p[16:], iteratorCRC(it.ARN, p[:16]))
	return it.ARN + "|" + iteratorVersion + "|" + base64.RawURLEncoding.EncodeToString(p[:])
}

func iteratorCRC(arn string, b []byte) uint32 {
	h := crc32.NewIEEE()
	h.Write([]byte(arn))
	h.Write(b)
	return h.Sum32()
}

// DecodeIterator parses an iterator made by Encode; ok is false for
// anything else.
func DecodeIterator(s string) (Iterator, bool) {
	if len(s) > MaxIteratorLen {
		return Iterator{}, false
	}
	i := strings.LastIndexByte(s, '|')
	if i < 0 {
		return Iterator{}, false
	}
	head, payload := s[:i], s[i+1:]
	arn, version, ok := strings.Cut(head, "|")
	if !ok || version != iteratorVersion || !strings.HasPrefix(arn, "arn:") {
		return Iterator{}, false
	}
	if base64.RawURLEncoding.DecodedLen(len(payload)) != iteratorPayload {
		return Iterator{}, false
	}
	var p [iteratorPayload]byte
	if n, err := base64.RawURLEncoding.Decode(p[:], []byte(payload)); err != nil || n != iteratorPayload {
		return Iterator{}, false
	}
	if binary.BigEndian.Uint32(p[16:]) != iteratorCRC(arn, p[:16]) {
		return Iterator{}, false
	}
	return Iterator{
		ARN:  arn,
		Pos:  binary.BigEndian.Uint64(p[0:]),
		Made: time.Unix(0, int64(binary.BigEndian.Uint64(p[8:]))),
	}, true
}

// FormatSequenceNumber writes n as a 21-digit sequence number.
func FormatSequenceNumber(n uint64) string { return string(AppendSequenceNumber(nil, n)) }

// AppendSequenceNumber appends FormatSequenceNumber(n) to b.
func AppendSequenceNumber(b []byte, n uint64) []byte {
	var d [20]byte // a uint64 has at most 20 digits
	digits := strconv.AppendUint(d[:0], n, 10)
	for i := len(digits); i < sequenceDigits; i++ {
		b = append(b, '0')
	}
	return append(b, digits...)
}

// ParseSequenceNumber reads a sequence number: 1 to 40 decimal digits
// whose value fits a uint64.
func ParseSequenceNumber(s string) (uint64, bool) {
	if len(s) == 0 || len(s) > MaxSequenceChars {
		return 0, false
	}
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return 0, false
		}
	}
	s = strings.TrimLeft(s, "0")
	if s == "" {
		return 0, true
	}
	n, err := strconv.ParseUint(s, 10, 64)
	if err != nil {
		return 0, false
	}
	return n, true
}

// EventIDPrefix is the first 16 hex digits of the eventIDs of the stream
// with ARN arn; the sequence number makes the other 16.
func EventIDPrefix(arn string) string {
	h := fnv.New64a()
	h.Write([]byte(arn))
	return hex16(h.Sum64())
}

func hex16(v uint64) string { return string(AppendHex16(nil, v)) }

// AppendHex16 appends v as 16 lower-case hex digits.
func AppendHex16(b []byte, v uint64) []byte {
	const digits = "0123456789abcdef"
	for shift := 60; shift >= 0; shift -= 4 {
		b = append(b, digits[v>>uint(shift)&0xf])
	}
	return b
}
