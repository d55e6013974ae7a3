package main

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/credentials"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/aws/smithy-go"
)

// Bounds of the misbehaving clients: connections each kind keeps open at
// once (the run's duration bounds the rest).
const (
	silentConns     = 40 // announce 16 MB bodies, send a few bytes
	unreadConns     = 4  // request 1 MB Scan pages, never read them
	idleConns       = 40 // one request, then idle keep-alive
	slowHeaderConns = 10 // headers one byte a second
	keyClients      = 2  // reads under ever new access keys
	badTextClients  = 2  // PutItem with bytes that are not UTF-8
)

type load struct {
	addr   string
	cfg    config
	client *dynamodb.Client
	http   *http.Client
	count  counters
}

func newLoad(addr string, cfg config) *load {
	hc := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: 64}}
	client := dynamodb.New(dynamodb.Options{
		Region:       "us-east-1",
		BaseEndpoint: aws.String("http://" + addr),
		Credentials:  credentials.NewStaticCredentialsProvider("soak", "soak", ""),
		HTTPClient:   hc,
	})
	return &load{addr: addr, cfg: cfg, client: client, http: hc}
}

func (l *load) closeIdle() { l.http.CloseIdleConnections() }

// setup creates the table the unread-response clients scan: 3 MB of items.
func (l *load) setup() error {
	ctx := context.Background()
	if err := l.createTable(ctx, "soak-scan"); err != nil {
		return err
	}
	v := strings.Repeat("s", 30<<10)
	for i := range 100 {
		if _, err := l.client.PutItem(ctx, &dynamodb.PutItemInput{TableName: aws.String("soak-scan"), Item: map[string]types.AttributeValue{
			"pk": &types.AttributeValueMemberS{Value: fmt.Sprintf("p%03d", i)}, "v": &types.AttributeValueMemberS{Value: v},
		}}); err != nil {
			return err
		}
	}
	return nil
}

func (l *load) createTable(ctx context.Context, name string) error {
	_, err := l.client.CreateTable(ctx, &dynamodb.CreateTableInput{
		TableName:            aws.String(name),
		BillingMode:          types.BillingModePayPerRequest,
		AttributeDefinitions: []types.AttributeDefinition{{AttributeName: aws.String("pk"), AttributeType: types.ScalarAttributeTypeS}},
		KeySchema:            []types.KeySchemaElement{{AttributeName: aws.String("pk"), KeyType: types.KeyTypeHash}},
	})
	return err
}

// run starts every client and returns when ctx is done and all stopped.
func (l *load) run(ctx context.Context) {
	var wg sync.WaitGroup
	spawn := func(n int, f func(ctx context.Context, id int)) {
		for i := range n {
			wg.Add(1)
			go func() { defer wg.Done(); f(ctx, i) }()
		}
	}
	spawn(l.cfg.workers, l.worker)
	spawn(1, l.bulkWorker)
	spawn(silentConns, l.silentBody)
	spawn(unreadConns, l.unreadResponse)
	spawn(idleConns, l.idleConn)
	spawn(slowHeaderConns, l.slowHeaders)
	spawn(keyClients, l.manyKeys)
	spawn(badTextClients, l.badText)
	wg.Wait()
}

// check counts a well-behaved SDK call's outcome.
func (l *load) check(ctx context.Context, err error) {
	var ae smithy.APIError
	switch {
	case err == nil:
		l.count.ok.Add(1)
	case ctx.Err() != nil:
		// The run ended mid-request.
	case errors.As(err, &ae) && ae.ErrorCode() == "ThrottlingException":
		l.count.throttled.Add(1)
	default:
		var re interface{ HTTPStatusCode() int }
		if errors.As(err, &re) && re.HTTPStatusCode() >= 500 {
			l.count.serverErrors.Add(1)
		}
		l.count.fail(err)
	}
}

