package lex

// IsLetter reports whether c is an ASCII letter.
func IsLetter(c byte) bool { return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }

// IsDigit reports whether c is an ASCII digit.
func IsDigit(c byte) bool { return c >= '0' && c <= '9' }

// UTF16Len returns the length of s in UTF-16 code units: DynamoDB (a Java
// service) counts expression sizes, string sizes and columns that way. A
// byte that is not valid UTF-8 counts as one unit (U+FFFD).
func UTF16Len(s string) int {
	n := 0
	for _, r := range s {
		n++
		if r >= 0x10000 {
			n++
		}
	}
	return n
}

// Position returns the 1-based line and column of byte offset off in src,
// the column counted in UTF-16 code units. Lines end at "\n". An offset
// past the end is taken as the end.
func Position(src string, off int) (line, col int) {
	if off > len(src) {
		off = len(src)
	}
	if off < 0 {
		off = 0
	}
	line, col = 1, 1
	for _, r := range src[:off] {
		switch {
		case r == '\n':
			line, col = line+1, 1
		case r >= 0x10000:
			col += 2
		default:
			col++
		}
	}
	return line, col
}
