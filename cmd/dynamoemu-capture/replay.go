package main

import (
	"bytes"
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"flag"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	v4 "github.com/aws/aws-sdk-go-v2/aws/signer/v4"

	"github.com/dynamoemu/dynamoemu/emulator"
	"github.com/dynamoemu/dynamoemu/internal/capture"
)

// replayRegion and replayCreds sign a replay's requests: an emulator or
// DynamoDB Local takes any key.
const replayRegion = "us-east-1"

var replayCreds = aws.Credentials{AccessKeyID: "dynamoemureplay", SecretAccessKey: "dynamoemu-replay"}

// stringList is a repeatable flag of comma-separated values.
type stringList []string

func (l *stringList) String() string { return strings.Join(*l, ",") }
func (l *stringList) Set(s string) error {
	for _, p := range strings.Split(s, ",") {
		if p = strings.TrimSpace(p); p != "" {
			*l = append(*l, p)
		}
	}
	return nil
}

// runReplay is "dynamoemu replay".
func runReplay(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("dynamoemu replay", flag.ContinueOnError)
	fs.SetOutput(stderr)
	endpoint := fs.String("endpoint", "", "replay against this endpoint (http://host:port) instead of an emulator in this process")
	asJSON := fs.Bool("json", false, "write the result as one JSON object (departures, summary) on stdout")
	prefix := fs.String("tablePrefix", "", "the table prefix put in the place of ${prefix} (default: a fresh one, replay-XXXXXXXX-)")
	var ignore stringList
	fs.Var(&ignore, "ignore", "response paths not compared, comma-separated or repeated (ConsumedCapacity,Table.TableSizeBytes; * for any one member)")
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: dynamoemu replay [-endpoint URL] [-json] [-ignore PATHS] FILE")
		fmt.Fprintln(stderr, "Sends a capture's requests in order, with their waits, and names each answer that departs from the recorded one; exit 1 if any does (docs/captures.md).")
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		return err
	}
	if fs.NArg() != 1 {
		fs.Usage()
		return errors.New("give one capture file")
	}
	f, err := capture.ReadFile(fs.Arg(0))
	if err != nil {
		return err
	}
	if *prefix == "" {
		*prefix = freshPrefix()
	}
	send, closeFn, err := sender(*endpoint)
	if err != nil {
		return err
	}
	defer closeFn()
	res, err := replay(ctx, f, send, *prefix, ignore)
	if *asJSON {
		if werr := res.writeJSON(stdout); werr != nil {
			return werr
		}
	} else {
		res.writeText(stdout)
	}
	if err != nil {
		return err
	}
	if len(res.Departures) > 0 {
		return errDepartures
	}
	return nil
}

// freshPrefix is a table prefix no earlier replay used.
func freshPrefix() string {
	b := make([]byte, 4)
	_, _ = rand.Read(b)
	return "replay-" + hex.EncodeToString(b) + "-"
}

// sendFunc sends one request (its target and body) and returns the
// answer's status and body.
type sendFunc func(ctx context.Context, target string, body []byte) (int, []byte, error)

// sender is the sendFunc to endpoint, or to a fresh emulator in this
// process when endpoint is "", and what closes it.
func sender(endpoint string) (sendFunc, func(), error) {
	if endpoint != "" {
		hc := &http.Client{Timeout: 2 * time.Minute}
		return httpSender(hc, strings.TrimSuffix(endpoint, "/")+"/"), hc.CloseIdleConnections, nil
	}
	e, err := emulator.New(emulator.Options{})
	if err != nil {
		return nil, nil, err
	}
	hc := &http.Client{Transport: handlerTransport{e.Handler()}}
	return httpSender(hc, "http://dynamoemu.invalid/"), func() { _ = e.Close() }, nil
}

// httpSender sends each request to url with hc, signed as an SDK signs.
func httpSender(hc *http.Client, url string) sendFunc {
	signer := v4.NewSigner()
	return func(ctx context.Context, target string, body []byte) (int, []byte, error) {
		req, err := http.NewRequestWithContext(ctx, http.MethodPost, url, bytes.NewReader(body))
		if err != nil {
			return 0, nil, err
		}
		req.Header.Set("Content-Type", "application/x-amz-json-1.0")
		req.Header.Set("X-Amz-Target", target)
		sum := sha256.Sum256(body)
		if err := signer.SignHTTP(ctx, replayCreds, req, hex.EncodeToString(sum[:]), "dynamodb", replayRegion, time.Now()); err != nil {
			return 0, nil, err
		}
		resp, err := hc.Do(req)
		if err != nil {
			return 0, nil, err
		}
		defer resp.Body.Close()
		b, err := io.ReadAll(resp.Body)
		return resp.StatusCode, b, err
	}
}