// worker: table life cycles with small items.
func (l *load) worker(ctx context.Context, id int) {
	for round := 0; ctx.Err() == nil; round++ {
		name := fmt.Sprintf("soak-w%d-%d", id, round)
		l.check(ctx, l.createTable(ctx, name))
		for i := range 50 {
			k := map[string]types.AttributeValue{"pk": &types.AttributeValueMemberS{Value: "k" + strconv.Itoa(i)}}
			_, err := l.client.PutItem(ctx, &dynamodb.PutItemInput{TableName: aws.String(name), Item: map[string]types.AttributeValue{
				"pk": k["pk"], "n": &types.AttributeValueMemberN{Value: strconv.Itoa(i)}, "s": &types.AttributeValueMemberS{Value: strings.Repeat("x", 500)},
			}})
			l.check(ctx, err)
			_, err = l.client.UpdateItem(ctx, &dynamodb.UpdateItemInput{TableName: aws.String(name), Key: k,
				UpdateExpression:          aws.String("ADD n :one"),
				ExpressionAttributeValues: map[string]types.AttributeValue{":one": &types.AttributeValueMemberN{Value: "1"}}})
			l.check(ctx, err)
			_, err = l.client.GetItem(ctx, &dynamodb.GetItemInput{TableName: aws.String(name), Key: k})
			l.check(ctx, err)
		}
		_, err := l.client.Query(ctx, &dynamodb.QueryInput{TableName: aws.String(name), KeyConditionExpression: aws.String("pk = :p"),
			ExpressionAttributeValues: map[string]types.AttributeValue{":p": &types.AttributeValueMemberS{Value: "k1"}}})
		l.check(ctx, err)
		_, err = l.client.Scan(ctx, &dynamodb.ScanInput{TableName: aws.String(name)})
		l.check(ctx, err)
		_, err = l.client.DeleteTable(context.Background(), &dynamodb.DeleteTableInput{TableName: aws.String(name)})
		l.check(context.Background(), err)
	}
}

// bulkWorker: tables of 35 MB, deleted again (the server returns the
// memory to the OS).
func (l *load) bulkWorker(ctx context.Context, _ int) {
	v := strings.Repeat("b", 350<<10)
	for round := 0; ctx.Err() == nil; round++ {
		name := fmt.Sprintf("soak-bulk-%d", round)
		l.check(ctx, l.createTable(ctx, name))
		for i := 0; i < 100 && ctx.Err() == nil; i++ {
			_, err := l.client.PutItem(ctx, &dynamodb.PutItemInput{TableName: aws.String(name), Item: map[string]types.AttributeValue{
				"pk": &types.AttributeValueMemberS{Value: "b" + strconv.Itoa(i)}, "v": &types.AttributeValueMemberS{Value: v},
			}})
			l.check(ctx, err)
		}
		_, err := l.client.DeleteTable(context.Background(), &dynamodb.DeleteTableInput{TableName: aws.String(name)})
		l.check(context.Background(), err)
		sleep(ctx, 5*time.Second)
	}
}

func sleep(ctx context.Context, d time.Duration) {
	select {
	case <-ctx.Done():
	case <-time.After(d):
	}
}

// dial opens a raw connection closed when ctx ends.
func (l *load) dial(ctx context.Context) (net.Conn, func(), bool) {
	c, err := net.Dial("tcp", l.addr)
	if err != nil {
		sleep(ctx, 100*time.Millisecond)
		return nil, nil, false
	}
	stop := context.AfterFunc(ctx, func() { _ = c.Close() })
	return c, func() { stop(); _ = c.Close() }, true
}

func rawHead(op, accessKey string, contentLength int) string {
	// Host localhost: the server refuses names a web page could rebind (emulator/hosts.go).
	return "POST / HTTP/1.1\r\nHost: localhost\r\nX-Amz-Target: DynamoDB_20120810." + op +
		"\r\nContent-Type: application/x-amz-json-1.0\r\nAuthorization: AWS4-HMAC-SHA256 Credential=" + accessKey +
		"/20260101/us-east-1/dynamodb/aws4_request, SignedHeaders=host, Signature=x\r\nContent-Length: " +
		strconv.Itoa(contentLength) + "\r\n\r\n"
}

// waitClosed reads (and drops) until the server closes c.
func (l *load) waitClosed(c net.Conn) {
	if _, err := io.Copy(io.Discard, c); err == nil || !errors.Is(err, net.ErrClosed) {
		l.count.cutOff.Add(1)
	}
}

// silentBody announces a 16 MB body, sends a few bytes and stops.
func (l *load) silentBody(ctx context.Context, _ int) {
	for ctx.Err() == nil {
		c, done, ok := l.dial(ctx)
		if !ok {
			continue
		}
		_, _ = io.WriteString(c, rawHead("PutItem", "soak", 16<<20)+`{"TableName":"soak-scan","Item":{`)
		l.waitClosed(c)
		done()
	}
}

