package wire

import (
	"encoding/base64"
	"hash/crc32"
	"slices"
	"unicode/utf8"

	"github.com/dynamoemu/dynamoemu/internal/storage"
)

const hexDigits = "0123456789abcdef"

// AppendString appends s as a JSON string. Invalid UTF-8 becomes U+FFFD, as
// encoding/json does.
func AppendString(b []byte, s string) []byte {
	b = append(b, '"')
	if i := plainPrefix(s); i < len(s) { // wire_plain.go
		b = appendEscaped(b, s, i)
	} else {
		b = append(b, s...) // most strings: no call more
	}
	return append(b, '"')
}

// appendEscaped appends s as the inside of a JSON string (AppendString
// without the quotes), from its first byte that may need care, i (a
// plainPrefix).
func appendEscaped(b []byte, s string, i int) []byte {
	start := 0
	for i < len(s) {
		c := s[i]
		if c < utf8.RuneSelf {
			if c >= 0x20 && c != '"' && c != '\\' {
				i++
				continue
			}
			b = append(b, s[start:i]...)
			switch c {
			case '"', '\\':
				b = append(b, '\\', c)
			case '\n':
				b = append(b, '\\', 'n')
			case '\r':
				b = append(b, '\\', 'r')
			case '\t':
				b = append(b, '\\', 't')
			default:
				b = append(b, '\\', 'u', '0', '0', hexDigits[c>>4], hexDigits[c&0xf])
			}
			i++
			start = i
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 {
			b = append(b, s[start:i]...)
			b = append(b, `\ufffd`...)
			i += size
			start = i
			continue
		}
		if r == '\u2028' || r == '\u2029' {
			b = append(b, s[start:i]...)
			b = append(b, '\\', 'u', '2', '0', '2', hexDigits[r&0xf])
			i += size
			start = i
			continue
		}
		i += size
	}
	return append(b, s[start:]...)
}

func appendBase64(b []byte, raw string) []byte {
	b = append(b, '"')
	b = base64.StdEncoding.AppendEncode(b, []byte(raw))
	return append(b, '"')
}

// AppendValue appends the JSON form of v; an invalid Value encodes as null.
func AppendValue(b []byte, v storage.Value) []byte {
	switch v.Kind() {
	case storage.KindS:
		b = append(b, `{"S":`...)
		b = AppendString(b, v.Str())
	case storage.KindN:
		b = append(b, `{"N":"`...)
		b = append(b, v.Str()...) // canonical number text needs no escaping
		b = append(b, '"')
	case storage.KindB:
		b = append(b, `{"B":`...)
		b = appendBase64(b, v.Str())
	case storage.KindBOOL:
		if v.Bool() {
			b = append(b, `{"BOOL":true`...)
		} else {
			b = append(b, `{"BOOL":false`...)
		}
	case storage.KindNULL:
		b = append(b, `{"NULL":true`...)
	case storage.KindL:
		b = append(b, `{"L":[`...)
		for i, e := range v.List() {
			if i > 0 {
				b = append(b, ',')
			}
			b = AppendValue(b, e)
		}
		b = append(b, ']')
	case storage.KindM:
		b = append(b, `{"M":`...)
		b = AppendItem(b, v.Map())
	case storage.KindSS, storage.KindNS, storage.KindBS:
		b = append(b, '{', '"')
		b = append(b, v.Kind().String()...)
		b = append(b, `":[`...)
		for i, m := range v.Members() {
			if i > 0 {
				b = append(b, ',')
			}
			b = appendSetMember(b, v.Kind(), m)
		}
		b = append(b, ']')
	default:
		return append(b, "null"...)
	}
	return append(b, '}')
}

// appendSetMember appends one member of a set of kind k: SS text, NS
// canonical text (which needs no escaping) or BS raw bytes.
func appendSetMember(b []byte, k storage.Kind, m string) []byte {
	switch k {
	case storage.KindSS:
		return AppendString(b, m)
	case storage.KindNS:
		b = append(b, '"')
		b = append(b, m...)
		return append(b, '"')
	}
	return appendBase64(b, m)
}

// AppendItem appends {"name":value,...} with names in sorted order, so equal
// items always encode to equal bytes.
func AppendItem(b []byte, it map[string]storage.Value) []byte {
	var buf [16]string
	names := buf[:0]
	for k := range it {
		names = append(names, k)
	}
	slices.Sort(names)
	b = append(b, '{')
	for i, k := range names {
		if i > 0 {
			b = append(b, ',')
		}
		b = AppendString(b, k)
		b = append(b, ':')
		b = AppendValue(b, it[k])
	}
	return append(b, '}')
}

// EchoHash is the hash of v an answer echoes in v's place (a batch over
// its count limit echoes each attribute's): the CRC-32 of v's JSON
// (AppendValue, written at buf's end), of a list over MaxItemBytes only
// up to the element that takes it over, which is what overList keeps of
// it, so that a list's hash is one whatever the decoder kept of it.
func EchoHash(buf []byte, v storage.Value) uint32 {
	if v.Kind() != storage.KindL || storage.ValueSize(v) <= MaxItemBytes {
		return crc32.ChecksumIEEE(AppendValue(buf, v))
	}
	b := append(buf, `{"L":[`...)
	size := 3 // a list's own bytes, as storage.ValueSize counts them
	for i, e := range v.List() {
		if i > 0 {
			b = append(b, ',')
		}
		b = AppendValue(b, e)
		if size += 1 + storage.ValueSize(e); size > MaxItemBytes {
			break
		}
	}
	return crc32.ChecksumIEEE(append(b, "]}"...))
}
