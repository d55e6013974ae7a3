package main

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"os"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	v4 "github.com/aws/aws-sdk-go-v2/aws/signer/v4"
	"github.com/aws/aws-sdk-go-v2/config"

	"github.com/dynamoemu/dynamoemu/internal/capture"
)

// maxRequestBytes bounds a request the recorder reads: AWS's 16 MB.
const maxRequestBytes = 16 << 20

// awsHost is a DynamoDB endpoint of AWS's: its region.
var awsHost = regexp.MustCompile(`^dynamodb\.([a-z0-9-]+)\.amazonaws\.com(\.cn)?$`)

// runRecord is "dynamoemu record".
func runRecord(ctx context.Context, args []string, stderr io.Writer) error {
	fs := flag.NewFlagSet("dynamoemu record", flag.ContinueOnError)
	fs.SetOutput(stderr)
	upstream := fs.String("upstream", "", "the endpoint to forward to: https://dynamodb.REGION.amazonaws.com, or any speaking DynamoDB's protocol (DynamoDB Local, dynamoemu)")
	streams := fs.String("streamsUpstream", "", "where DynamoDB Streams requests go (default: streams.dynamodb.REGION.amazonaws.com for AWS, else -upstream)")
	port := fs.Int("port", 8001, "the port to listen on (127.0.0.1); point your SDK's endpoint at it")
	prefix := fs.String("tablePrefix", "", "the only tables the recorder lets a request touch: those whose names start with this (required)")
	out := fs.String("out", "", "the capture file to write (required)")
	region := fs.String("region", "", "the region to sign for (default: the upstream's, else the SDK configuration's, else us-east-1)")
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: dynamoemu record -upstream URL -tablePrefix P -out FILE [-port N]")
		fmt.Fprintln(stderr, "A proxy that forwards each request, re-signed with your AWS credentials (the SDK's default chain), and writes each exchange to a capture (docs/captures.md).")
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		return err
	}
	if fs.NArg() > 0 || *upstream == "" || *prefix == "" || *out == "" {
		fs.Usage()
		return errors.New("give -upstream, -tablePrefix and -out, nothing else")
	}
	cfg, err := config.LoadDefaultConfig(ctx)
	if err != nil {
		return fmt.Errorf("the AWS SDK's configuration: %v", err)
	}
	r, err := newRecorder(recorderOptions{Upstream: *upstream, StreamsUpstream: *streams, Prefix: *prefix, Region: *region, ConfigRegion: cfg.Region, Credentials: cfg.Credentials})
	if err != nil {
		return err
	}
	creds, err := cfg.Credentials.Retrieve(ctx)
	if err != nil {
		return fmt.Errorf("no AWS credentials in the SDK's default chain (environment, shared files, SSO, container or instance roles): %v", err)
	}
	f, err := os.Create(*out)
	if err != nil {
		return err
	}
	defer f.Close()
	if err := r.start(f); err != nil {
		return err
	}
	ln, err := net.Listen("tcp", net.JoinHostPort("127.0.0.1", strconv.Itoa(*port)))
	if err != nil {
		return err
	}
	existing, err := r.existingTables(ctx)
	if err != nil {
		ln.Close()
		return fmt.Errorf("listing the upstream's tables: %v", err)
	}
	fmt.Fprint(stderr, r.announce("http://"+ln.Addr().String(), *out, creds.AccessKeyID, existing))
	srv := &http.Server{Handler: r, ReadHeaderTimeout: 30 * time.Second}
	go func() {
		<-ctx.Done()
		_ = srv.Close()
	}()
	if err := srv.Serve(ln); err != nil && !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	r.flushAll()
	fmt.Fprintf(stderr, "dynamoemu record: stopped; %d exchanges in %s\n", r.written(), *out)
	return nil
}

// recorderOptions configure a recorder.
type recorderOptions struct {
	Upstream, StreamsUpstream string
	Prefix                    string
	Region, ConfigRegion      string
	Credentials               aws.CredentialsProvider
	HTTPClient                *http.Client // nil: a client of its own
	Log                       io.Writer    // nil: os.Stderr
}

// recorder is the proxy: it forwards what stays within its prefix and
// writes each exchange.
type recorder struct {
	upstream, streams string
	region            string
	prefix            string
	creds             aws.CredentialsProvider
	signer            *v4.Signer
	hc                *http.Client

	w   *capture.Writer
	vol *capture.Volatile
	log io.Writer

	mu        sync.Mutex        // guards the rest
	created   map[string]bool   // the tables it created: the only ones it deletes
	iterators map[string]string // the shard iterators it passed on, to their table: GetRecords names nothing else
	last      time.Time         // when the last exchange ended
	count     int
	clients   map[string]string    // a connection's remote address to its client id
	inflight  map[*flight]bool     // the exchanges being answered
	overlap   int                  // the number of the last run of exchanges in flight
	pending   map[string]*exchange // a retried request's last try, by its SDK invocation id
}

