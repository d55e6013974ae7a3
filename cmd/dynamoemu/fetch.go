package main

import (
	"bytes"
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"time"
)

// The image has no shell, curl or wget, and health checks copied from
// DynamoDB Local's and LocalStack's compose files run them: "curl -f
// http://localhost:8000/shell/", "wget -q --spider URL", "sh -c 'curl ...
// || exit 1'". The image links /usr/bin/curl, wget, sh and awslocal to the
// binary, which answers to those names with the subset health checks use
// (fetch.go, shell.go): an HTTP GET of one URL, exit status as the real
// tools give it. "dynamoemu healthcheck [URL]" is the same without a
// borrowed name.

// isFetchTool reports whether name is one the binary answers to as a tool
// rather than as the server.
func isFetchTool(name string) bool {
	switch name {
	case "curl", "wget", "sh", "bash", "awslocal":
		return true
	}
	return false
}

// runFetchTool runs the tool name and returns its exit status.
func runFetchTool(name string, args []string, stdout, stderr io.Writer) int {
	switch name {
	case "curl":
		return runCurl(args, stdout, stderr)
	case "wget":
		return runWget(args, stdout, stderr)
	case "sh", "bash": // ready.d scripts start with #!/bin/bash
		return runShell(args, stdout, stderr)
	default:
		return runAwslocal(args, stdout, stderr)
	}
}

// errUnsupportedScheme is a URL other than http://.
var errUnsupportedScheme = errors.New("only http:// URLs are fetched")

// fetchDefaultTimeout bounds a fetch without -m or -T.
const fetchDefaultTimeout = 10 * time.Second

// fetchResult is one fetch's answer.
type fetchResult struct {
	status int
	proto  string
	header http.Header
	body   []byte
}

// fetch sends method to rawURL (http only; "localhost" is dialled as
// 127.0.0.1, which needs no /etc/hosts) and reads the answer within
// timeout.
func fetch(method, rawURL string, header http.Header, timeout time.Duration) (fetchResult, error) {
	return fetchBody(method, rawURL, header, nil, timeout)
}

// post sends body to rawURL as fetch does (awscli.go).
func post(rawURL string, header http.Header, body []byte, timeout time.Duration) (fetchResult, error) {
	return fetchBody(http.MethodPost, rawURL, header, body, timeout)
}

// fetchBody is fetch with a request body (nil: none).
func fetchBody(method, rawURL string, header http.Header, body []byte, timeout time.Duration) (fetchResult, error) {
	if !strings.Contains(rawURL, "://") {
		rawURL = "http://" + rawURL
	}
	u, err := url.Parse(rawURL)
	if err != nil {
		return fetchResult{}, err
	}
	if u.Scheme != "http" {
		return fetchResult{}, fmt.Errorf("%s: %w", rawURL, errUnsupportedScheme)
	}
	var rd io.Reader
	if body != nil {
		rd = bytes.NewReader(body)
	}
	req, err := http.NewRequest(method, u.String(), rd)
	if err != nil {
		return fetchResult{}, err
	}
	for k, v := range header {
		req.Header[k] = v
	}
	dial := req.URL.Host
	if req.URL.Port() == "" {
		dial = net.JoinHostPort(req.URL.Hostname(), "80")
	}
	if strings.EqualFold(req.URL.Hostname(), "localhost") {
		dial = net.JoinHostPort("127.0.0.1", portOf(dial))
	}
	res, err := roundTripTo(req, dial, timeout)
	if err != nil {
		return fetchResult{}, err
	}
	defer res.Body.Close()
	answer, err := io.ReadAll(io.LimitReader(res.Body, 16<<20))
	if err != nil {
		return fetchResult{}, err
	}
	return fetchResult{status: res.StatusCode, proto: res.Proto, header: res.Header, body: answer}, nil
}

func portOf(hostport string) string {
	_, p, _ := net.SplitHostPort(hostport)
	return p
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
	res, err := fetch(http.MethodGet, fs.Arg(0), nil, *timeout)
	if err != nil {
		return fmt.Errorf("%w: %w", errUnhealthy, err)
	}
	if res.status >= 400 {
		return fmt.Errorf("%w: GET %s answered %d: %.200s", errUnhealthy, fs.Arg(0), res.status, res.body)
	}
	return nil
}

