package emulator

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/stretchr/testify/require"

	"github.com/dynamoemu/dynamoemu/emulator/internal/apiserve"
	"github.com/dynamoemu/dynamoemu/emulator/internal/testkit"
)

// trickleRate is what the trickling uploads and the honest slow client
// send: 20 KB a second, just above the floor (apiserve.FloorRate, 16 KiB
// a second).
const trickleRate = 20_000

// trickle sends head and proof on c, then body bytes at trickleRate in
// writes of a tenth of a second, until stop is closed or a write fails
// (counted in failed).
func trickle(c net.Conn, head string, proof int, stop <-chan struct{}, failed *atomic.Int64) {
	if _, err := io.WriteString(c, head+"{"+strings.Repeat(" ", proof-1)); err != nil {
		failed.Add(1)
		return
	}
	chunk := []byte(strings.Repeat(" ", trickleRate/10))
	tick := time.NewTicker(100 * time.Millisecond)
	defer tick.Stop()
	for {
		select {
		case <-stop:
			return
		case <-tick.C:
			if _, err := c.Write(chunk); err != nil {
				failed.Add(1)
				return
			}
		}
	}
}

// TestTricklingUploadsDoNotHoldOthers: 16 connections (and 64 with
// DYNAMOEMU_HEAVY_TESTS) that each announce a 16 MiB BatchWriteItem,
// send its first 64 KiB and then trickle 20 KB/s (above the floor, so
// never cut), on one access key (the honest client's own: the usual
// dummy key, shared), on four, on one key each, or unsigned, hold
// about what they sent, and the slow bodies among them at most the
// slow bodies' share: from the honest client a 300 KB PutItem and a 1
// MB BatchWriteItem (the SDK, without retries: a throttle would fail)
// are answered 200 while every one of them is still uploading. The key
// a body signs with does not matter without Credentials (any client can
// write any). Before, 16 of them on four keys held the whole budget and
// the large requests waited BudgetWait and were throttled; with one key
// each, the PutItem waited 34.7 s. With DYNAMOEMU_HEAVY_TESTS an honest
// client also sends a 256 KB BatchWriteItem at 20 KB/s to the end
// beside them, answered 200.
func TestTricklingUploadsDoNotHoldOthers(t *testing.T) {
	counts := []int{16}
	heavy := os.Getenv("DYNAMOEMU_HEAVY_TESTS") != ""
	if heavy {
		counts = append(counts, 64)
	}
	keys := map[string]func(i int) string{
		"one key":    func(int) string { return testkit.Auth("AKIDHELD", sigRegion) },
		"four keys":  func(i int) string { return testkit.Auth(fmt.Sprint("AKIDFOUR", i%4), sigRegion) },
		"a key each": func(i int) string { return testkit.Auth(fmt.Sprint("AKIDEACH", i), sigRegion) },
		"unsigned":   func(int) string { return "" },
	}
	for _, n := range counts {
		for name, keyOf := range keys {
			t.Run(fmt.Sprint(n, "/", name), func(t *testing.T) {
				trickleBeside(t, n, keyOf, heavy && name == "one key")
			})
		}
	}
}

