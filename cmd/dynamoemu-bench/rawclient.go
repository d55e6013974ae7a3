package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/url"
	"strconv"
	"time"
)

// rawConn is one keep-alive HTTP/1.1 connection that sends DynamoDB JSON
// requests with a single write each and reads their answers by hand (the
// status line, Content-Length or chunked bodies, Connection: close). The
// preload uses one per client: net/http's client cost about 150 µs of
// this tool's CPU per BatchWriteItem, as much as half of what the server
// spent, and on a machine of two cores the tool's CPU time is taken from
// the server's (-preload reports both). It is not safe for concurrent use.
type rawConn struct {
	host      string // host:port
	accessKey string
	conn      net.Conn
	r         *bufio.Reader
	req       []byte
}

func newRawConn(endpoint, accessKey string) (*rawConn, error) {
	u, err := url.Parse(endpoint)
	if err != nil {
		return nil, err
	}
	if u.Scheme != "http" {
		return nil, fmt.Errorf("%s: the preload speaks plain http", endpoint)
	}
	host := u.Host
	if u.Port() == "" {
		host = net.JoinHostPort(u.Hostname(), "80")
	}
	return &rawConn{host: host, accessKey: accessKey}, nil
}

// call sends body to operation op and returns the answer's body (valid
// until the next call), or an *apiError for a non-200 answer. A kept
// connection found closed is dialled again once and the request sent
// again: op must be one that may be repeated.
func (c *rawConn) call(op string, body []byte, buf *bytes.Buffer) ([]byte, error) {
	for attempt := 0; ; attempt++ {
		fresh := c.conn == nil
		if fresh {
			conn, err := net.DialTimeout("tcp", c.host, 5*time.Second)
			if err != nil {
				return nil, err
			}
			c.conn, c.r = conn, bufio.NewReaderSize(conn, 16<<10)
		}
		status, keep, err := c.roundTrip(op, body, buf)
		if err != nil || !keep {
			c.close()
		}
		if err != nil {
			// A kept connection the server closed meanwhile ends at once:
			// send again on a new one. The server may have read the
			// request first, so this is only for requests that may be
			// repeated, as the preload's puts of fixed items may.
			if !fresh && attempt == 0 && errors.Is(err, io.EOF) {
				continue
			}
			return nil, err
		}
		if status != 200 {
			e := &apiError{Status: status}
			json.Unmarshal(buf.Bytes(), e)
			return nil, e
		}
		return buf.Bytes(), nil
	}
}

func (c *rawConn) close() {
	if c.conn != nil {
		c.conn.Close()
		c.conn, c.r = nil, nil
	}
}

// roundTrip writes the request and reads the answer's body into buf; keep
// says whether the connection may carry the next request.
func (c *rawConn) roundTrip(op string, body []byte, buf *bytes.Buffer) (status int, keep bool, err error) {
	r := append(c.req[:0], "POST / HTTP/1.1\r\nHost: "...)
	r = append(r, c.host...)
	r = append(r, "\r\nContent-Type: application/x-amz-json-1.0\r\nX-Amz-Target: DynamoDB_20120810."...)
	r = append(r, op...)
	r = append(r, "\r\nX-Amz-Date: 20260101T000000Z\r\nAuthorization: AWS4-HMAC-SHA256 Credential="...)
	r = append(r, c.accessKey...)
	r = append(r, "/20260101/us-east-1/dynamodb/aws4_request, SignedHeaders=host;x-amz-date;x-amz-target, Signature=0\r\nContent-Length: "...)
	r = strconv.AppendInt(r, int64(len(body)), 10)
	r = append(r, "\r\n\r\n"...)
	r = append(r, body...)
	c.req = r
	c.conn.SetDeadline(time.Now().Add(60 * time.Second))
	if _, err := c.conn.Write(r); err != nil {
		return 0, false, err
	}
	return readResponse(c.r, buf)
}