func newRecorder(o recorderOptions) (*recorder, error) {
	u, err := url.Parse(o.Upstream)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return nil, fmt.Errorf("-upstream %q is not an http(s) URL", o.Upstream)
	}
	if strings.ContainsAny(o.Prefix, " \"") || len(o.Prefix) < 3 {
		return nil, fmt.Errorf("-tablePrefix %q: give at least 3 characters of a table name, like rec1-", o.Prefix)
	}
	region := o.Region
	m := awsHost.FindStringSubmatch(u.Hostname())
	if region == "" && m != nil {
		region = m[1]
	}
	if region == "" {
		region = o.ConfigRegion
	}
	if region == "" {
		region = "us-east-1"
	}
	streams := o.StreamsUpstream
	if streams == "" {
		streams = o.Upstream
		if m != nil {
			streams = u.Scheme + "://streams." + u.Host
		}
	}
	hc := o.HTTPClient
	if hc == nil {
		hc = &http.Client{Timeout: 2 * time.Minute}
	}
	log := o.Log
	if log == nil {
		log = os.Stderr
	}
	return &recorder{
		upstream: o.Upstream, streams: streams, region: region, prefix: o.Prefix,
		creds: o.Credentials, signer: v4.NewSigner(), hc: hc, created: map[string]bool{}, iterators: map[string]string{},
		vol: capture.NewVolatile(), log: log, clients: map[string]string{}, inflight: map[*flight]bool{}, pending: map[string]*exchange{},
	}, nil
}

// start writes the capture's header to w.
func (r *recorder) start(w io.Writer) error {
	// The day alone: two recordings of one session differ in nothing else.
	cw, err := capture.NewWriter(w, capture.Header{Upstream: r.upstream, Recorded: time.Now().UTC().Format(time.DateOnly), TablePrefix: r.prefix})
	r.w = cw
	return err
}

// written is how many exchanges it wrote.
func (r *recorder) written() int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.count
}

// announce is what the recorder says on start: where it listens, where
// it forwards, as whom, and what it will touch.
func (r *recorder) announce(listen, out, keyID string, existing []string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "dynamoemu record: listening on %s; point your SDK's endpoint there\n", listen)
	fmt.Fprintf(&b, "  forwarding to %s (DynamoDB Streams to %s), signed for %s as access key %s\n", r.upstream, r.streams, r.region, maskKey(keyID))
	fmt.Fprintf(&b, "  it will touch only tables whose names start with %q; a request naming another is refused\n", r.prefix)
	if len(existing) == 0 {
		b.WriteString("  no such table exists now\n")
	} else {
		fmt.Fprintf(&b, "  these exist now and may be read and written, never deleted: %s\n", strings.Join(existing, ", "))
	}
	b.WriteString("  it deletes only the tables it creates in this session\n")
	fmt.Fprintf(&b, "  writing each exchange to %s (no credentials, signatures or headers; the prefix, account ids and regions normalised)\n", out)
	return b.String()
}

// maskKey shows an access key id's last four characters.
func maskKey(id string) string {
	if len(id) <= 4 {
		return "****"
	}
	return strings.Repeat("*", len(id)-4) + id[len(id)-4:]
}

// existingTables lists the upstream's tables within the prefix.
func (r *recorder) existingTables(ctx context.Context) ([]string, error) {
	var names []string
	start := ""
	for {
		req := map[string]any{}
		if start != "" {
			req["ExclusiveStartTableName"] = start
		}
		body, _ := json.Marshal(req)
		status, got, err := r.forward(ctx, "DynamoDB_20120810.ListTables", body)
		if err != nil {
			return nil, err
		}
		if status != http.StatusOK {
			return nil, fmt.Errorf("ListTables answered %d %s", status, got)
		}
		var page struct {
			TableNames             []string
			LastEvaluatedTableName string
		}
		if err := json.Unmarshal(got, &page); err != nil {
			return nil, err
		}
		for _, n := range page.TableNames {
			if strings.HasPrefix(n, r.prefix) {
				names = append(names, n)
			}
		}
		if page.LastEvaluatedTableName == "" {
			return names, nil
		}
		start = page.LastEvaluatedTableName
	}
}

