package tools

import (
	"bufio"
	"errors"
	"io"
	"net"
	"strconv"
	"strings"
	"time"
)

// The tools' HTTP/1.1 client: one request on a connection of its own
// (Connection: close), its answer read whole. net/http would be 2 MB more
// of the image for what curl, wget and awslocal ask of it (a GET, a HEAD,
// a POST of JSON, to a loopback address or a service name): it links the
// TLS and HTTP/2 code, its Transport and its server.

// errUnsupportedScheme is a URL other than http://.
var errUnsupportedScheme = errors.New("only http:// URLs are fetched")

// fetchDefaultTimeout bounds a fetch without -m or -T.
const fetchDefaultTimeout = 10 * time.Second

// Bounds on what an answer may hold: past them the fetch fails.
const (
	maxHeaderBytes = 1 << 20  // the status line and the header lines
	maxBodyBytes   = 16 << 20 // the body, as received or once de-chunked
)

// response is an answer as the tools print it.
type response struct {
	proto  string   // HTTP/1.1
	status int      // 200
	reason string   // OK
	header []string // the header lines, as received
	body   []byte
}

// get returns the value of the first header line named name (any case).
func (r response) get(name string) string {
	for _, l := range r.header {
		if k, v, ok := strings.Cut(l, ":"); ok && strings.EqualFold(strings.TrimSpace(k), name) {
			return strings.TrimSpace(v)
		}
	}
	return ""
}

// target is a URL split as the client needs it.
type target struct {
	host string // the Host header: the URL's host and port as written
	dial string // where to connect: host:port, localhost as 127.0.0.1
	path string // the request target: path and query
}

// parseTarget reads rawURL: http://HOST[:PORT][/PATH][?QUERY], the scheme
// optional as curl and wget take it.
func parseTarget(rawURL string) (target, error) {
	rest := rawURL
	if scheme, after, ok := strings.Cut(rawURL, "://"); ok {
		if !strings.EqualFold(scheme, "http") {
			return target{}, errorf("%s: %w", rawURL, errUnsupportedScheme)
		}
		rest = after
	}
	if i := strings.IndexByte(rest, '#'); i >= 0 {
		rest = rest[:i]
	}
	hostport, path := rest, "/"
	if i := strings.IndexAny(rest, "/?"); i >= 0 {
		hostport, path = rest[:i], rest[i:]
		if path[0] == '?' {
			path = "/" + path
		}
	}
	if hostport == "" || strings.ContainsAny(hostport, "@ \t") || strings.ContainsAny(path, " \t\r\n") {
		return target{}, errorf("%s: not a URL the tools fetch (http://HOST[:PORT]/PATH)", rawURL)
	}
	host, port := hostport, "80"
	if h, p, err := net.SplitHostPort(hostport); err == nil {
		host, port = h, p
	} else if strings.HasPrefix(hostport, "[") && strings.HasSuffix(hostport, "]") {
		host = hostport[1 : len(hostport)-1]
	}
	if _, err := strconv.ParseUint(port, 10, 16); err != nil || host == "" {
		return target{}, errorf("%s: bad host or port", rawURL)
	}
	if strings.EqualFold(host, "localhost") {
		host = "127.0.0.1" // no /etc/hosts in the image
	}
	return target{host: hostport, dial: net.JoinHostPort(host, port), path: path}, nil
}

// fetch sends method to rawURL with the header lines ("Name: value") and
// body (nil: none) and reads the answer, all within timeout.
func fetch(method, rawURL string, header []string, body []byte, timeout time.Duration) (response, error) {
	t, err := parseTarget(rawURL)
	if err != nil {
		return response{}, err
	}
	conn, err := net.DialTimeout("tcp", t.dial, timeout)
	if err != nil {
		return response{}, err
	}
	defer conn.Close()
	if err := conn.SetDeadline(time.Now().Add(timeout)); err != nil {
		return response{}, err
	}
	var req strings.Builder
	req.WriteString(method + " " + t.path + " HTTP/1.1\r\nHost: " + t.host + "\r\n")
	hasAgent := false
	for _, h := range header {
		hasAgent = hasAgent || strings.HasPrefix(strings.ToLower(h), "user-agent:")
		req.WriteString(h + "\r\n")
	}
	if !hasAgent {
		req.WriteString("User-Agent: dynamoemu-tools\r\n")
	}
	if body != nil || method == "POST" || method == "PUT" {
		req.WriteString("Content-Length: " + strconv.Itoa(len(body)) + "\r\n")
	}
	req.WriteString("Connection: close\r\n\r\n")
	if _, err := io.WriteString(conn, req.String()); err != nil {
		return response{}, err
	}
	if _, err := conn.Write(body); err != nil {
		return response{}, err
	}
	return readResponse(bufio.NewReader(conn), method == "HEAD")
}