// readResponse reads one HTTP/1.1 response from r, its body into buf.
func readResponse(r *bufio.Reader, buf *bytes.Buffer) (status int, keep bool, err error) {
	line, err := r.ReadSlice('\n')
	if err != nil {
		return 0, false, err
	}
	// HTTP/1.1 200 OK
	if len(line) < 12 || !bytes.HasPrefix(line, []byte("HTTP/1.")) || line[8] != ' ' {
		return 0, false, fmt.Errorf("malformed status line %q", line)
	}
	status, err = strconv.Atoi(string(line[9:12]))
	if err != nil {
		return 0, false, fmt.Errorf("malformed status line %q", line)
	}
	keep = line[7] == '1' // HTTP/1.0 closes unless asked otherwise
	length, chunked, keep, err := readHeaders(r, keep)
	if err != nil {
		return 0, false, err
	}
	buf.Reset()
	switch {
	case chunked:
		if err := readChunked(r, buf); err != nil {
			return 0, false, err
		}
	case length >= 0:
		if _, err := io.CopyN(buf, r, int64(length)); err != nil {
			return 0, false, err
		}
	default: // the body runs to the end of the connection
		if _, err := io.Copy(buf, r); err != nil {
			return 0, false, err
		}
		keep = false
	}
	return status, keep, nil
}

// readHeaders reads a response's header lines up to the blank line: the
// body's Content-Length (-1: none), whether it is chunked, and whether
// the connection stays open (keep, as the status line says, unless a
// Connection header says otherwise).
func readHeaders(r *bufio.Reader, keep bool) (length int, chunked, keepOpen bool, err error) {
	length = -1
	for {
		line, err := r.ReadSlice('\n')
		if err != nil {
			return 0, false, false, err
		}
		line = bytes.TrimRight(line, "\r\n")
		if len(line) == 0 {
			return length, chunked, keep, nil
		}
		name, value, ok := bytes.Cut(line, []byte(":"))
		if !ok {
			return 0, false, false, fmt.Errorf("malformed header %q", line)
		}
		value = bytes.TrimSpace(value)
		switch {
		case asciiEqualFold(name, "Content-Length"):
			if length, err = strconv.Atoi(string(value)); err != nil || length < 0 {
				return 0, false, false, fmt.Errorf("malformed Content-Length %q", value)
			}
		case asciiEqualFold(name, "Transfer-Encoding"):
			chunked = asciiEqualFold(value, "chunked")
			if !chunked {
				return 0, false, false, fmt.Errorf("unsupported Transfer-Encoding %q", value)
			}
		case asciiEqualFold(name, "Connection"):
			if asciiEqualFold(value, "close") {
				keep = false
			} else if asciiEqualFold(value, "keep-alive") {
				keep = true
			}
		}
	}
}

// readChunked reads a chunked body into buf, its trailers and the final
// blank line after it.
func readChunked(r *bufio.Reader, buf *bytes.Buffer) error {
	for {
		line, err := r.ReadSlice('\n')
		if err != nil {
			return err
		}
		size, _, _ := bytes.Cut(bytes.TrimRight(line, "\r\n"), []byte(";"))
		n, err := strconv.ParseInt(string(size), 16, 32)
		if err != nil || n < 0 {
			return fmt.Errorf("malformed chunk size %q", line)
		}
		if n == 0 {
			// Trailers, then the final blank line.
			for {
				line, err := r.ReadSlice('\n')
				if err != nil {
					return err
				}
				if len(bytes.TrimRight(line, "\r\n")) == 0 {
					return nil
				}
			}
		}
		if _, err := io.CopyN(buf, r, n); err != nil {
			return err
		}
		if _, err := r.Discard(2); err != nil { // CRLF
			return err
		}
	}
}

// asciiEqualFold reports whether b is s, ignoring ASCII case.
func asciiEqualFold(b []byte, s string) bool {
	if len(b) != len(s) {
		return false
	}
	for i := range len(b) {
		if lower(b[i]) != lower(s[i]) {
			return false
		}
	}
	return true
}

func lower(c byte) byte {
	if 'A' <= c && c <= 'Z' {
		return c + 'a' - 'A'
	}
	return c
}