// unreadResponse asks for a 1 MB Scan page and never reads it.
func (l *load) unreadResponse(ctx context.Context, _ int) {
	body := `{"TableName":"soak-scan"}`
	for ctx.Err() == nil {
		c, done, ok := l.dial(ctx)
		if !ok {
			continue
		}
		for i := 0; i < 8; i++ { // pipelined: more than the socket buffers hold
			_, _ = io.WriteString(c, rawHead("Scan", "soak", len(body))+body)
		}
		sleep(ctx, soakServerOptions.WriteTimeout+2*time.Second)
		l.waitClosed(c)
		done()
	}
}

// idleConn sends one request on a keep-alive connection and then idles
// until the server closes it.
func (l *load) idleConn(ctx context.Context, _ int) {
	for ctx.Err() == nil {
		c, done, ok := l.dial(ctx)
		if !ok {
			continue
		}
		_, _ = io.WriteString(c, rawHead("ListTables", "soak", 2)+"{}")
		br := bufio.NewReader(c)
		if res, err := http.ReadResponse(br, nil); err == nil {
			l.checkStatus(res, http.StatusOK)
		}
		l.waitClosed(c)
		done()
	}
}

// slowHeaders sends its headers one byte a second.
func (l *load) slowHeaders(ctx context.Context, _ int) {
	head := rawHead("ListTables", "soak", 2)
	for ctx.Err() == nil {
		c, done, ok := l.dial(ctx)
		if !ok {
			continue
		}
		for i := 0; i < len(head) && ctx.Err() == nil; i++ {
			if _, err := c.Write([]byte{head[i]}); err != nil {
				l.count.cutOff.Add(1)
				break
			}
			sleep(ctx, time.Second)
		}
		done()
	}
}

// manyKeys reads under ever new access keys: valid ones (no namespace may
// stay behind), invalid ones and megabyte-long ones.
func (l *load) manyKeys(ctx context.Context, id int) {
	c, done, ok := l.dial(ctx)
	if !ok {
		return
	}
	defer func() { done() }()
	br := bufio.NewReader(c)
	huge := strings.Repeat("K", 1<<20)
	for i := 0; ctx.Err() == nil; i++ {
		var key string
		want := http.StatusOK
		switch i % 10 {
		case 8:
			key, want = fmt.Sprintf("bad-%d", i), http.StatusBadRequest
		case 9:
			key, want = huge, http.StatusRequestHeaderFieldsTooLarge
		default:
			key = fmt.Sprintf("K%d%0120d", id, i)
		}
		if _, err := io.WriteString(c, rawHead("ListTables", key, 2)+"{}"); err != nil {
			return
		}
		res, err := http.ReadResponse(br, nil)
		if err != nil {
			return
		}
		l.checkStatus(res, want)
		if want == http.StatusRequestHeaderFieldsTooLarge {
			// net/http closes the connection after a 431.
			done()
			if c, done, ok = l.dial(ctx); !ok {
				return
			}
			br = bufio.NewReader(c)
		}
	}
}

// badText writes keys that are not UTF-8: each must be refused.
func (l *load) badText(ctx context.Context, id int) {
	c, done, ok := l.dial(ctx)
	if !ok {
		return
	}
	defer func() { done() }()
	br := bufio.NewReader(c)
	for i := 0; ctx.Err() == nil; i++ {
		body := fmt.Sprintf("{\"TableName\":\"soak-scan\",\"Item\":{\"pk\":{\"S\":\"k%d-%d\xff\"}}}", id, i)
		if _, err := io.WriteString(c, rawHead("PutItem", "soak", len(body))+body); err != nil {
			return
		}
		res, err := http.ReadResponse(br, nil)
		if err != nil {
			return
		}
		l.checkStatus(res, http.StatusBadRequest)
	}
}

// checkStatus reads a raw response and counts it.
func (l *load) checkStatus(res *http.Response, want int) {
	_, _ = io.Copy(io.Discard, res.Body)
	_ = res.Body.Close()
	switch {
	case res.StatusCode >= 500:
		l.count.serverErrors.Add(1)
		l.count.fail(fmt.Errorf("%w: status %d", errUnexpected, res.StatusCode))
	case res.StatusCode == want && want != http.StatusOK:
		l.count.refused.Add(1)
	case res.StatusCode == want:
		l.count.ok.Add(1)
	default:
		l.count.fail(fmt.Errorf("%w: status %d, want %d", errUnexpected, res.StatusCode, want))
	}
}