// readResponse reads one answer off r; head: the request was a HEAD (no body).
func readResponse(r *bufio.Reader, head bool) (response, error) {
	budget := maxHeaderBytes
	line := func() (string, error) {
		l, err := r.ReadSlice('\n')
		if errors.Is(err, bufio.ErrBufferFull) || len(l) > budget {
			return "", errors.New("the answer's header is too long")
		}
		if err != nil {
			return "", errorf("reading the answer: %w", err)
		}
		budget -= len(l)
		return strings.TrimRight(string(l), "\r\n"), nil
	}
	status, err := line()
	if err != nil {
		return response{}, err
	}
	proto, rest, _ := strings.Cut(status, " ")
	code, reason, _ := strings.Cut(rest, " ")
	var res response
	res.proto, res.reason = proto, reason
	if res.status, err = strconv.Atoi(code); err != nil || !strings.HasPrefix(proto, "HTTP/") || len(code) != 3 {
		return response{}, errorf("not an HTTP answer: %.80q", status)
	}
	for {
		l, err := line()
		if err != nil {
			return response{}, err
		}
		if l == "" {
			break
		}
		res.header = append(res.header, l)
	}
	if head || res.status/100 == 1 || res.status == 204 || res.status == 304 {
		return res, nil
	}
	switch {
	case strings.EqualFold(res.get("Transfer-Encoding"), "chunked"):
		res.body, err = readChunked(r)
	case res.get("Content-Length") != "":
		n, perr := strconv.ParseInt(res.get("Content-Length"), 10, 64)
		if perr != nil || n < 0 {
			return response{}, errorf("bad Content-Length %q", res.get("Content-Length"))
		}
		if n > maxBodyBytes {
			return response{}, errorf("an answer of %d bytes: over %d", n, maxBodyBytes)
		}
		res.body = make([]byte, n)
		_, err = io.ReadFull(r, res.body)
	default: // the body ends with the connection
		res.body, err = io.ReadAll(io.LimitReader(r, maxBodyBytes+1))
		if err == nil && len(res.body) > maxBodyBytes {
			err = errorf("an answer over %d bytes", maxBodyBytes)
		}
	}
	if err != nil {
		return response{}, errorf("reading the answer's body: %w", err)
	}
	return res, nil
}

// readChunked reads a chunked body and its trailer.
func readChunked(r *bufio.Reader) ([]byte, error) {
	var body []byte
	for {
		l, err := r.ReadSlice('\n') // at most the reader's buffer
		if err != nil {
			return nil, err
		}
		size, _, _ := strings.Cut(strings.TrimSpace(string(l)), ";")
		n, err := strconv.ParseInt(size, 16, 64)
		if err != nil || n < 0 {
			return nil, errorf("bad chunk size %.40q", l)
		}
		if n == 0 {
			break
		}
		if int64(len(body))+n > maxBodyBytes {
			return nil, errorf("an answer over %d bytes", maxBodyBytes)
		}
		chunk := make([]byte, n+2) // the data, then CRLF
		if _, err := io.ReadFull(r, chunk); err != nil {
			return nil, err
		}
		body = append(body, chunk[:n]...)
	}
	for { // the trailer, up to its blank line
		l, err := r.ReadSlice('\n')
		if err != nil || strings.TrimRight(string(l), "\r\n") == "" {
			return body, nil
		}
	}
}