// handlerTransport serves each request with an in-process handler.
type handlerTransport struct{ h http.Handler }

func (tr handlerTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	r := req.Clone(req.Context())
	body, err := io.ReadAll(req.Body)
	req.Body.Close()
	if err != nil {
		return nil, err
	}
	r.Body = io.NopCloser(bytes.NewReader(body))
	r.ContentLength = int64(len(body))
	r.RequestURI = r.URL.RequestURI()
	r.RemoteAddr = "127.0.0.1:0"
	rec := httptest.NewRecorder()
	tr.h.ServeHTTP(rec, r)
	return rec.Result(), nil
}

// departure is an answer that departed from the recorded one.
type departure struct {
	Seq      int            `json:"seq"`
	Line     int            `json:"line"`
	Target   string         `json:"target"`
	Request  string         `json:"request"` // as sent
	Recorded answer         `json:"recorded"`
	Replayed answer         `json:"replayed"`
	Diffs    []capture.Diff `json:"diffs"`
}

// answer is a status and a body.
type answer struct {
	Status int    `json:"status"`
	Body   string `json:"body"`
}

// opCount is one operation's line of the summary.
type opCount struct {
	Operation  string `json:"operation"`
	Exchanges  int    `json:"exchanges"`
	Compared   int    `json:"compared"`
	Departures int    `json:"departures"`
}

// result is a replay's outcome.
type result struct {
	File       string      `json:"file"`
	Prefix     string      `json:"tablePrefix"`
	Exchanges  int         `json:"exchanges"` // in the file
	Sent       int         `json:"sent"`
	Compared   int         `json:"compared"`
	Departures []departure `json:"departures"`
	Operations []opCount   `json:"operations"`
	Stopped    string      `json:"stopped,omitempty"` // why the replay ended early
}

// replay sends f's exchanges in order with send, after their waits, and
// compares each answer. An error (a request that could not be sent, a
// set-up exchange that failed) ends it early; the result says what ran.
func replay(ctx context.Context, f *capture.File, send sendFunc, prefix string, ignore []string) (*result, error) {
	res := &result{File: f.Name, Prefix: prefix, Exchanges: len(f.Exchanges), Departures: []departure{}}
	s := capture.NewSession(prefix)
	ops := map[string]*opCount{}
	var order []string
	count := func(op string) *opCount {
		if ops[op] == nil {
			ops[op] = &opCount{Operation: op}
			order = append(order, op)
		}
		return ops[op]
	}
	defer func() {
		for _, op := range order {
			res.Operations = append(res.Operations, *ops[op])
		}
	}()
	for _, e := range f.Exchanges {
		if e.AfterMs > 0 {
			t := time.NewTimer(time.Duration(e.AfterMs) * time.Millisecond)
			select {
			case <-ctx.Done():
				t.Stop()
				return res, stop(res, e, ctx.Err())
			case <-t.C:
			}
		}
		body, err := s.Request(e)
		if err != nil {
			return res, stop(res, e, err)
		}
		status, got, err := send(ctx, e.Target, body)
		if err != nil {
			return res, stop(res, e, err)
		}
		res.Sent++
		c := count(e.Operation())
		c.Exchanges++
		diffs, err := s.Compare(e, status, got, ignore...)
		if err != nil {
			return res, stop(res, e, err)
		}
		if !e.Checked() {
			if status/100 != 2 {
				return res, stop(res, e, fmt.Errorf("a set-up exchange (check false) answered %d %s", status, got))
			}
			continue
		}
		res.Compared++
		c.Compared++
		if len(diffs) > 0 {
			c.Departures++
			res.Departures = append(res.Departures, departure{
				Seq: e.Seq, Line: e.Line, Target: e.Target, Request: string(body),
				Recorded: answer{e.Status, string(e.Response)},
				Replayed: answer{status, string(got)},
				Diffs:    diffs,
			})
		}
	}
	return res, nil
}

// stop records why the replay ended at e and returns the error saying so.
func stop(res *result, e capture.Exchange, err error) error {
	res.Stopped = fmt.Sprintf("%s:%d: exchange %d (%s): %v", res.File, e.Line, e.Seq, e.Target, err)
	return fmt.Errorf("replay stopped after %d of %d exchanges: %s", res.Sent, res.Exchanges, res.Stopped)
}