// forward sends a request to the upstream, signed with the
// credentials, and returns its answer.
func (r *recorder) forward(ctx context.Context, target string, body []byte) (int, []byte, error) {
	to := r.upstream
	if strings.HasPrefix(target, "DynamoDBStreams_") {
		to = r.streams
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, to, bytes.NewReader(body))
	if err != nil {
		return 0, nil, err
	}
	req.Header.Set("Content-Type", "application/x-amz-json-1.0")
	req.Header.Set("X-Amz-Target", target)
	creds, err := r.creds.Retrieve(ctx)
	if err != nil {
		return 0, nil, fmt.Errorf("AWS credentials: %v", err)
	}
	sum := sha256.Sum256(body)
	if err := r.signer.SignHTTP(ctx, creds, req, hex.EncodeToString(sum[:]), "dynamodb", r.region, time.Now()); err != nil {
		return 0, nil, err
	}
	resp, err := r.hc.Do(req)
	if err != nil {
		return 0, nil, err
	}
	defer resp.Body.Close()
	got, err := io.ReadAll(resp.Body)
	return resp.StatusCode, got, err
}

// refuse answers a request the recorder will not forward, in DynamoDB's
// shape (AccessDeniedException: an SDK does not retry it).
func refuse(w http.ResponseWriter, status int, typ, msg string) {
	w.Header().Set("Content-Type", "application/x-amz-json-1.0")
	w.WriteHeader(status)
	b, _ := json.Marshal(map[string]string{"__type": "com.amazonaws.dynamodb.v20120810#" + typ, "message": "dynamoemu record: " + msg})
	_, _ = w.Write(b)
}

// ServeHTTP checks, forwards and writes one exchange.
func (r *recorder) ServeHTTP(w http.ResponseWriter, req *http.Request) {
	arrived := time.Now()
	target := req.Header.Get("X-Amz-Target")
	if req.Method != http.MethodPost || target == "" {
		refuse(w, http.StatusBadRequest, "UnknownOperationException", "the recorder forwards DynamoDB API calls only (POST with X-Amz-Target)")
		return
	}
	body, err := io.ReadAll(http.MaxBytesReader(w, req.Body, maxRequestBytes))
	if err != nil {
		refuse(w, http.StatusRequestEntityTooLarge, "ValidationException", "reading the request: "+err.Error())
		return
	}
	if len(bytes.TrimSpace(body)) == 0 {
		body = []byte("{}")
	}
	op := target[strings.LastIndexByte(target, '.')+1:]
	if msg := r.check(op, body); msg != "" {
		refuse(w, http.StatusBadRequest, "AccessDeniedException", msg)
		return
	}
	f := r.begin(req.RemoteAddr, req.Header.Get("Amz-Sdk-Invocation-Id"))
	status, got, err := r.forward(req.Context(), target, body)
	upstream := ""
	if err != nil {
		upstream = "unreachable: " + err.Error()
		status = http.StatusBadGateway
		got, _ = json.Marshal(map[string]string{"__type": "com.amazonaws.dynamodb.v20120810#InternalServerError", "message": "dynamoemu record: forwarding to the upstream: " + err.Error()})
		fmt.Fprintf(r.log, "dynamoemu record: %s: the upstream is unreachable (%v); answered 502, written as the upstream's failure\n", target, err)
	}
	w.Header().Set("Content-Type", "application/x-amz-json-1.0")
	w.WriteHeader(status)
	_, _ = w.Write(got)
	r.note(op, body, status, got)
	r.finish(f, &exchange{target: target, op: op, body: body, status: status, got: got, arrived: arrived, upstream: upstream,
		invocation: req.Header.Get("Amz-Sdk-Invocation-Id")})
}

// check returns why the request may not go to the upstream, or "".
func (r *recorder) check(op string, body []byte) string {
	if op == "GetRecords" { // a shard iterator names its table only to the upstream
		var req struct{ ShardIterator string }
		_ = json.Unmarshal(body, &req)
		r.mu.Lock()
		defer r.mu.Unlock()
		if _, ok := r.iterators[req.ShardIterator]; !ok {
			return "the shard iterator was not answered through this recording: the recorder reads only the streams of its prefix's tables"
		}
		return ""
	}
	names, err := touched(op, body)
	if err != nil {
		return err.Error() + "; the recorder forwards only what it can confine to its table prefix"
	}
	for _, n := range names {
		if !strings.HasPrefix(n, r.prefix) {
			return fmt.Sprintf("table %q is outside the prefix %q: the recorder touches only tables whose names start with it", n, r.prefix)
		}
	}
	if op == "DeleteTable" {
		r.mu.Lock()
		defer r.mu.Unlock()
		for _, n := range names {
			if !r.created[n] {
				return fmt.Sprintf("table %q was not created by this recording: the recorder deletes only the tables it created", n)
			}
		}
	}
	return ""
}

