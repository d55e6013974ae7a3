package httploop

import (
	"bytes"
	"encoding/binary"
	"strings"
)

// The request head as the connection loop (loop.go) reads it. The loop
// serves a request itself only when it is an API call of the plainest form,
// which is what the SDKs and the AWS CLI send: POST / over HTTP/1.1 (or
// HTTP/1.0 without keep-alive) with a Content-Length, and none of the
// headers that ask for more of HTTP (Transfer-Encoding, Expect, Upgrade)
// or come from a browser (Origin: CORS). Anything else, and anything the
// parser is not sure about (obsolete line folding, bare LF line ends,
// repeated headers it reads, bytes net/http refuses), is not eligible: the
// connection goes to net/http, which answers it as it always did.

// Head is what the loop reads of an eligible request's head. Its
// strings alias nothing: they are copied out of the read buffer (one
// allocation for all of them, and for ReqID).
type Head struct {
	HTTP10          bool // HTTP/1.0: the connection closes after the answer
	Close           bool // Connection: close
	ContentLength   int64
	Host            string
	Target          string // X-Amz-Target
	Auth            string // Authorization
	ContentType     string
	ContentEncoding string // "" when absent
	AcceptEncoding  string // "" when absent
	Tenant          string // X-Tenant-Code (the emulator's headerTenantCode)
	Branch          string // X-Dynamoemu-Branch (the emulator's headerBranch)
	ReqID           string // a fresh request ID for its answer (NewRequestID's)
}

// headFields are the header names the parser reads, lower case, and what
// each is.
const (
	fieldOther = iota
	fieldHost
	fieldTarget
	fieldAuth
	fieldContentType
	fieldContentEncoding
	fieldAcceptEncoding
	fieldTenant
	fieldBranch
	fieldContentLength
	fieldConnection
	fieldRefused // Transfer-Encoding, Expect, Upgrade, Origin: net/http's
	fieldCount
)

// fieldOf returns which header name is (ASCII, any case).
func fieldOf(name []byte) int {
	switch len(name) {
	case 4:
		if asciiEqualFold(name, "host") {
			return fieldHost
		}
	case 6:
		if asciiEqualFold(name, "expect") || asciiEqualFold(name, "origin") {
			return fieldRefused
		}
	case 7:
		if asciiEqualFold(name, "upgrade") {
			return fieldRefused
		}
	case 10:
		if asciiEqualFold(name, "connection") {
			return fieldConnection
		}
	case 12:
		if asciiEqualFold(name, "x-amz-target") {
			return fieldTarget
		}
		if asciiEqualFold(name, "content-type") {
			return fieldContentType
		}
	case 13:
		if asciiEqualFold(name, "authorization") {
			return fieldAuth
		}
		if asciiEqualFold(name, "x-tenant-code") { // headerTenantCode
			return fieldTenant
		}
	case 14:
		if asciiEqualFold(name, "content-length") {
			return fieldContentLength
		}
	case 15:
		if asciiEqualFold(name, "accept-encoding") {
			return fieldAcceptEncoding
		}
	case 16:
		if asciiEqualFold(name, "content-encoding") {
			return fieldContentEncoding
		}
	case 17:
		if asciiEqualFold(name, "transfer-encoding") {
			return fieldRefused
		}
	case 18:
		if asciiEqualFold(name, "x-dynamoemu-branch") { // headerBranch
			return fieldBranch
		}
	}
	return fieldOther
}

// asciiEqualFold reports whether b is s (lower case) in any ASCII case.
func asciiEqualFold(b []byte, s string) bool {
	if len(b) != len(s) {
		return false
	}
	for i := 0; i < len(b); i++ {
		c := b[i]
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		if c != s[i] {
			return false
		}
	}
	return true
}

// HeadEnd returns the length of the head at the start of b (through the
// empty line that ends it), or -1 when b holds no complete head. Only CRLF
// line ends count; a head with a bare LF is found by net/http, not here.
func HeadEnd(b []byte) int {
	if i := bytes.Index(b, crlfcrlf); i >= 0 {
		return i + 4
	}
	return -1
}

var crlfcrlf = []byte("\r\n\r\n")

// ParseHead parses a complete head (as HeadEnd delimits it). ok is false
// when the request is not eligible for the loop.
func ParseHead(b []byte, h *Head) (ok bool) {
	line, rest, found := bytes.Cut(b, crlf)
	if !found {
		return false
	}
	switch string(line) {
	case "POST / HTTP/1.1":
	case "POST / HTTP/1.0":
		h.HTTP10 = true
	default:
		return false
	}
	var vals [fieldCount][]byte
	var seen [fieldCount]bool
	if !readFields(rest, &vals, &seen) {
		return false
	}
	if !seen[fieldContentLength] || !h.HTTP10 && !seen[fieldHost] {
		return false
	}
	n, ok := parseContentLength(vals[fieldContentLength])
	if !ok {
		return false
	}
	h.ContentLength = n
	if !validHost(vals[fieldHost]) {
		return false
	}
	if seen[fieldConnection] {
		c := connectionTokens(vals[fieldConnection])
		switch {
		case c&connUnknown != 0:
			return false
		case c&connKeepAlive != 0 && h.HTTP10:
			return false // HTTP/1.0 keep-alive: net/http's
		}
		h.Close = c&connClose != 0
	}
	h.setValues(&vals)
	return true
}

