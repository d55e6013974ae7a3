package ion

import (
	"encoding/base64"
	"slices"
	"strconv"
	"unicode/utf8"

	"github.com/dynamoemu/dynamoemu/internal/storage"
)

// Amazon Ion text, the second format of DynamoDB's exports and imports
// (Developer Guide, "DynamoDB table export output format", section
// "Amazon Ion", and "Amazon S3 import formats for DynamoDB"). The
// mapping is AWS's table: S is an Ion string, N a decimal, B a blob,
// BOOL a bool, SS/NS/BS a list annotated $dynamodb_SS/$dynamodb_NS/
// $dynamodb_BS, L a list, M a struct; NULL, which the table leaves out,
// is Ion's null. An export writes a line per item, the version marker
// first, as AWS's example shows:
//
//	$ion_1_0 {Item:{Authors:$dynamodb_SS::["Author1","Author2"],Id:103.,PageCount:6d2,Price:2d3}}
//
// Numbers are written as AWS writes them: an integer as its digits and a
// point (103.), its trailing zeros as an exponent (6d2 for 600), a
// fraction as it is (1.5). read.go reads the format back.

// VersionMarker starts every line of an Ion export.
const VersionMarker = "$ion_1_0"

// hexDigits are the digits of a \x escape.
const hexDigits = "0123456789abcdef"

// Ion annotations of DynamoDB's sets.
const (
	ionAnnotSS = "$dynamodb_SS"
	ionAnnotNS = "$dynamodb_NS"
	ionAnnotBS = "$dynamodb_BS"
)

// AppendStoredItem appends the Ion struct of a stored item straight
// from its record (attributes in the record's sorted order).
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
		b = appendIonSymbol(b, name)
		b = append(b, ':')
		b = appendIonStoredValue(b, &r)
	}
	if err := r.Err(); err != nil {
		panic("emulator: " + err.Error())
	}
	return append(b, '}')
}

// AppendItem appends the Ion struct of it, names sorted.
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
		b = appendIonSymbol(b, k)
		b = append(b, ':')
		b = AppendValue(b, it[k])
	}
	return append(b, '}')
}

// AppendValue appends the Ion form of v.
func AppendValue(b []byte, v storage.Value) []byte {
	switch v.Kind() {
	case storage.KindS:
		return appendIonString(b, v.Str())
	case storage.KindN:
		return appendIonDecimal(b, v.Str())
	case storage.KindB:
		return appendIonBlob(b, v.Str())
	case storage.KindBOOL:
		return strconv.AppendBool(b, v.Bool())
	case storage.KindL:
		b = append(b, '[')
		for i, e := range v.List() {
			if i > 0 {
				b = append(b, ',')
			}
			b = AppendValue(b, e)
		}
		return append(b, ']')
	case storage.KindM:
		return AppendItem(b, v.Map())
	case storage.KindSS, storage.KindNS, storage.KindBS:
		b = appendIonSetStart(b, v.Kind())
		for i, m := range v.Members() {
			if i > 0 {
				b = append(b, ',')
			}
			b = appendIonSetMember(b, v.Kind(), m)
		}
		return append(b, ']')
	}
	return append(b, "null"...)
}

// appendIonStoredValue appends the next value of r as AppendValue does.
func appendIonStoredValue(b []byte, r *storage.ItemReader) []byte {
	h := r.Head()
	switch h.Kind {
	case storage.KindS:
		return appendIonString(b, h.Str)
	case storage.KindN:
		return appendIonDecimal(b, h.Str)
	case storage.KindB:
		return appendIonBlob(b, h.Str)
	case storage.KindBOOL:
		return strconv.AppendBool(b, h.Bool)
	case storage.KindL:
		b = append(b, '[')
		for i := 0; i < h.Len; i++ {
			if i > 0 {
				b = append(b, ',')
			}
			b = appendIonStoredValue(b, r)
		}
		return append(b, ']')
	case storage.KindM:
		b = append(b, '{')
		for i := 0; i < h.Len; i++ {
			if i > 0 {
				b = append(b, ',')
			}
			b = appendIonSymbol(b, r.EntryName())
			b = append(b, ':')
			b = appendIonStoredValue(b, r)
		}
		return append(b, '}')
	case storage.KindSS, storage.KindNS, storage.KindBS:
		b = appendIonSetStart(b, h.Kind)
		for i := 0; i < h.Len; i++ {
			if i > 0 {
				b = append(b, ',')
			}
			b = appendIonSetMember(b, h.Kind, r.Member())
		}
		return append(b, ']')
	}
	return append(b, "null"...)
}

