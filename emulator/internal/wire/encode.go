package wire

import (
	"encoding/json"
	"math"
	"strconv"

	"github.com/dynamoemu/dynamoemu/internal/storage"
)

// The JSON appenders the outputs' appendJSON methods (encode_outputs.go)
// are built of: members, floats as encoding/json formats them, wire items,
// and stored items written straight from their records.

// AppendMember appends the member name (with a separating comma unless it
// is the first member of its object) and a colon.
func AppendMember(b []byte, first bool, name string) []byte {
	if !first {
		b = append(b, ',')
	}
	b = append(b, '"')
	b = append(b, name...)
	return append(b, '"', ':')
}

// AppendWireItem appends w as WireItem.MarshalJSON does.
func AppendWireItem(b []byte, w WireItem) []byte {
	if w == nil {
		return append(b, "null"...)
	}
	return AppendItem(b, w)
}

// AppendMarshal appends json.Marshal(v) for the rarely used members that
// have no appendJSON (json.Marshal cannot fail on them).
func AppendMarshal(b []byte, v any) []byte {
	out, err := json.Marshal(v)
	if err != nil {
		panic("emulator: encoding " + err.Error())
	}
	return append(b, out...)
}

// AppendFloat appends f as encoding/json formats a float64.
func AppendFloat(b []byte, f float64) []byte {
	format := byte('f')
	if abs := math.Abs(f); abs != 0 && (abs < 1e-6 || abs >= 1e21) {
		format = 'e'
	}
	b = strconv.AppendFloat(b, f, format, -1, 64)
	if format == 'e' {
		// clean up e-09 to e-9
		if n := len(b); n >= 4 && b[n-4] == 'e' && b[n-3] == '-' && b[n-2] == '0' {
			b[n-2] = b[n-1]
			b = b[:n-1]
		}
	}
	return b
}

// AppendStoredItem appends the JSON form of a stored item straight from its
// record, byte for byte what AppendItem appends for its decoded form (the
// record keeps attributes and map entries in AppendItem's sorted order). A
// corrupt record is a bug in storage: it panics, as decoding one does.
func AppendStoredItem(b []byte, e storage.EncodedItem) []byte {
	r := e.Reader()
	b = append(b, '{')
	for n := 0; ; n++ {
		name, ok := r.Next()
		if !ok {
			break
		}
		if n > 0 {
			b = append(b, ',')
		}
		b = AppendString(b, name)
		b = append(b, ':')
		b = appendStoredValue(b, &r)
	}
	if err := r.Err(); err != nil {
		panic("emulator: " + err.Error())
	}
	return append(b, '}')
}

// appendStoredValue appends the next value of r as AppendValue does.
func appendStoredValue(b []byte, r *storage.ItemReader) []byte {
	h := r.HeadLazy()
	switch h.Kind {
	case storage.KindS:
		b = append(b, `{"S":`...)
		b = AppendString(b, h.Str)
	case storage.KindN:
		b = append(b, `{"N":"`...)
		b = h.AppendNumber(b) // canonical number text needs no escaping
		b = append(b, '"')
	case storage.KindB:
		b = append(b, `{"B":`...)
		b = appendBase64(b, h.Str)
	case storage.KindBOOL:
		if h.Bool {
			b = append(b, `{"BOOL":true`...)
		} else {
			b = append(b, `{"BOOL":false`...)
		}
	case storage.KindNULL:
		b = append(b, `{"NULL":true`...)
	case storage.KindL:
		b = append(b, `{"L":[`...)
		for i := 0; i < h.Len; i++ {
			if i > 0 {
				b = append(b, ',')
			}
			b = appendStoredValue(b, r)
		}
		b = append(b, ']')
	case storage.KindM:
		b = append(b, `{"M":{`...)
		for i := 0; i < h.Len; i++ {
			if i > 0 {
				b = append(b, ',')
			}
			b = AppendString(b, r.EntryName())
			b = append(b, ':')
			b = appendStoredValue(b, r)
		}
		b = append(b, '}')
	case storage.KindSS, storage.KindNS, storage.KindBS:
		b = append(b, '{', '"')
		b = append(b, h.Kind.String()...)
		b = append(b, `":[`...)
		for i := 0; i < h.Len; i++ {
			if i > 0 {
				b = append(b, ',')
			}
			b = appendSetMember(b, h.Kind, r.Member())
		}
		b = append(b, ']')
	default:
		return append(b, "null"...) // only after a corrupt record, which panics
	}
	return append(b, '}')
}