// readFields reads the header fields of a head after its request line,
// through the empty line, into vals and seen; false when the request is
// not eligible for the loop.
func readFields(rest []byte, vals *[fieldCount][]byte, seen *[fieldCount]bool) bool {
	for {
		var line []byte
		var found bool
		line, rest, found = bytes.Cut(rest, crlf)
		if !found {
			return false
		}
		if len(line) == 0 {
			return true
		}
		colon := bytes.IndexByte(line, ':')
		if colon <= 0 {
			return false // no name, or a continuation line (starts with a blank)
		}
		name := line[:colon]
		for _, c := range name {
			if !isTokenChar(c) {
				return false
			}
		}
		val := trimBlanks(line[colon+1:])
		if !fieldValueOK(val) {
			return false
		}
		f := fieldOf(name)
		switch {
		case f == fieldRefused:
			return false
		case f == fieldOther:
			continue
		case seen[f]:
			return false // repeated: net/http decides what it means
		}
		seen[f] = true
		vals[f] = val
	}
}

// fieldValueOK reports whether val holds no control byte but tab: no
// byte below ' ' other than '\t', and no DEL. Eight bytes at a time while
// none is below ' ' or DEL (wire's plainPrefix's trick), the rest, and a
// word with one, byte by byte. BenchmarkFieldValue, an SDK's
// Authorization, best of 5: 142 ns byte by byte, 51 ns so.
func fieldValueOK(val []byte) bool {
	const ones, highs = 0x0101010101010101, 0x8080808080808080
	i := 0
	for ; i+8 <= len(val); i += 8 {
		w := binary.LittleEndian.Uint64(val[i:])
		del := w ^ (ones * 0x7f)
		if ((w-ones*' ')&^w|(del-ones)&^del)&highs != 0 {
			break // a byte below ' ' or a DEL (or a false alarm past one)
		}
	}
	for _, c := range val[i:] {
		if c < ' ' && c != '\t' || c == 0x7f {
			return false
		}
	}
	return true
}

// setValues sets h's string fields from vals, and ReqID. One string for
// all of them, sliced: one allocation, a strings.Builder's (its String
// does not copy), where a []byte made and then converted took two
// (TestAllocationBudgets, the loop's rows). The request ID made here
// rather than by its own NewRequestID saves the loop an allocation a
// request: GetItem 6 -> 5 objects (TestAllocationBudgets, loop).
func (h *Head) setValues(vals *[fieldCount][]byte) {
	size := RequestIDLen
	for f := fieldHost; f <= fieldBranch; f++ {
		size += len(vals[f])
	}
	var all strings.Builder
	all.Grow(size)
	for f := fieldHost; f <= fieldBranch; f++ {
		all.Write(vals[f])
	}
	var id [RequestIDLen]byte
	putRequestID(&id)
	all.Write(id[:])
	s := all.String()
	pos := 0
	take := func(n int) string {
		v := s[pos : pos+n]
		pos += n
		return v
	}
	h.Host = take(len(vals[fieldHost]))
	h.Target = take(len(vals[fieldTarget]))
	h.Auth = take(len(vals[fieldAuth]))
	h.ContentType = take(len(vals[fieldContentType]))
	h.ContentEncoding = take(len(vals[fieldContentEncoding]))
	h.AcceptEncoding = take(len(vals[fieldAcceptEncoding]))
	h.Tenant = take(len(vals[fieldTenant]))
	h.Branch = take(len(vals[fieldBranch]))
	h.ReqID = take(RequestIDLen)
}

var crlf = []byte("\r\n")

// trimBlanks drops leading and trailing spaces and tabs.
func trimBlanks(b []byte) []byte {
	for len(b) > 0 && (b[0] == ' ' || b[0] == '\t') {
		b = b[1:]
	}
	for len(b) > 0 && (b[len(b)-1] == ' ' || b[len(b)-1] == '\t') {
		b = b[:len(b)-1]
	}
	return b
}

// isTokenChar reports whether c may appear in a header name (RFC 9110's
// tchar).
func isTokenChar(c byte) bool {
	switch {
	case 'a' <= c && c <= 'z', 'A' <= c && c <= 'Z', '0' <= c && c <= '9':
		return true
	}
	switch c {
	case '!', '#', '$', '%', '&', '\'', '*', '+', '-', '.', '^', '_', '`', '|', '~':
		return true
	}
	return false
}

// parseContentLength reads a Content-Length: 1 to 15 digits (a body over
// the limit is refused long before).
func parseContentLength(b []byte) (int64, bool) {
	if len(b) == 0 || len(b) > 15 {
		return 0, false
	}
	var n int64
	for _, c := range b {
		if c < '0' || c > '9' {
			return 0, false
		}
		n = n*10 + int64(c-'0')
	}
	return n, true
}

// validHost reports whether a Host value is one the loop takes: the bytes
// of a name, an IPv4 address or a bracketed IPv6 address and a port. Any
// other byte (net/http refuses some) sends the request to net/http.
func validHost(b []byte) bool {
	for _, c := range b {
		switch {
		case 'a' <= c && c <= 'z', 'A' <= c && c <= 'Z', '0' <= c && c <= '9':
		case c == '.', c == '-', c == ':', c == '[', c == ']', c == '_':
		default:
			return false
		}
	}
	return true
}

// Connection header tokens.
const (
	connClose = 1 << iota
	connKeepAlive
	connUnknown
)

// connectionTokens returns the tokens of a Connection value: close,
// keep-alive, anything else (connUnknown).
func connectionTokens(b []byte) int {
	out := 0
	for len(b) > 0 {
		tok := b
		if i := bytes.IndexByte(b, ','); i >= 0 {
			tok, b = b[:i], b[i+1:]
		} else {
			b = nil
		}
		tok = trimBlanks(tok)
		switch {
		case len(tok) == 0:
		case asciiEqualFold(tok, "close"):
			out |= connClose
		case asciiEqualFold(tok, "keep-alive"):
			out |= connKeepAlive
		default:
			out |= connUnknown
		}
	}
	return out
}