func appendIonSetStart(b []byte, k storage.Kind) []byte {
	switch k {
	case storage.KindSS:
		b = append(b, ionAnnotSS...)
	case storage.KindNS:
		b = append(b, ionAnnotNS...)
	default:
		b = append(b, ionAnnotBS...)
	}
	return append(b, "::["...)
}

func appendIonSetMember(b []byte, k storage.Kind, m string) []byte {
	switch k {
	case storage.KindSS:
		return appendIonString(b, m)
	case storage.KindNS:
		return appendIonDecimal(b, m)
	}
	return appendIonBlob(b, m)
}

// appendIonDecimal appends canonical number text (storage.Number: plain
// notation, no trailing fractional zeros) as an Ion decimal: a fraction
// as it is, an integer with a point, or with its trailing zeros as a "d"
// exponent.
func appendIonDecimal(b []byte, n string) []byte {
	for i := 0; i < len(n); i++ {
		if n[i] == '.' {
			return append(b, n...)
		}
	}
	zeros := 0
	for zeros < len(n)-1 && n[len(n)-1-zeros] == '0' {
		zeros++
	}
	if zeros == 0 || n == "0" {
		b = append(b, n...)
		return append(b, '.')
	}
	b = append(b, n[:len(n)-zeros]...)
	b = append(b, 'd')
	return strconv.AppendInt(b, int64(zeros), 10)
}

// appendIonBlob appends raw bytes as an Ion blob: {{base64}}.
func appendIonBlob(b []byte, raw string) []byte {
	b = append(b, "{{"...)
	b = base64.StdEncoding.AppendEncode(b, []byte(raw))
	return append(b, "}}"...)
}

// appendIonString appends s as a short Ion string. Invalid UTF-8 becomes
// U+FFFD, as AppendString does.
func appendIonString(b []byte, s string) []byte {
	b = append(b, '"')
	b = appendIonEscaped(b, s, '"')
	return append(b, '"')
}

// appendIonSymbol appends a field name: an identifier as it is, any
// other name as a quoted symbol.
func appendIonSymbol(b []byte, s string) []byte {
	if ionIdentifier(s) {
		return append(b, s...)
	}
	b = append(b, '\'')
	b = appendIonEscaped(b, s, '\'')
	return append(b, '\'')
}

// ionIdentifier reports whether s can be written as an unquoted symbol:
// [A-Za-z_$][A-Za-z0-9_$]*, not a keyword and not a symbol id ($7).
func ionIdentifier(s string) bool {
	if s == "" || s == "null" || s == "true" || s == "false" || s == "nan" {
		return false
	}
	digits := s[0] == '$' && len(s) > 1
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c >= 'a' && c <= 'z', c >= 'A' && c <= 'Z', c == '_', c == '$':
			if i > 0 {
				digits = false
			}
		case c >= '0' && c <= '9' && i > 0:
		default:
			return false
		}
	}
	return !digits
}

// appendIonEscaped appends s's characters for a string or quoted symbol
// closed by quote.
func appendIonEscaped(b []byte, s string, quote byte) []byte {
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			switch {
			case c == quote || c == '\\':
				b = append(b, '\\', c)
			case c == '\n':
				b = append(b, '\\', 'n')
			case c == '\r':
				b = append(b, '\\', 'r')
			case c == '\t':
				b = append(b, '\\', 't')
			case c < 0x20 || c == 0x7f:
				b = append(b, '\\', 'x', hexDigits[c>>4], hexDigits[c&0xf])
			default:
				b = append(b, c)
			}
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 {
			b = append(b, "\\uFFFD"...)
		} else {
			b = append(b, s[i:i+size]...)
		}
		i += size
	}
	return b
}
