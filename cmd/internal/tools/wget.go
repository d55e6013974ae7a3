package tools

import (
	"io"
	"os"
	"strconv"
	"strings"
	"time"
)

// wget's subset: "wget -q --spider URL", "wget -qO- URL" and the like, as
// health checks run it, with wget's exit statuses.

// wget's exit statuses that the subset gives.
const (
	wgetUsage   = 2 // an option it does not take
	wgetFile    = 3 // the output file cannot be written
	wgetNetwork = 4 // could not connect, or timed out
	wgetServer  = 8 // the server answered 400 or more
)

// wgetArgs is a wget command line read.
type wgetArgs struct {
	quiet, spider bool
	output        string // -O; "-" is stdout
	timeout       time.Duration
	tries         int
	header        []string
	target        string
}

// wgetWithArg are wget's options that take a value.
var wgetWithArg = map[string]bool{"O": true, "T": true, "t": true, "U": true, "output-document": true, "timeout": true,
	"tries": true, "header": true, "user-agent": true}

// set takes the option name's value v.
func (w *wgetArgs) set(name, v string) error {
	switch name {
	case "O", "output-document":
		w.output = v
	case "T", "timeout":
		secs, err := strconv.ParseFloat(v, 64)
		if err != nil || secs <= 0 {
			return errorf("bad timeout %q", v)
		}
		w.timeout = time.Duration(secs * float64(time.Second))
	case "t", "tries":
		n, err := strconv.Atoi(v)
		if err != nil || n < 0 {
			return errorf("bad tries %q", v)
		}
		w.tries = max(n, 1)
	case "header":
		if k, hv, ok := strings.Cut(v, ":"); ok {
			w.header = append(w.header, strings.TrimSpace(k)+": "+strings.TrimSpace(hv))
		}
	case "U", "user-agent":
		w.header = append(w.header, "User-Agent: "+v)
	}
	return nil
}

// parseWget reads args; a message when it cannot.
func parseWget(args []string) (wgetArgs, string) {
	w := wgetArgs{timeout: fetchDefaultTimeout, tries: 1}
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case strings.HasPrefix(a, "--"):
			name, v, hasV := strings.Cut(a[2:], "=")
			switch {
			case name == "quiet":
				w.quiet = true
			case name == "spider":
				w.spider = true
			case name == "no-verbose" || name == "server-response" || name == "no-check-certificate" || name == "no-cache":
			case wgetWithArg[name]:
				if !hasV {
					if i+1 == len(args) {
						return w, sprintf("option '%s' requires an argument", a)
					}
					i++
					v = args[i]
				}
				if err := w.set(name, v); err != nil {
					return w, err.Error()
				}
			default:
				return w, sprintf("unrecognized option '%s' (dynamoemu's wget takes the options of health checks)", a)
			}
		case strings.HasPrefix(a, "-") && len(a) > 1:
			for j := 1; j < len(a); j++ {
				l := a[j : j+1]
				switch {
				case l == "q":
					w.quiet = true
				case l == "S" || l == "n" || l == "v":
				case wgetWithArg[l]:
					v := a[j+1:]
					if v == "" {
						if i+1 == len(args) {
							return w, sprintf("option requires an argument -- '%s'", l)
						}
						i++
						v = args[i]
					}
					if err := w.set(l, v); err != nil {
						return w, err.Error()
					}
					j = len(a)
				default:
					return w, sprintf("invalid option -- '%s' (dynamoemu's wget takes the options of health checks)", l)
				}
			}
		default:
			w.target = a
		}
	}
	if w.target == "" {
		return w, "missing URL"
	}
	return w, ""
}

// runWget runs wget's subset and returns its exit status.
func runWget(args []string, stdout, stderr io.Writer) int {
	w, msg := parseWget(args)
	if msg != "" {
		fprintln(stderr, "wget:", msg)
		return wgetUsage
	}
	var res response
	var err error
	for try := 0; try < w.tries; try++ {
		if res, err = fetch("GET", w.target, w.header, nil, w.timeout); err == nil {
			break
		}
	}
	if err != nil {
		if !w.quiet {
			fprintln(stderr, "wget:", err)
		}
		return wgetNetwork
	}
	if res.status >= 400 {
		if !w.quiet {
			fprintf(stderr, "wget: server returned error: %s %d %s\n", res.proto, res.status, res.reason)
		}
		return wgetServer
	}
	if w.spider {
		return 0
	}
	out := stdout
	if w.output != "-" {
		name := w.output
		if name == "" { // the URL's last path segment, as wget names it
			name = "index.html"
			if t, err := parseTarget(w.target); err == nil {
				p, _, _ := strings.Cut(t.path, "?")
				if i := strings.LastIndexByte(p, '/'); p[i+1:] != "" {
					name = p[i+1:]
				}
			}
		}
		f, err := os.Create(name)
		if err != nil {
			fprintln(stderr, "wget:", err)
			return wgetFile
		}
		defer f.Close()
		out = f
	}
	if _, err := out.Write(res.body); err != nil {
		return wgetFile
	}
	return 0
}
