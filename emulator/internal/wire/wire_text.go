package wire

import "unicode/utf8"

// Text that is not Unicode. encoding/json (and, before this check, the
// request decoder) replaces invalid UTF-8 and lone UTF-16 surrogate escapes
// with U+FFFD, so "k\xff" and "k\xfe" would decode to the same key and the
// second PutItem would overwrite the first. DynamoDB stores no changed
// string: AWS answers a body that is not UTF-8 with a 400
// SerializationException without a message (public records of AWS's answer:
// aws/aws-sdk-php issues 1185 and 1536, PHP strings holding Latin-1 or
// binary bytes; github.com/aws/aws-sdk-js/issues/46). A lone surrogate escape such as
// "\ud800" names no Unicode character and has no UTF-8 form, so it gets the
// same answer; AWS's answer to it is not on record, and DynamoDB Local stores
// it as it is (it answers raw invalid bytes with a 500 InternalFailure).

// ValidJSONText reports whether raw, the bytes between the quotes of a JSON
// string (escapes not yet decoded), is valid UTF-8 whose \u escapes pair
// every UTF-16 surrogate.
func ValidJSONText(raw []byte) bool {
	if !utf8.Valid(raw) {
		return false
	}
	return !hasLoneSurrogate(raw)
}

// hasLoneSurrogate reports whether b, JSON text, has a \u escape of a UTF-16
// surrogate that is not a high surrogate directly followed by an escaped low
// one. Escapes are read left to right, so "\\ud800" (an escaped backslash
// and plain text) is not one.
func hasLoneSurrogate(b []byte) bool {
	for i := 0; i < len(b); i++ {
		if b[i] != '\\' {
			continue
		}
		if i+1 >= len(b) {
			return false
		}
		if b[i+1] != 'u' {
			i++ // the escaped byte
			continue
		}
		r, ok := hex4(b, i+2)
		if !ok {
			i++
			continue
		}
		i += 5 // the last hex digit
		switch {
		case r >= 0xDC00 && r <= 0xDFFF:
			return true // a low surrogate with no high one before it
		case r >= 0xD800 && r <= 0xDBFF:
			if i+2 >= len(b) || b[i+1] != '\\' || b[i+2] != 'u' {
				return true
			}
			lo, ok := hex4(b, i+3)
			if !ok || lo < 0xDC00 || lo > 0xDFFF {
				return true
			}
			i += 6
		}
	}
	return false
}

// hex4 reads four hex digits at b[i:].
func hex4(b []byte, i int) (rune, bool) {
	if i+4 > len(b) {
		return 0, false
	}
	var r rune
	for _, c := range b[i : i+4] {
		switch {
		case c >= '0' && c <= '9':
			r = r<<4 | rune(c-'0')
		case c >= 'a' && c <= 'f':
			r = r<<4 | rune(c-'a'+10)
		case c >= 'A' && c <= 'F':
			r = r<<4 | rune(c-'A'+10)
		default:
			return 0, false
		}
	}
	return r, true
}