// trickleBeside runs TestTricklingUploadsDoNotHoldOthers' n uploads,
// upload i signed with keyOf(i), beside the honest client's large
// requests (and its slow one when slow).
func trickleBeside(t *testing.T, n int, keyOf func(i int) string, slow bool) {
	h, db := heldServer(t, false)
	h.e.serve.Budget.SetPace(apiserve.DefaultPace) // the server's floor, grace and window
	b := &h.e.serve.Budget
	list0, put0 := smallCalls(t, db)

	honest := make(chan string, 1)
	if slow {
		go func() { honest <- slowBatchWrite(t, h, 256<<10) }()
	}
	stop := make(chan struct{})
	var wg sync.WaitGroup
	var failed atomic.Int64
	conns := make([]net.Conn, n)
	for i := range conns {
		c := h.dial(t)
		conns[i] = c
		head := rawRequest("BatchWriteItem", keyOf(i), heldBody, "")
		wg.Add(1)
		go func() {
			defer wg.Done()
			trickle(c, head, 64<<10, stop, &failed)
		}()
	}
	t.Cleanup(func() { close(stop); wg.Wait() })
	if keyOf(0) != "" { // an unsigned upload is refused before its body
		h.waitReading(t, int64(n))
	}

	list, put1 := smallCalls(t, db)
	t.Logf("small calls: ListTables %v and PutItem %v without the uploads, %v and %v beside them", list0, put0, list, put1)
	ctx, cancel := context.WithTimeout(context.Background(), testkit.Scaled(time.Minute))
	defer cancel()
	start := time.Now()
	_, err := db.PutItem(ctx, &dynamodb.PutItemInput{TableName: aws.String("held"), Item: map[string]types.AttributeValue{
		"pk": &types.AttributeValueMemberS{Value: "large"}, "v": &types.AttributeValueMemberS{Value: strings.Repeat("x", 300_000)},
	}})
	require.NoError(t, err, "a 300 KB PutItem from the honest client")
	put := time.Since(start)
	writes := make([]types.WriteRequest, 25)
	for i := range writes {
		writes[i] = types.WriteRequest{PutRequest: &types.PutRequest{Item: map[string]types.AttributeValue{
			"pk": &types.AttributeValueMemberS{Value: fmt.Sprint("batch", i)}, "v": &types.AttributeValueMemberS{Value: strings.Repeat("y", 40_000)},
		}}}
	}
	start = time.Now()
	out, err := db.BatchWriteItem(ctx, &dynamodb.BatchWriteItemInput{RequestItems: map[string][]types.WriteRequest{"held": writes}})
	require.NoError(t, err, "a 1 MB BatchWriteItem from the honest client")
	require.Empty(t, out.UnprocessedItems)
	t.Logf("%d trickling uploads: the 300 KB PutItem answered in %v, the 1 MB BatchWriteItem in %v; the budget holds %d bytes, the slow bodies %d",
		n, put, time.Since(start), func() int64 { u, _ := b.Reserved(); return u }(), b.SlowHeld())

	// The order: both were answered while the trickling uploads were all
	// still sending, none cut.
	if keyOf(0) != "" {
		require.Zero(t, failed.Load(), "no trickling upload failed before the large requests were answered")
		for i, c := range conns {
			require.True(t, unanswered(t, c), "trickling upload %d was answered before the large requests", i)
		}
	}
	require.LessOrEqual(t, b.SlowHeld(), b.SlowShare(), "the slow bodies hold at most their share")
	if slow {
		select {
		case got := <-honest:
			require.Equal(t, "200", got, "the honest slow client's BatchWriteItem")
		case <-time.After(testkit.Scaled(5 * time.Minute)):
			t.Fatal("the honest slow upload hangs")
		}
	}
}

// slowBatchWrite sends a BatchWriteItem of about size bytes (25 items)
// from its own client on a connection of its own at trickleRate, and
// returns the answer's status and, unless 200, its body.
func slowBatchWrite(t *testing.T, h *hardServer, size int) string {
	var b strings.Builder
	b.WriteString(`{"RequestItems":{"held":[`)
	for i := range 25 {
		if i > 0 {
			b.WriteByte(',')
		}
		fmt.Fprintf(&b, `{"PutRequest":{"Item":{"pk":{"S":"honest%d"},"v":{"S":"%s"}}}}`, i, strings.Repeat("h", size/25-60))
	}
	b.WriteString(`]}}`)
	body := b.String()
	c, err := net.Dial("tcp", h.addr)
	if err != nil {
		return err.Error()
	}
	defer c.Close()
	if _, err := io.WriteString(c, rawRequest("BatchWriteItem", testkit.Auth("AKIDHELD", sigRegion), len(body), "")); err != nil {
		return err.Error()
	}
	step := trickleRate / 10
	for i := 0; i < len(body); i += step {
		if _, err := io.WriteString(c, body[i:min(i+step, len(body))]); err != nil {
			return err.Error()
		}
		time.Sleep(100 * time.Millisecond) // the client's pace, not a measure
	}
	res, err := http.ReadResponse(bufio.NewReader(c), nil)
	if err != nil {
		return err.Error()
	}
	defer res.Body.Close()
	out, _ := io.ReadAll(res.Body)
	if res.StatusCode != http.StatusOK {
		return fmt.Sprint(res.StatusCode, " ", string(out))
	}
	return "200"
}

