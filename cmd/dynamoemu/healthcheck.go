package main

import (
	"bufio"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"os"
	"strconv"
	"strings"
	"time"
)

// errUnhealthy is the healthcheck's failure: the server did not answer
// ListTables. main exits 1 on it, the code container health checks expect.
var errUnhealthy = errors.New("unhealthy")

// healthcheckTimeout bounds the whole probe: connect, request and answer.
const healthcheckTimeout = 3 * time.Second

// healthcheckURL is where the server of config c answers: its port on the
// loopback address when it listens on every interface (or by name on
// localhost), else the address it listens on.
func healthcheckURL(c config) string {
	host := c.host
	switch strings.ToLower(host) {
	case "", "0.0.0.0", "::", "[::]", "localhost":
		host = "127.0.0.1"
	}
	host = strings.TrimSuffix(strings.TrimPrefix(host, "["), "]")
	return "http://" + net.JoinHostPort(host, strconv.Itoa(c.port)) + "/"
}

// healthcheck asks the server of config c (a dynamoemu started with the same
// -host and -port) for ListTables with made-up credentials, and answers nil
// when it gets a 200 with a TableNames list. It is what the container image's
// HEALTHCHECK runs: the image has no shell or curl.
func healthcheck(c config) error {
	url := healthcheckURL(c)
	req, err := http.NewRequest(http.MethodPost, url, strings.NewReader(`{"Limit":1}`))
	if err != nil {
		return fmt.Errorf("%w: %w", errUnhealthy, err)
	}
	req.Header.Set("Content-Type", "application/x-amz-json-1.0")
	req.Header.Set("X-Amz-Target", "DynamoDB_20120810.ListTables")
	// The emulator reads the access key and region from the scope and does not
	// verify the signature (but with -credentials: signaturesChecked).
	// A date and signed headers that pass a -credentials server's checks
	// up to the key, which it does not know (signaturesChecked).
	now := time.Now().UTC()
	req.Header.Set("X-Amz-Date", now.Format("20060102T150405Z"))
	req.Header.Set("Authorization", "AWS4-HMAC-SHA256 Credential=healthcheck/"+now.Format("20060102")+
		"/us-east-1/dynamodb/aws4_request, SignedHeaders=host;x-amz-date;x-amz-target, Signature=0")
	res, err := roundTrip(req)
	if err != nil {
		return fmt.Errorf("%w: %w", errUnhealthy, err)
	}
	defer res.Body.Close()
	body, err := io.ReadAll(io.LimitReader(res.Body, 1<<20))
	if err != nil {
		return fmt.Errorf("%w: reading the answer of %s: %w", errUnhealthy, url, err)
	}
	if res.StatusCode == http.StatusBadRequest && signaturesChecked(body) {
		return nil // a server started with -credentials: it answered as one
	}
	if res.StatusCode != http.StatusOK {
		return fmt.Errorf("%w: ListTables at %s answered %s: %.200s", errUnhealthy, url, res.Status, body)
	}
	var out struct{ TableNames *[]string }
	if err := json.Unmarshal(body, &out); err != nil || out.TableNames == nil {
		return fmt.Errorf("%w: ListTables at %s answered no TableNames: %.200s", errUnhealthy, url, body)
	}
	return nil
}

// signaturesChecked reports whether body is the answer of a server that
// verifies signatures (-credentials) to the probe's made-up key:
// UnrecognizedClientException with AWS's words for an unknown key. The
// probe has no key of the file (the container's HEALTHCHECK runs with no
// flags), and that answer means the server is up.
func signaturesChecked(body []byte) bool {
	var e struct {
		Type    string `json:"__type"`
		Message string `json:"message"`
	}
	return json.Unmarshal(body, &e) == nil && strings.HasSuffix(e.Type, "#UnrecognizedClientException") &&
		e.Message == "The security token included in the request is invalid."
}

// roundTrip sends req on a connection of its own and reads the answer,
// all within healthcheckTimeout. It stands for an http.Client: the
// client's Transport (HTTP/2, proxies, connection pools) is not linked
// into the server for one probe, which keeps it out of every start
// (its types, itabs and package initialisation).
func roundTrip(req *http.Request) (*http.Response, error) {
	return roundTripTo(req, req.URL.Host, healthcheckTimeout)
}