// curl's exit statuses that the subset gives.
const (
	curlProto   = 1  // a scheme other than http
	curlUsage   = 2  // an option it does not take
	curlConnect = 7  // could not connect
	curlHTTP    = 22 // -f and a status of 400 or more
	curlTimeout = 28 // -m passed
)

// curlOptions are the curl options taken: those whose value follows, and
// those without one, each by its short and long names. Built at a call: the
// server's start builds nothing for the tools.
func curlOptions() (withArg, switches map[string]string) {
	withArg = map[string]string{
		"o": "output", "m": "max-time", "X": "request", "H": "header", "w": "write-out", "A": "user-agent",
		"output": "output", "max-time": "max-time", "request": "request", "header": "header", "write-out": "write-out",
		"user-agent": "user-agent", "connect-timeout": "connect-timeout", "retry": "retry", "retry-delay": "retry-delay",
		"retry-max-time": "retry-max-time",
	}
	switches = map[string]string{
		"f": "fail", "s": "silent", "S": "show-error", "L": "location", "I": "head", "i": "include", "k": "insecure",
		"v": "verbose", "q": "q", "g": "globoff",
		"fail": "fail", "fail-with-body": "fail", "silent": "silent", "show-error": "show-error", "location": "location",
		"head": "head", "include": "include", "insecure": "insecure", "verbose": "verbose", "globoff": "globoff",
		"retry-connrefused": "retry-connrefused", "retry-all-errors": "retry-all-errors", "no-progress-meter": "silent",
	}
	return withArg, switches
}