// unanswered reports whether nothing has arrived on c: a read with a
// deadline already passed times out.
func unanswered(t *testing.T, c net.Conn) bool {
	t.Helper()
	require.NoError(t, c.SetReadDeadline(time.Now()))
	defer func() { _ = c.SetReadDeadline(time.Time{}) }()
	n, err := c.Read(make([]byte, 1))
	var ne net.Error
	return n == 0 && err != nil && errors.As(err, &ne) && ne.Timeout()
}

// TestStoppedUploadsDoNotHoldOthers: 16 connections (64 with
// DYNAMOEMU_HEAVY_TESTS) that each announce a 16 MiB BatchWriteItem,
// send an eighth of it at once (which charges them its size) and then
// nothing, on one access key each, take the budget only until they are
// judged slow while their reads wait (once a read has waited a quarter
// second of its client's time with no byte): the slow bodies keep at
// most their share and the others are cut, so the honest client's 300
// KB PutItem and 1 MB BatchWriteItem (the SDK, without retries), sent
// once the uploads hold half the budget, are answered 200, where before
// they waited for the floor to cut the stopped uploads.
func TestStoppedUploadsDoNotHoldOthers(t *testing.T) {
	n := 16
	if os.Getenv("DYNAMOEMU_HEAVY_TESTS") != "" {
		n = 64
	}
	h, db := heldServer(t, false)
	h.e.serve.Budget.SetPace(apiserve.DefaultPace)
	b := &h.e.serve.Budget
	var sent sync.WaitGroup
	for i := range n {
		c := h.dial(t)
		head := rawRequest("BatchWriteItem", testkit.Auth(fmt.Sprint("AKIDSTOP", i), sigRegion), heldBody, "")
		sent.Go(func() { _, _ = io.WriteString(c, head+"{"+strings.Repeat(" ", heldBody/8)) })
	}
	allSent := make(chan struct{}) // each sent its eighth (or was cut as it was judged)
	go func() { sent.Wait(); close(allSent) }()
	defer func() { <-allSent }()
	// The honest client calls once the stopped uploads hold half the
	// budget (or have all sent): most of them still to be read or cut.
wait:
	for used, _ := b.Reserved(); used < b.Max/2; used, _ = b.Reserved() {
		select {
		case <-allSent:
			break wait
		case <-time.After(time.Millisecond): // polling
		}
	}
	reading := h.e.serve.Limit.Reading.Load()
	ctx, cancel := context.WithTimeout(context.Background(), testkit.Scaled(time.Minute))
	defer cancel()
	start := time.Now()
	_, err := db.PutItem(ctx, &dynamodb.PutItemInput{TableName: aws.String("held"), Item: map[string]types.AttributeValue{
		"pk": &types.AttributeValueMemberS{Value: "large"}, "v": &types.AttributeValueMemberS{Value: strings.Repeat("x", 300_000)},
	}})
	require.NoError(t, err, "a 300 KB PutItem from the honest client")
	put := time.Since(start)
	writes := make([]types.WriteRequest, 25)
	for i := range writes {
		writes[i] = types.WriteRequest{PutRequest: &types.PutRequest{Item: map[string]types.AttributeValue{
			"pk": &types.AttributeValueMemberS{Value: fmt.Sprint("batch", i)}, "v": &types.AttributeValueMemberS{Value: strings.Repeat("y", 40_000)},
		}}}
	}
	start = time.Now()
	_, err = db.BatchWriteItem(ctx, &dynamodb.BatchWriteItemInput{RequestItems: map[string][]types.WriteRequest{"held": writes}})
	require.NoError(t, err, "a 1 MB BatchWriteItem from the honest client")
	t.Logf("%d stopped uploads (%d being read as the budget filled): the 300 KB PutItem answered in %v, the 1 MB BatchWriteItem in %v; the budget's peak %d, the slow bodies hold %d",
		n, reading, put, time.Since(start), b.Peak.Load(), b.SlowHeld())
	require.LessOrEqual(t, b.SlowHeld(), b.SlowShare(), "the slow bodies hold their share")
}
