package tools

import (
	"errors"
	"io"
	"net"
	"os"
	"strconv"
	"strings"
	"time"
)

// curl's subset: what health checks copied from DynamoDB Local's and
// LocalStack's compose files run ("curl -f http://localhost:8000/shell/",
// "curl -fsS -o /dev/null -w '%{http_code}' URL"): one http:// URL, GET
// (or -X, -I), with curl's exit statuses.

// curl's exit statuses that the subset gives.
const (
	curlProto   = 1  // a scheme other than http
	curlUsage   = 2  // an option it does not take
	curlConnect = 7  // could not connect
	curlHTTP    = 22 // -f and a status of 400 or more
	curlWrite   = 23 // the output file cannot be written
	curlTimeout = 28 // -m passed
)

// curlOptions are the curl options taken: those whose value follows, and
// those without one, each by its short and long names.
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

// curlArgs is a curl command line read.
type curlArgs struct {
	on     map[string]bool   // switches given, by long name
	val    map[string]string // options' values, by long name
	header []string          // -H lines
	target string
}

// parseCurl reads args; it returns curl's status and a message when it
// cannot.
func parseCurl(args []string) (curlArgs, string) {
	withArg, switches := curlOptions()
	c := curlArgs{on: map[string]bool{}, val: map[string]string{}}
	set := func(name, v string) {
		if name != "header" {
			c.val[name] = v
		} else if k, hv, ok := strings.Cut(v, ":"); ok {
			c.header = append(c.header, strings.TrimSpace(k)+": "+strings.TrimSpace(hv))
		}
	}
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case strings.HasPrefix(a, "--"):
			name := a[2:]
			if n, ok := switches[name]; ok {
				c.on[n] = true
				continue
			}
			n, ok := withArg[name]
			if !ok {
				return c, sprintf("option %s: is unknown (dynamoemu's curl takes the options of health checks)", a)
			}
			if i+1 == len(args) {
				return c, sprintf("option %s: requires parameter", a)
			}
			i++
			set(n, args[i])
		case strings.HasPrefix(a, "-") && len(a) > 1:
			for j := 1; j < len(a); j++ {
				l := a[j : j+1]
				if n, ok := switches[l]; ok {
					c.on[n] = true
					continue
				}
				n, ok := withArg[l]
				if !ok {
					return c, sprintf("option -%s: is unknown (dynamoemu's curl takes the options of health checks)", l)
				}
				if rest := a[j+1:]; rest != "" { // -o/dev/null
					set(n, rest)
				} else if i+1 == len(args) {
					return c, sprintf("option -%s: requires parameter", l)
				} else {
					i++
					set(n, args[i])
				}
				break
			}
		default:
			c.target = a
		}
	}
	if c.target == "" {
		return c, "no URL specified"
	}
	return c, ""
}

// runCurl runs curl's subset and returns its exit status.
func runCurl(args []string, stdout, stderr io.Writer) int {
	c, msg := parseCurl(args)
	if msg != "" {
		fprintln(stderr, "curl:", msg)
		return curlUsage
	}
	quiet := c.on["silent"] && !c.on["show-error"]
	fail := func(code int, format string, a ...any) int {
		if !quiet {
			fprintf(stderr, "curl: (%d) "+format+"\n", append([]any{code}, a...)...)
		}
		return code
	}
	timeout := fetchDefaultTimeout
	if s := c.val["max-time"]; s != "" {
		secs, err := strconv.ParseFloat(s, 64)
		if err != nil || secs <= 0 {
			return fail(curlUsage, "bad -m %q", s)
		}
		timeout = time.Duration(secs * float64(time.Second))
	}
	res, err := c.fetch(timeout)
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
	if c.on["fail"] && res.status >= 400 {
		return fail(curlHTTP, "The requested URL returned error: %d", res.status)
	}
	return c.write(res, stdout, fail)
}

// fetch makes curl's request, with -X, -I, -H, -A, and its retries
// (--retry, --retry-delay) while it fails or answers 5xx.
func (c curlArgs) fetch(timeout time.Duration) (response, error) {
	method := "GET"
	if c.on["head"] {
		method = "HEAD"
	}
	if m := c.val["request"]; m != "" {
		method = m
	}
	header := c.header
	if ua := c.val["user-agent"]; ua != "" {
		header = append(header, "User-Agent: "+ua)
	}
	retries, _ := strconv.Atoi(c.val["retry"])
	delay := time.Second
	if d, err := strconv.Atoi(c.val["retry-delay"]); err == nil && d >= 0 {
		delay = time.Duration(d) * time.Second
	}
	for try := 0; ; try++ {
		res, err := fetch(method, c.target, header, nil, timeout)
		if try >= retries || (err == nil && res.status < 500) {
			return res, err
		}
		time.Sleep(delay)
	}
}

// write writes the answer res as curl's options ask (-o, -i, -w) and
// returns the exit status, failing through fail.
func (c curlArgs) write(res response, stdout io.Writer, fail func(code int, format string, a ...any) int) int {
	out := stdout
	if path := c.val["output"]; path != "" && path != "-" {
		f, err := os.Create(path)
		if err != nil {
			return fail(curlWrite, "writing %s: %v", path, err)
		}
		defer f.Close()
		out = f
	}
	if c.on["head"] || c.on["include"] {
		fprintf(out, "%s %d %s\r\n", res.proto, res.status, res.reason)
		for _, h := range res.header {
			fprintf(out, "%s\r\n", h)
		}
		io.WriteString(out, "\r\n")
	}
	if _, err := out.Write(res.body); err != nil {
		return fail(curlWrite, "writing the answer: %v", err)
	}
	if w := c.val["write-out"]; w != "" {
		code := strconv.Itoa(res.status)
		io.WriteString(stdout, strings.NewReplacer("%{http_code}", code, "%{response_code}", code, `\n`, "\n").Replace(w))
	}
	return 0
}