// note remembers the tables a successful request created and the shard
// iterators it answered.
func (r *recorder) note(op string, body []byte, status int, got []byte) {
	if status != http.StatusOK {
		return
	}
	var req struct {
		TableName, TargetTableName string
		TableCreationParameters    struct{ TableName string }
		StreamArn, ShardIterator   string
	}
	_ = json.Unmarshal(body, &req)
	var ans struct{ ShardIterator, NextShardIterator string }
	_ = json.Unmarshal(got, &ans)
	r.mu.Lock()
	switch op {
	case "GetShardIterator":
		if t, err := arnTable(req.StreamArn); err == nil && ans.ShardIterator != "" {
			r.iterators[ans.ShardIterator] = t
		}
	case "GetRecords":
		if ans.NextShardIterator != "" {
			r.iterators[ans.NextShardIterator] = r.iterators[req.ShardIterator]
		}
	}
	r.mu.Unlock()
	name := ""
	switch op {
	case "CreateTable":
		name = req.TableName
	case "RestoreTableFromBackup", "RestoreTableToPointInTime":
		name = req.TargetTableName
	case "ImportTable":
		name = req.TableCreationParameters.TableName
	}
	if name != "" {
		r.mu.Lock()
		r.created[name] = true
		r.mu.Unlock()
	}
}

// write writes the exchange, normalised, and ends its flight; a
// listing's answer keeps only the prefix's tables.
func (r *recorder) write(f *flight, x *exchange) error {
	got := x.got
	if len(bytes.TrimSpace(got)) == 0 {
		got = []byte("{}")
	}
	got = r.listingWithin(x.op, got)
	reqN, err := r.vol.Normalise(x.body, r.prefix)
	if err != nil {
		return err
	}
	respN, err := r.vol.Normalise(got, r.prefix)
	if err != nil {
		return fmt.Errorf("the answer is not JSON: %v", err)
	}
	e := capture.Exchange{Target: x.target, Request: reqN, Status: x.status, Response: respN, Upstream: x.upstream}
	for _, a := range x.retries {
		resp, err := r.vol.Normalise(a.Response, r.prefix)
		if err != nil {
			resp = json.RawMessage(`{}`)
		}
		e.Retries = append(e.Retries, capture.Attempt{Status: a.Status, Response: resp})
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	r.end(f)
	if !r.last.IsZero() {
		e.AfterMs = stableWait(x.arrived.Sub(r.last))
	}
	r.last = time.Now()
	if f.overlapped {
		e.Client, e.Overlap = f.client, f.overlap
	}
	seq, err := r.w.Write(e)
	if err != nil {
		return err
	}
	r.count++
	if e.Upstream != "" {
		fmt.Fprintf(r.log, "dynamoemu record: exchange %d (%s) written as the upstream's failure: %s\n", seq, x.target, e.Upstream)
	}
	return nil
}

// stableWait is a wait between exchanges as written: none under
// 200 ms (a client's own pace), else down to a multiple of 100 ms, so
// that two recordings of one session write the same waits.
func stableWait(d time.Duration) int64 {
	ms := d.Milliseconds()
	if ms < 200 {
		return 0
	}
	return ms / 100 * 100
}

// listingWithin is an account-wide listing's answer with only the
// prefix's tables: ListTables' names, and the entries naming a table of
// ListStreams, ListBackups, ListGlobalTables and their kin.
func (r *recorder) listingWithin(op string, got []byte) []byte {
	if !tableFree[op] {
		return got
	}
	var m map[string]any
	if json.Unmarshal(got, &m) != nil {
		return got
	}
	within := func(s any) bool { n, ok := s.(string); return ok && strings.HasPrefix(n, r.prefix) }
	for k, v := range m {
		list, ok := v.([]any)
		if !ok {
			continue
		}
		m[k] = slices.DeleteFunc(slices.Clone(list), func(x any) bool {
			switch x := x.(type) {
			case string:
				return k == "TableNames" && !within(x)
			case map[string]any:
				for _, key := range []string{"TableName", "GlobalTableName"} {
					if n, ok := x[key]; ok {
						return !within(n)
					}
				}
				for _, key := range []string{"TableArn", "StreamArn", "BackupArn", "ExportArn", "ImportArn", "ResourceArn"} {
					if a, ok := x[key].(string); ok {
						n, _ := arnTable(a)
						return !strings.HasPrefix(n, r.prefix)
					}
				}
			}
			return false
		})
	}
	b, err := json.Marshal(m)
	if err != nil {
		return got
	}
	return b
}
