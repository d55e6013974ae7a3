package emulator_test

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/credentials"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/aws/smithy-go"
	smithyhttp "github.com/aws/smithy-go/transport/http"

	"github.com/dynamoemu/dynamoemu/emulator"
	"github.com/dynamoemu/dynamoemu/emulator/emulatortest"
	"github.com/dynamoemu/dynamoemu/internal/adminpath"
)

// What the HTTP edge refuses, tried over real HTTP as a browser or an
// attacker would send it: cross-site "simple" requests to the admin
// endpoints and to the API, and Hosts of DNS rebinding.

// sigV4 is an Authorization header as an SDK or the AWS CLI sends it (the
// emulator reads the access key and region, not the signature).
const sigV4 = "AWS4-HMAC-SHA256 Credential=local/20260101/us-east-1/dynamodb/aws4_request, SignedHeaders=host;x-amz-date;x-amz-target, Signature=0"

// rawRequest is one HTTP request as a client puts it on the wire.
type rawRequest struct {
	method, path, host, body string
	header                   map[string]string
}

// send sends rr to the server at base (http://127.0.0.1:port) and returns
// the status and body of the answer.
func send(t *testing.T, base string, rr rawRequest) (int, string) {
	t.Helper()
	req, err := http.NewRequest(rr.method, base+rr.path, strings.NewReader(rr.body))
	if err != nil {
		t.Fatal(err)
	}
	if rr.body == "" {
		req.Body, req.ContentLength = http.NoBody, 0
	}
	if rr.host != "" {
		req.Host = rr.host
	}
	for k, v := range rr.header {
		req.Header.Set(k, v)
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	b, err := io.ReadAll(res.Body)
	if err != nil {
		t.Fatal(err)
	}
	return res.StatusCode, string(b)
}

// expiredItemTable makes table tbl with TTL on expiresAt and one item,
// "old", that expired a minute before the fixed clock's time.
func expiredItemTable(t *testing.T, db *dynamodb.Client) {
	t.Helper()
	ttlTable(t, db, types.StreamViewTypeKeysOnly, "expiresAt")
	put(t, db, "old", map[string]types.AttributeValue{
		"expiresAt": &types.AttributeValueMemberN{Value: strconv.FormatInt(start.Add(-time.Minute).Unix(), 10)}})
}

// TestCrossSiteSimpleRequestsRefused: every request a web page can send to
// another site without a preflight (GET, or POST with one of the three
// form content types or none) is refused by the admin endpoints, so such a
// page can neither move the clock nor sweep; the API does nothing for them
// either.
func TestCrossSiteSimpleRequestsRefused(t *testing.T) {
	base, e, db := emulatortest.NewServerWith(t, emulator.Options{Clock: fixedClock, SharedDB: true})
	expiredItemTable(t, db)

	simpleTypes := []string{"", "text/plain", "text/plain;charset=UTF-8", "application/x-www-form-urlencoded", "multipart/form-data; boundary=x"}
	admin := []struct{ method, path, body string }{
		{"POST", adminpath.Clock, `{"set":"2032-01-01T00:00:00Z"}`},
		{"POST", adminpath.Clock, `{"advance":"2000h"}`},
		{"POST", adminpath.Sweep, ``},
		{"POST", "/dynamoemu/other", `{}`},
		{"GET", adminpath.Clock, ``},
		{"GET", adminpath.Conventions, ``},
		{"PUT", adminpath.Clock, `{"set":"2032-01-01T00:00:00Z"}`},
	}
	for _, a := range admin {
		for _, ct := range simpleTypes {
			for _, origin := range []string{"http://evil.example", "null", ""} {
				h := map[string]string{}
				if ct != "" {
					h["Content-Type"] = ct
				}
				if origin != "" {
					h["Origin"] = origin
				}
				want := http.StatusForbidden
				switch {
				case origin == "" && a.method == "GET":
					continue // a navigation: the page cannot read the answer; GETs change nothing
				case origin == "":
					want = http.StatusUnsupportedMediaType // a form POST of a browser that sends no Origin
				}
				status, body := send(t, base, rawRequest{method: a.method, path: a.path, body: a.body, header: h})
				if status != want || !strings.Contains(body, "Exception") {
					t.Errorf("%s %s, Content-Type %q, Origin %q: got %d %s, want %d with an error body", a.method, a.path, ct, origin, status, body, want)
				}
			}
		}
	}
	if got := e.Clock().Now(); !got.Equal(start) {
		t.Errorf("the clock moved to %v, want %v", got, start)
	}
	ctx := context.Background()
	got, err := db.GetItem(ctx, &dynamodb.GetItemInput{TableName: aws.String(tbl),
		Key: map[string]types.AttributeValue{"pk": &types.AttributeValueMemberS{Value: "old"}}})
	if err != nil || got.Item == nil {
		t.Errorf("the expired item was swept by a refused request: got %v, %v", got.Item, err)
	}

	// The API: a simple POST can carry a presigned credential in the query
	// but never X-Amz-Target, so no operation runs.
	create := `{"TableName":"evil","AttributeDefinitions":[{"AttributeName":"pk","AttributeType":"S"}],` +
		`"KeySchema":[{"AttributeName":"pk","KeyType":"HASH"}],"BillingMode":"PAY_PER_REQUEST"}`
	cred := "?X-Amz-Credential=" + url.QueryEscape("local/20260101/us-east-1/dynamodb/aws4_request")
	for _, ct := range simpleTypes {
		for _, path := range []string{"/", "/" + cred} {
			h := map[string]string{"Origin": "http://evil.example"}
			if ct != "" {
				h["Content-Type"] = ct
			}
			status, body := send(t, base, rawRequest{method: "POST", path: path, body: create, header: h})
			if status != http.StatusBadRequest {
				t.Errorf("API, POST %s, Content-Type %q: got %d %s, want 400", path, ct, status, body)
			}
		}
	}
	tables, err := db.ListTables(ctx, &dynamodb.ListTablesInput{})
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range tables.TableNames {
		if name == "evil" {
			t.Errorf("a cross-site simple POST created table %q", name)
		}
	}
}

// TestAdminRequestsAllowed: tools (no Origin, Content-Type
// application/json) and pages of -cors origins use the admin endpoints;
// other origins are refused even with a JSON content type (what a
// preflight-approved request of a -cors "*" server would also carry).
func TestAdminRequestsAllowed(t *testing.T) {
	base, e, db := emulatortest.NewServerWith(t, emulator.Options{Clock: fixedClock, CORSOrigins: []string{"http://app.test"}})
	expiredItemTable(t, db)
	tests := []struct {
		name, method, path, body, origin, ct string
		status                               int
		want                                 string
	}{
		{"curl GET clock", "GET", adminpath.Clock, "", "", "", 200, `{"now":"2026-11-22T10:00:00Z"}`},
		{"tool advances", "POST", adminpath.Clock, `{"advance":"1h"}`, "", "application/json", 200, `{"now":"2026-11-22T11:00:00Z"}`},
		{"charset parameter", "POST", adminpath.Clock, `{"advance":"1h"}`, "", "application/json; charset=utf-8", 200, `{"now":"2026-11-22T12:00:00Z"}`},
		{"cors origin sets", "POST", adminpath.Clock, `{"set":"2026-11-22T10:00:00Z"}`, "http://app.test", "application/json", 200, `{"now":"2026-11-22T10:00:00Z"}`},
		{"foreign origin with JSON", "POST", adminpath.Clock, `{"set":"2032-01-01T00:00:00Z"}`, "http://evil.example", "application/json", 403, `AccessDeniedException`},
		{"foreign origin GET", "GET", adminpath.Conventions, "", "http://evil.example", "", 403, `-cors`},
		{"cors origin GET", "GET", adminpath.Conventions, "", "http://app.test", "", 200, `"tables":[]`},
		{"JSON for another type", "POST", adminpath.Sweep, "", "", "application/jsonx", 415, `Content-Type: application/json`},
		{"tool sweeps", "POST", adminpath.Sweep, "", "", "application/json", 200, `{"deleted":1}`},
	}
	for _, tc := range tests {
		h := map[string]string{}
		if tc.origin != "" {
			h["Origin"] = tc.origin
		}
		if tc.ct != "" {
			h["Content-Type"] = tc.ct
		}
		status, body := send(t, base, rawRequest{method: tc.method, path: tc.path, body: tc.body, header: h})
		if status != tc.status || !strings.Contains(body, tc.want) {
			t.Errorf("%s: got %d %s, want %d with %s", tc.name, status, body, tc.status, tc.want)
		}
	}
	if got := e.Clock().Now(); !got.Equal(start) {
		t.Errorf("got clock %v, want %v", got, start)
	}
	// The page of a -cors origin may read the answer.
	req, _ := http.NewRequest("POST", base+adminpath.Sweep, nil)
	req.Header.Set("Origin", "http://app.test")
	req.Header.Set("Content-Type", "application/json")
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	if got := res.Header.Get("Access-Control-Allow-Origin"); res.StatusCode != 200 || got != "http://app.test" {
		t.Errorf("sweep from a -cors origin: got %d, Access-Control-Allow-Origin %q; want 200, http://app.test", res.StatusCode, got)
	}
}

// hostCase is one Host header and whether the server answers it.
type hostCase struct {
	host    string
	allowed bool
}

// checkHosts sends a ListTables with each Host to base and checks the
// answer: 200 when allowed, else 403 AccessDeniedException naming
// -allowHost.
func checkHosts(t *testing.T, base string, cases []hostCase) {
	t.Helper()
	for _, hc := range cases {
		status, body := send(t, base, rawRequest{method: "POST", path: "/", host: hc.host, body: `{}`, header: map[string]string{
			"Content-Type": "application/x-amz-json-1.0", "X-Amz-Target": "DynamoDB_20120810.ListTables", "Authorization": sigV4}})
		switch {
		case hc.allowed && status != http.StatusOK:
			t.Errorf("Host %q: got %d %s, want 200", hc.host, status, body)
		case !hc.allowed && (status != http.StatusForbidden || !strings.Contains(body, `"__type":"com.amazon.coral.service#AccessDeniedException"`) ||
			!strings.Contains(body, "-allowHost")):
			t.Errorf("Host %q: got %d %s, want 403 AccessDeniedException naming -allowHost", hc.host, status, body)
		}
	}
}

// TestHostOnLoopback: a server on 127.0.0.1 answers the names a local
// client uses and refuses the others, which is what DNS rebinding sends.
func TestHostOnLoopback(t *testing.T) {
	base, _, _ := emulatortest.NewServerWith(t, emulator.Options{})
	checkHosts(t, base, []hostCase{
		{"localhost:8000", true},
		{"localhost", true},
		{"LocalHost:8000", true},
		{"localhost.:8000", true},
		{"127.0.0.1:8000", true},
		{"127.0.0.2", true},
		{"[::1]:8000", true},
		{"[::ffff:127.0.0.1]:8000", true},
		{"dynamoemu.localhost:8000", true},
		{"host.docker.internal:8000", true},
		{"192.168.1.20:8000", true},
		{"attacker.example:8000", false},
		{"attacker.example", false},
		{"localhost.attacker.example:8000", false},
		{"127.0.0.1.nip.io:8000", false},
		{"dynamodb:8000", false}, // single-label names only on non-loopback interfaces
		{"printer.local:8000", false},
		{"localhost:80:80", false},
		{"[::1]x", false},
	})
	// Through names a test lists.
	base, _, _ = emulatortest.NewServerWith(t, emulator.Options{AllowHosts: []string{"dynamodb", "*.corp.example", "Api.Example.COM."}})
	checkHosts(t, base, []hostCase{
		{"dynamodb:8000", true},
		{"ddb.corp.example:8000", true},
		{"a.b.corp.example", true},
		{"corp.example", false},
		{"api.example.com:443", true},
		{"attacker.example:8000", false},
	})
	base, _, _ = emulatortest.NewServerWith(t, emulator.Options{AllowHosts: []string{"*"}})
	checkHosts(t, base, []hostCase{{"attacker.example:8000", true}})
}

// TestHostWithSDK: an SDK client pointed at a name the server refuses gets
// AccessDeniedException with the hint, at once (no retries); pointed at
// localhost it works, and DescribeEndpoints answers that Host.
func TestHostWithSDK(t *testing.T) {
	base, _, _ := emulatortest.NewServerWith(t, emulator.Options{})
	addr := strings.TrimPrefix(base, "http://")
	_, port, _ := net.SplitHostPort(addr)
	attempts := 0
	hc := &http.Client{Transport: &http.Transport{
		// Every name reaches the test server, as a rebound name reaches 127.0.0.1.
		DialContext: func(ctx context.Context, network, _ string) (net.Conn, error) {
			attempts++
			return (&net.Dialer{}).DialContext(ctx, network, addr)
		},
		DisableKeepAlives: true,
	}}
	client := func(endpoint string) *dynamodb.Client {
		return dynamodb.New(dynamodb.Options{
			Region:       "us-east-1",
			BaseEndpoint: aws.String(endpoint),
			Credentials:  credentials.NewStaticCredentialsProvider("local", "local", ""),
			HTTPClient:   hc,
		})
	}
	ctx := context.Background()
	_, err := client("http://attacker.example:"+port).ListTables(ctx, &dynamodb.ListTablesInput{})
	var ae smithy.APIError
	var re *smithyhttp.ResponseError
	if !errors.As(err, &ae) || ae.ErrorCode() != "AccessDeniedException" || !strings.Contains(ae.ErrorMessage(), "-allowHost attacker.example") {
		t.Fatalf("SDK for attacker.example: got %v, want AccessDeniedException naming -allowHost attacker.example", err)
	}
	if !errors.As(err, &re) || re.HTTPStatusCode() != http.StatusForbidden {
		t.Errorf("got %v, want status 403", err)
	}
	if attempts != 1 {
		t.Errorf("the SDK sent %d attempts, want 1 (a 403 AccessDeniedException is not retried)", attempts)
	}
	for _, host := range []string{"localhost", "127.0.0.1"} {
		out, err := client("http://"+host+":"+port).DescribeEndpoints(ctx, &dynamodb.DescribeEndpointsInput{})
		if err != nil {
			t.Fatalf("%s: %v", host, err)
		}
		if got, want := aws.ToString(out.Endpoints[0].Address), host+":"+port; got != want {
			t.Errorf("DescribeEndpoints via %s: got %q, want %q", host, got, want)
		}
	}
}

// nonLoopbackIP returns an address of this machine that is not loopback,
// or skips the test.
func nonLoopbackIP(t *testing.T) net.IP {
	t.Helper()
	addrs, err := net.InterfaceAddrs()
	if err != nil {
		t.Skip("no interface addresses:", err)
	}
	for _, a := range addrs {
		if ipn, ok := a.(*net.IPNet); ok && ipn.IP.To4() != nil && !ipn.IP.IsLoopback() && !ipn.IP.IsLinkLocalUnicast() {
			return ipn.IP
		}
	}
	t.Skip("no non-loopback IPv4 address")
	return nil
}

// TestHostOnPublicInterface: a server reached through a non-loopback
// interface (a container's, a LAN's) also answers the names only that
// network resolves (service names, *.local), and still refuses names of
// the public DNS.
func TestHostOnPublicInterface(t *testing.T) {
	ip := nonLoopbackIP(t)
	ln, err := net.Listen("tcp", net.JoinHostPort(ip.String(), "0"))
	if err != nil {
		t.Skip("cannot listen on", ip, err)
	}
	e, err := emulator.New(emulator.Options{AllowHosts: []string{"dynamodb.ci.example"}})
	if err != nil {
		t.Fatal(err)
	}
	srv := e.NewServer(emulator.ServerOptions{})
	go func() { _ = srv.Serve(ln) }()
	t.Cleanup(func() { _ = srv.Close() })
	base := "http://" + ln.Addr().String()
	checkHosts(t, base, []hostCase{
		{"dynamodb:8000", true},
		{"dynamodb", true},
		{"amazon__dynamodb-local:8000", true},
		{"dynamodb.default.svc.cluster.local:8000", true},
		{"ddb.home.arpa", true},
		{"host.docker.internal:8000", true},
		{ln.Addr().String(), true},
		{"10.1.2.3:8000", true},
		{"localhost:8000", true},
		{"dynamodb.ci.example:8000", true},
		{"attacker.example:8000", false},
		{"dynamodb.default:8000", false},
	})
}

// TestClockOutOfRange: a clock moved further than its offset holds is an
// error over HTTP (400 ValidationException) and in Go (ErrClockRange), and
// the clock stays where it was; never a wrapped time.
func TestClockOutOfRange(t *testing.T) {
	base, e, _ := emulatortest.NewServerWith(t, emulator.Options{Clock: fixedClock})
	json := map[string]string{"Content-Type": "application/json"}
	tests := []struct {
		body   string
		status int
		want   string
	}{
		{`{"set":"2400-01-01T00:00:00Z"}`, 400, `ValidationException`},
		{`{"set":"1700-01-01T00:00:00Z"}`, 400, `292 years`},
		{`{"set":"9999-12-31T23:59:59Z"}`, 400, `9999-12-31T23:59:59Z`},
		{`{"set":"2300-01-01T00:00:00Z"}`, 200, `{"now":"2300-01-01T00:00:00Z"}`},
		{`{"advance":"2562047h"}`, 400, `ValidationException`},
		{`{"advance":"-2562047h"}`, 200, `{"now":"2007-09-22T01:00:00Z"}`},
		{`{"advance":"-2562047h"}`, 400, `out of range`},
		{`{"advance":"99999999999h"}`, 400, `ValidationException`}, // not a time.Duration at all
	}
	for _, tc := range tests {
		status, body := send(t, base, rawRequest{method: "POST", path: adminpath.Clock, body: tc.body, header: json})
		if status != tc.status || !strings.Contains(body, tc.want) {
			t.Errorf("%s: got %d %s, want %d with %s", tc.body, status, body, tc.status, tc.want)
		}
	}
	if got, want := e.Clock().Now(), time.Date(2007, 9, 22, 1, 0, 0, 0, time.UTC); !got.Equal(want) {
		t.Errorf("after the refused moves the clock is %v, want %v", got, want)
	}

	e2, err := emulator.New(emulator.Options{Clock: fixedClock})
	if err != nil {
		t.Fatal(err)
	}
	maxD := time.Duration(1<<63 - 1)
	for _, step := range []struct {
		name string
		move func() (time.Time, error)
		ok   bool
	}{
		{"advance to the limit", func() (time.Time, error) { return e2.Clock().Advance(maxD) }, true},
		{"one more nanosecond", func() (time.Time, error) { return e2.Clock().Advance(1) }, false},
		{"back again", func() (time.Time, error) { return e2.Clock().Advance(-maxD) }, true},
		{"set past the limit", func() (time.Time, error) { return e2.Clock().SetNow(start.Add(maxD).Add(time.Second)) }, false},
		{"set before the limit", func() (time.Time, error) { return e2.Clock().SetNow(start.Add(-maxD).Add(-time.Second)) }, false},
		{"set year 1", func() (time.Time, error) { return e2.Clock().SetNow(time.Time{}) }, false},
	} {
		before := e2.Clock().Now()
		now, err := step.move()
		switch {
		case step.ok && err != nil:
			t.Errorf("%s: %v", step.name, err)
		case !step.ok && !errors.Is(err, emulator.ErrClockRange):
			t.Errorf("%s: got %v, want ErrClockRange", step.name, err)
		case !step.ok && (!now.Equal(before) || !e2.Clock().Now().Equal(before)):
			t.Errorf("%s: the clock moved from %v to %v (returned %v)", step.name, before, e2.Clock().Now(), now)
		}
	}
	if got := e2.Clock().Now(); !got.Equal(start) {
		t.Errorf("got %v, want %v", got, start)
	}
}

// ExampleClock_SetNow shows the error of a time the clock cannot reach.
func ExampleClock_SetNow() {
	e, _ := emulator.New(emulator.Options{})
	_, err := e.Clock().SetNow(time.Date(2500, 1, 1, 0, 0, 0, 0, time.UTC))
	fmt.Println(errors.Is(err, emulator.ErrClockRange))
	// Output: true
}