// runCurl is curl's subset: one http:// URL, GET (or -X, -I), the
// options of curlSwitches and curlOptsWithArg.
func runCurl(args []string, stdout, stderr io.Writer) int {
	curlOptsWithArg, curlSwitches := curlOptions()
	on := map[string]bool{}
	val := map[string]string{}
	var header http.Header = http.Header{}
	var target string
	for i := 0; i < len(args); i++ {
		a := args[i]
		take := func(name string) bool {
			if i+1 == len(args) {
				fmt.Fprintf(stderr, "curl: option %s: requires parameter\n", a)
				return false
			}
			i++
			if name == "header" {
				if k, v, ok := strings.Cut(args[i], ":"); ok {
					header.Add(strings.TrimSpace(k), strings.TrimSpace(v))
				}
			} else {
				val[name] = args[i]
			}
			return true
		}
		switch {
		case strings.HasPrefix(a, "--"):
			name := a[2:]
			if n, ok := curlSwitches[name]; ok {
				on[n] = true
			} else if n, ok := curlOptsWithArg[name]; ok {
				if !take(n) {
					return curlUsage
				}
			} else {
				fmt.Fprintf(stderr, "curl: option %s: is unknown (dynamoemu's curl takes the options of health checks)\n", a)
				return curlUsage
			}
		case strings.HasPrefix(a, "-") && len(a) > 1:
			for j := 1; j < len(a); j++ {
				l := a[j : j+1]
				if n, ok := curlSwitches[l]; ok {
					on[n] = true
					continue
				}
				n, ok := curlOptsWithArg[l]
				if !ok {
					fmt.Fprintf(stderr, "curl: option -%s: is unknown (dynamoemu's curl takes the options of health checks)\n", l)
					return curlUsage
				}
				if rest := a[j+1:]; rest != "" { // -o/dev/null
					val[n] = rest
				} else if !take(n) {
					return curlUsage
				}
				break
			}
		default:
			target = a
		}
	}
	if target == "" {
		fmt.Fprintln(stderr, "curl: no URL specified")
		return curlUsage
	}
	quiet := on["silent"] && !on["show-error"]
	fail := func(code int, format string, a ...any) int {
		if !quiet {
			fmt.Fprintf(stderr, "curl: (%d) "+format+"\n", append([]any{code}, a...)...)
		}
		return code
	}
	timeout := fetchDefaultTimeout
	if s := val["max-time"]; s != "" {
		secs, err := strconv.ParseFloat(s, 64)
		if err != nil || secs <= 0 {
			return fail(curlUsage, "bad -m %q", s)
		}
		timeout = time.Duration(secs * float64(time.Second))
	}
	method := http.MethodGet
	if on["head"] {
		method = http.MethodHead
	}
	if m := val["request"]; m != "" {
		method = m
	}
	retries, _ := strconv.Atoi(val["retry"])
	delay := time.Second
	if d, err := strconv.Atoi(val["retry-delay"]); err == nil && d >= 0 {
		delay = time.Duration(d) * time.Second
	}
	var res fetchResult
	var err error
	for try := 0; ; try++ {
		res, err = fetch(method, target, header, timeout)
		if try == retries || (err == nil && res.status < 500) {
			break
		}
		time.Sleep(delay)
	}
	if errors.Is(err, errUnsupportedScheme) {
		return fail(curlProto, "Protocol not supported: %v", err)
	}
	if err != nil {
		var ne net.Error
		if errors.As(err, &ne) && ne.Timeout() {
			return fail(curlTimeout, "Operation timed out: %v", err)
		}
		return fail(curlConnect, "Failed to connect: %v", err)
	}
	if on["fail"] && res.status >= 400 {
		return fail(curlHTTP, "The requested URL returned error: %d", res.status)
	}
	out := stdout
	if path := val["output"]; path != "" && path != "-" {
		f, err := os.Create(path)
		if err != nil {
			return fail(23, "writing %s: %v", path, err) // curl's write error
		}
		defer f.Close()
		out = f
	}
	if on["head"] || on["include"] {
		fmt.Fprintf(out, "%s %d %s\r\n", res.proto, res.status, http.StatusText(res.status))
		_ = res.header.Write(out)
		fmt.Fprint(out, "\r\n")
	}
	if method != http.MethodHead {
		_, _ = out.Write(res.body)
	}
	if w := val["write-out"]; w != "" {
		w = strings.NewReplacer("%{http_code}", strconv.Itoa(res.status), "%{response_code}", strconv.Itoa(res.status),
			`\n`, "\n").Replace(w)
		fmt.Fprint(stdout, w)
	}
	return 0
}

// wget's exit statuses that the subset gives.
const (
	wgetUsage   = 2 // an option it does not take
	wgetNetwork = 4 // could not connect, or timed out
	wgetServer  = 8 // the server answered 400 or more
)

