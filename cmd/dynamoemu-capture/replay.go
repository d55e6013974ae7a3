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
	asJSON := fs.Bool("json", false, "write the result as one JSON object on stdout: summary (counts, by operation and by kind), departures (each with its line, kind, the request and both answers as JSON, and the differences), skipped, stopped")
	prefix := fs.String("tablePrefix", "", "the table prefix put in the place of ${prefix} (default: a fresh one as long as the recorded one)")
	maxWait := fs.Duration("maxWait", time.Second, "the longest wait between two exchanges (a capture's afterMs above it is cut to it; 0: no waits)")
	pacing := fs.Bool("recordedPacing", false, "wait each afterMs in full, as recorded (TTL or stream timing), instead of at most -maxWait")
	var ignore stringList
	fs.Var(&ignore, "ignore", "response paths not compared, comma-separated or repeated (ConsumedCapacity,Table.TableSizeBytes; * for any one member)")
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: dynamoemu replay [-endpoint URL] [-json] [-ignore PATHS] [-maxWait D | -recordedPacing] FILE")
		fmt.Fprintln(stderr, "Sends a capture's requests in order (overlapping ones at once) and names each answer that departs from the recorded one, grouped by kind; exit 1 if any does (docs/captures.md).")
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
		*prefix = freshPrefixOf(len(f.Header.TablePrefix))
	}
	send, closeFn, err := sender(*endpoint)
	if err != nil {
		return err
	}
	defer closeFn()
	wait := *maxWait
	if *pacing {
		wait = -1
	}
	res, err := replayWith(ctx, f, send, replayOptions{Prefix: *prefix, Ignore: ignore, MaxWait: wait})
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

// freshPrefixOf is a fresh table prefix n bytes long when n is at least
// 3 (a replayed table's name is then as long as the recorded one), else
// freshPrefix's.
func freshPrefixOf(n int) string {
	if n < 3 {
		return freshPrefix()
	}
	b := make([]byte, n)
	_, _ = rand.Read(b)
	const letters = "abcdefghijklmnopqrstuvwxyz0123456789"
	b[0] = 'r'
	for i := 1; i < n-1; i++ {
		b[i] = letters[int(b[i])%len(letters)]
	}
	b[n-1] = '-'
	return string(b)
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