// runHealthcheck is "dynamoemu healthcheck [-host H] [-port N] [URL]":
// with a URL, a GET of it, healthy below 400; without, the ListTables
// probe of -healthcheck.
func runHealthcheck(args []string, _, stderr io.Writer) error {
	fs := flag.NewFlagSet("dynamoemu healthcheck", flag.ContinueOnError)
	fs.SetOutput(stderr)
	var c config
	port := 8000
	var ls localstackFlags
	if ls.fromEnv(os.Getenv) == nil && ls.on {
		port = 4566 // the LocalStack shape's port, as the server started with this environment listens
	}
	fs.IntVar(&c.port, "port", port, "the server's port (without URL; 4566 with LocalStack's environment)")
	fs.StringVar(&c.host, "host", "127.0.0.1", "the server's address (without URL)")
	timeout := fs.Duration("timeout", healthcheckTimeout, "how long the probe may take")
	fs.Usage = func() {
		fmt.Fprintln(fs.Output(), "Usage: dynamoemu healthcheck [-host H] [-port N] [-timeout D] [URL]\n\nWithout URL, ask the server for ListTables; with URL, GET it. Exit 0 if it answers (below 400 for a URL), 1 if not.")
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		return err
	}
	switch fs.NArg() {
	case 0:
		return healthcheck(c)
	case 1:
	default:
		return fmt.Errorf("healthcheck: one URL, not %q", fs.Args())
	}
	status, body, err := getURL(fs.Arg(0), *timeout)
	if err != nil {
		return fmt.Errorf("%w: %w", errUnhealthy, err)
	}
	if status == http.StatusNotFound {
		if addr, ok := shellURL(fs.Arg(0)); ok {
			return shellHealthcheck(addr, fs.Arg(0))
		}
	}
	if status >= 400 {
		return fmt.Errorf("%w: GET %s answered %d: %.200s", errUnhealthy, fs.Arg(0), status, body)
	}
	return nil
}

// shellURL reports whether rawURL is DynamoDB Local's /shell/ page, and
// the host:port it names.
func shellURL(rawURL string) (string, bool) {
	if !strings.Contains(rawURL, "://") {
		rawURL = "http://" + rawURL
	}
	u, err := url.Parse(rawURL)
	if err != nil || (u.Path != "/shell" && u.Path != "/shell/") {
		return "", false
	}
	host, port := u.Hostname(), u.Port()
	if port == "" {
		port = "80"
	}
	return net.JoinHostPort(host, port), true
}

// shellHealthcheck is the check of a /shell/ URL that answered 404: the
// page is DynamoDB Local's, which dynamoemu answers only when started
// with DynamoDB Local's command line (ddblocal_mode.go); in its own mode
// the check asks the same address for ListTables, the probe of
// -healthcheck, so that a health check written for DynamoDB Local holds
// in either mode. Its error says both.
func shellHealthcheck(addr, rawURL string) error {
	host, port, err := net.SplitHostPort(addr)
	if err != nil {
		return fmt.Errorf("%w: %w", errUnhealthy, err)
	}
	n, err := strconv.Atoi(port)
	if err != nil {
		return fmt.Errorf("%w: port %q: %w", errUnhealthy, port, err)
	}
	if err := healthcheck(config{host: host, port: n}); err != nil {
		return fmt.Errorf("%w (GET %s answered 404: /shell/ is DynamoDB Local's page, answered only when dynamoemu is started with DynamoDB Local's command line; the ListTables probe was asked instead)", err, rawURL)
	}
	return nil
}

// getURL GETs rawURL (http only; "localhost" is dialled as 127.0.0.1,
// which needs no /etc/hosts) within timeout: its status and body.
func getURL(rawURL string, timeout time.Duration) (int, []byte, error) {
	if !strings.Contains(rawURL, "://") {
		rawURL = "http://" + rawURL
	}
	u, err := url.Parse(rawURL)
	if err != nil {
		return 0, nil, err
	}
	if u.Scheme != "http" {
		return 0, nil, fmt.Errorf("%s: only http:// URLs are probed", rawURL)
	}
	req, err := http.NewRequest(http.MethodGet, u.String(), nil)
	if err != nil {
		return 0, nil, err
	}
	host, port := u.Hostname(), u.Port()
	if port == "" {
		port = "80"
	}
	if strings.EqualFold(host, "localhost") {
		host = "127.0.0.1"
	}
	res, err := roundTripTo(req, net.JoinHostPort(host, port), timeout)
	if err != nil {
		return 0, nil, err
	}
	defer res.Body.Close()
	body, err := io.ReadAll(io.LimitReader(res.Body, 1<<20))
	return res.StatusCode, body, err
}

// roundTripTo is roundTrip dialling addr, within timeout.
func roundTripTo(req *http.Request, addr string, timeout time.Duration) (*http.Response, error) {
	conn, err := net.DialTimeout("tcp", addr, timeout)
	if err != nil {
		return nil, err
	}
	if err := conn.SetDeadline(time.Now().Add(timeout)); err != nil {
		conn.Close()
		return nil, err
	}
	req.Close = true
	if err := req.Write(conn); err != nil {
		conn.Close()
		return nil, err
	}
	res, err := http.ReadResponse(bufio.NewReader(conn), req)
	if err != nil {
		conn.Close()
		return nil, err
	}
	res.Body = connBody{res.Body, conn}
	return res, nil
}

// connBody closes the probe's connection with the answer's body.
type connBody struct {
	io.ReadCloser
	conn net.Conn
}

func (b connBody) Close() error {
	err := b.ReadCloser.Close()
	if cerr := b.conn.Close(); err == nil {
		err = cerr
	}
	return err
}
