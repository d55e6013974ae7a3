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

// TestTricklingUploadsDoNotHoldOthers: 16 and 64 connections of one
// client that each announce a 16 MiB BatchWriteItem, send its first 64
// KiB and then trickle 20 KB/s (above the floor, so never cut) hold at
// most their client's share of the default budget, and from another
// client a 300 KB PutItem and a 1 MB BatchWriteItem (the SDK, without
// retries: a throttle would fail) are answered 200 while every one of
// them is still uploading. Beside them an honest client sends a
// BatchWriteItem at 20 KB/s to the end and is answered 200 (256 KB; 1 MB
// with DYNAMOEMU_HEAVY_TESTS). Before each client had a share, the
// trickling uploads held the whole budget and the large requests waited
// BudgetWait and were throttled.
func TestTricklingUploadsDoNotHoldOthers(t *testing.T) {
	honestBytes := 256 << 10
	if os.Getenv("DYNAMOEMU_HEAVY_TESTS") != "" {
		honestBytes = 1 << 20
	}
	for _, n := range []int{16, 64} {
		t.Run(fmt.Sprint(n), func(t *testing.T) {
			h, db := heldServer(t, false)
			h.e.serve.Budget.SetPace(apiserve.DefaultPace) // the server's floor, grace and window
			b := &h.e.serve.Budget
			trickler := testkit.Auth("AKIDTRICKLE", sigRegion)

			// The honest slow client, from the start.
			honest := make(chan string, 1)
			go func() { honest <- slowBatchWrite(t, h, honestBytes) }()

			stop := make(chan struct{})
			var wg sync.WaitGroup
			var failed atomic.Int64
			head := rawRequest("BatchWriteItem", trickler, heldBody, "")
			conns := make([]net.Conn, n)
			for i := range conns {
				c := h.dial(t)
				conns[i] = c
				wg.Add(1)
				go func() {
					defer wg.Done()
					trickle(c, head, 64<<10, stop, &failed)
				}()
			}
			t.Cleanup(func() { close(stop); wg.Wait() })
			// At least three of them are charged their whole 16 MiB (the
			// rest of the share goes to first charges, or four whole).
			waitHolding(t, b, "AKIDTRICKLE", 3*heldBody)
			require.LessOrEqual(t, b.Holding("AKIDTRICKLE"), b.Share(), "one client holds at most its share")

			ctx, cancel := context.WithTimeout(context.Background(), testkit.Scaled(time.Minute))
			defer cancel()
			_, err := db.PutItem(ctx, &dynamodb.PutItemInput{TableName: aws.String("held"), Item: map[string]types.AttributeValue{
				"pk": &types.AttributeValueMemberS{Value: "large"}, "v": &types.AttributeValueMemberS{Value: strings.Repeat("x", 300_000)},
			}})
			require.NoError(t, err, "a 300 KB PutItem from another client")
			writes := make([]types.WriteRequest, 25)
			for i := range writes {
				writes[i] = types.WriteRequest{PutRequest: &types.PutRequest{Item: map[string]types.AttributeValue{
					"pk": &types.AttributeValueMemberS{Value: fmt.Sprint("batch", i)}, "v": &types.AttributeValueMemberS{Value: strings.Repeat("y", 40_000)},
				}}}
			}
			out, err := db.BatchWriteItem(ctx, &dynamodb.BatchWriteItemInput{RequestItems: map[string][]types.WriteRequest{"held": writes}})
			require.NoError(t, err, "a 1 MB BatchWriteItem from another client")
			require.Empty(t, out.UnprocessedItems)

			// The order: both were answered while the trickling uploads
			// were all still sending, none cut, and still holding.
			require.Zero(t, failed.Load(), "no trickling upload failed before the large requests were answered")
			require.GreaterOrEqual(t, b.Holding("AKIDTRICKLE"), int64(3*heldBody), "the trickling uploads still hold their share")
			for i, c := range conns {
				require.True(t, unanswered(t, c), "trickling upload %d was answered before the large requests", i)
			}

			select {
			case got := <-honest:
				require.Equal(t, "200", got, "the honest slow client's BatchWriteItem")
			case <-time.After(testkit.Scaled(5 * time.Minute)):
				t.Fatal("the honest slow upload hangs")
			}
		})
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