// runWget is wget's subset: one http:// URL, -q, --spider, -O FILE (- is
// stdout), -T/--timeout, -t/--tries, -S, --header, -U.
func runWget(args []string, stdout, stderr io.Writer) int {
	var quiet, spider bool
	output, target := "", ""
	timeout := fetchDefaultTimeout
	tries := 1
	header := http.Header{}
	setOpt := func(name, v string) error {
		switch name {
		case "O", "output-document":
			output = v
		case "T", "timeout":
			secs, err := strconv.ParseFloat(v, 64)
			if err != nil || secs <= 0 {
				return fmt.Errorf("bad timeout %q", v)
			}
			timeout = time.Duration(secs * float64(time.Second))
		case "t", "tries":
			n, err := strconv.Atoi(v)
			if err != nil || n < 0 {
				return fmt.Errorf("bad tries %q", v)
			}
			tries = max(n, 1)
		case "header":
			if k, hv, ok := strings.Cut(v, ":"); ok {
				header.Add(strings.TrimSpace(k), strings.TrimSpace(hv))
			}
		case "U", "user-agent":
			header.Set("User-Agent", v)
		}
		return nil
	}
	withArg := map[string]bool{"O": true, "T": true, "t": true, "U": true, "output-document": true, "timeout": true,
		"tries": true, "header": true, "user-agent": true}
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case strings.HasPrefix(a, "--"):
			name, v, hasV := strings.Cut(a[2:], "=")
			switch {
			case name == "quiet":
				quiet = true
			case name == "spider":
				spider = true
			case name == "no-verbose" || name == "server-response" || name == "no-check-certificate" || name == "no-cache":
			case withArg[name]:
				if !hasV {
					if i+1 == len(args) {
						fmt.Fprintf(stderr, "wget: option '%s' requires an argument\n", a)
						return wgetUsage
					}
					i++
					v = args[i]
				}
				if err := setOpt(name, v); err != nil {
					fmt.Fprintln(stderr, "wget:", err)
					return wgetUsage
				}
			default:
				fmt.Fprintf(stderr, "wget: unrecognized option '%s' (dynamoemu's wget takes the options of health checks)\n", a)
				return wgetUsage
			}
		case strings.HasPrefix(a, "-") && len(a) > 1:
			for j := 1; j < len(a); j++ {
				l := a[j : j+1]
				switch {
				case l == "q":
					quiet = true
				case l == "S" || l == "n" || l == "v":
				case withArg[l]:
					v := a[j+1:]
					if v == "" {
						if i+1 == len(args) {
							fmt.Fprintf(stderr, "wget: option requires an argument -- '%s'\n", l)
							return wgetUsage
						}
						i++
						v = args[i]
					}
					if err := setOpt(l, v); err != nil {
						fmt.Fprintln(stderr, "wget:", err)
						return wgetUsage
					}
					j = len(a)
				default:
					fmt.Fprintf(stderr, "wget: invalid option -- '%s' (dynamoemu's wget takes the options of health checks)\n", l)
					return wgetUsage
				}
			}
		default:
			target = a
		}
	}
	if target == "" {
		fmt.Fprintln(stderr, "wget: missing URL")
		return wgetUsage
	}
	var res fetchResult
	var err error
	for try := 0; try < tries; try++ {
		if res, err = fetch(http.MethodGet, target, header, timeout); err == nil {
			break
		}
	}
	if err != nil {
		if !quiet {
			fmt.Fprintln(stderr, "wget:", err)
		}
		return wgetNetwork
	}
	if res.status >= 400 {
		if !quiet {
			fmt.Fprintf(stderr, "wget: server returned error: %s %d %s\n", res.proto, res.status, http.StatusText(res.status))
		}
		return wgetServer
	}
	if spider {
		return 0
	}
	out := stdout
	if output != "-" {
		if output == "" {
			output = "index.html"
			if u, err := url.Parse(target); err == nil {
				if i := strings.LastIndex(u.Path, "/"); i >= 0 && u.Path[i+1:] != "" {
					output = u.Path[i+1:]
				}
			}
		}
		f, err := os.Create(output)
		if err != nil {
			fmt.Fprintln(stderr, "wget:", err)
			return 3 // wget's file I/O error
		}
		defer f.Close()
		out = f
	}
	if _, err := out.Write(res.body); err != nil {
		return 3
	}
	return 0
}

// runAwslocal is LocalStack's awslocal: the AWS CLI (aws, on PATH) with
// --endpoint-url from AWS_ENDPOINT_URL (the LocalStack shape's init
// scripts get it), else http://localhost:4566; without the AWS CLI (the
// image has none) the binary's own "awslocal dynamodb ..." (awscli.go).
func runAwslocal(args []string, stdout, stderr io.Writer) int {
	endpoint := os.Getenv("AWS_ENDPOINT_URL")
	if endpoint == "" {
		endpoint = "http://localhost:4566"
	}
	aws, err := exec.LookPath("aws")
	if err != nil {
		return runAWSCLINative(args, stdout, stderr) // awscli.go
	}
	cmd := exec.Command(aws, append([]string{"--endpoint-url", endpoint}, args...)...)
	cmd.Stdin, cmd.Stdout, cmd.Stderr = os.Stdin, stdout, stderr
	if err := cmd.Run(); err != nil {
		var ee *exec.ExitError
		if errors.As(err, &ee) {
			return ee.ExitCode()
		}
		fmt.Fprintln(stderr, "awslocal:", err)
		return 127
	}
	return 0
}
