package emulator

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	v4 "github.com/aws/aws-sdk-go-v2/aws/signer/v4"
	"github.com/aws/aws-sdk-go-v2/credentials"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/stretchr/testify/require"

	"github.com/dynamoemu/dynamoemu/emulator/internal/apiserve"
	"github.com/dynamoemu/dynamoemu/emulator/internal/testkit"
)

// The budget of request bytes against clients that announce large bodies
// and do not send them: idle ones hold a little of it, ones that send
// their first bytes and stop about what they sent, until they fall below
// the floor rate; small and large requests are served beside both.

// heldBody is what a held upload announces: the largest body.
const heldBody = defaultMaxBodyBytes

// serverBudget is cmd/dynamoemu's budget of request bytes in flight
// on a machine without a memory limit (-maxRequestBytesInFlight).
const serverBudget = 256 << 20

// TestIdleUploadsHoldNoBudget: 16, 64 and 256 connections that announce
// a 16 MiB BatchWriteItem and send a byte, unsigned (the connection
// loop's path) and signed (net/http's, with Credentials), against the
// default budget: each holds the first charge of a body (64 KiB), not
// 16 MiB, and the SDK's ListTables and PutItem are answered beside them
// (their times are logged; the bound only catches a hang, and before
// the budget charged what arrived they waited 10 s and were throttled).
// Once the uploads fall below the floor (its grace shortened here) each
// is answered 408 RequestTimeoutException, the log names it, and the
// budget is whole again.
func TestIdleUploadsHoldNoBudget(t *testing.T) {
	for _, signed := range []bool{false, true} {
		for _, n := range []int{16, 64, 256} {
			t.Run(fmt.Sprintf("%s/%d", pathName(signed), n), func(t *testing.T) {
				h, db := heldServer(t, signed)
				held := holdUploads(t, h, signed, n, 1)
				h.waitReading(t, int64(n))
				used, _ := h.e.serve.Budget.Reserved()
				require.Equal(t, int64(n)*64<<10, used, "an idle upload holds its first charge")

				list, put := smallCalls(t, db)
				t.Logf("%d idle uploads of %d bytes: ListTables answered in %v, PutItem in %v", n, heldBody, list, put)
				require.Equal(t, int64(n), h.e.serve.Limit.Reading.Load(), "the uploads were held meanwhile")

				for _, c := range held {
					requireCut(t, c, 1)
				}
				waitReserved(t, h.e, 0)
				line := h.logs.await(t, "request body cut off", "received=1 ", "announced=16777216", "slower than")
				require.Contains(t, line, "remote=127.0.0.1:")
			})
		}
	}
}

// TestProvenUploadsReleasedAtTheFloor: 16 uploads of one client that
// send their first 64 KiB and stop hold about what they sent (before,
// their announced 16 MiB each, up to their client's share): the SDK's
// ListTables and PutItem are answered, and so is a large PutItem (a 300
// KB item) from the same client, unsigned and signed (the test's one
// key, with Credentials), while they are all still open; once they fall
// below the floor each is answered 408 and the budget is whole again.
func TestProvenUploadsReleasedAtTheFloor(t *testing.T) {
	for _, signed := range []bool{false, true} {
		t.Run(pathName(signed), func(t *testing.T) {
			h, db := heldServer(t, signed)
			const proof = 64<<10 + 10
			held := holdUploads(t, h, signed, 16, proof)
			h.waitReading(t, 16)
			used, _ := h.e.serve.Budget.Reserved()
			require.LessOrEqual(t, used, int64(16*(2*proof+32<<10+256<<10))+h.e.serve.Budget.AheadShare(), "the uploads hold about what they sent (and what the first were charged ahead)")

			list, put := smallCalls(t, db)
			t.Logf("16 uploads that sent 64 KiB and stopped: ListTables answered in %v, PutItem in %v", list, put)
			ctx, cancel := context.WithTimeout(context.Background(), testkit.Scaled(time.Minute))
			defer cancel()
			start := time.Now()
			_, err := db.PutItem(ctx, &dynamodb.PutItemInput{TableName: aws.String("held"), Item: map[string]types.AttributeValue{
				"pk": &types.AttributeValueMemberS{Value: "large"}, "v": &types.AttributeValueMemberS{Value: strings.Repeat("x", 300<<10)},
			}})
			require.NoError(t, err)
			t.Logf("the large PutItem answered in %v", time.Since(start))
			for i, c := range held {
				require.True(t, unanswered(t, c), "upload %d was answered before the large PutItem", i)
			}
			for _, c := range held {
				requireCut(t, c, proof)
			}
			waitReserved(t, h.e, 0)
		})
	}
}

func pathName(signed bool) string {
	if signed {
		return "signed"
	}
	return "unsigned"
}

// heldServer is a server with the default budget, its floor's grace
// shortened (a bound wide enough for the calls made beside the held
// uploads), a table "held", and an SDK client that does not retry (a
// throttle would show).
func heldServer(t *testing.T, signed bool) (*hardServer, *dynamodb.Client) {
	t.Helper()
	opts := Options{MaxRequestBytesInFlight: serverBudget}
	key, secret := "AKIDHELD", "secret"
	if signed {
		opts.Credentials = sigOptions().Credentials
		key, secret = sigKey, sigSecret
	}
	h := newHardServer(t, opts, ServerOptions{})
	h.e.serve.Budget.SetPace(apiserve.Pace{Floor: 64 << 10, Grace: testkit.Scaled(2 * time.Second)})
	db := dynamodb.New(dynamodb.Options{Region: sigRegion, BaseEndpoint: aws.String("http://" + h.addr),
		Credentials: credentials.NewStaticCredentialsProvider(key, secret, ""), Retryer: aws.NopRetryer{}})
	_, err := db.CreateTable(context.Background(), &dynamodb.CreateTableInput{TableName: aws.String("held"), BillingMode: types.BillingModePayPerRequest,
		AttributeDefinitions: []types.AttributeDefinition{{AttributeName: aws.String("pk"), AttributeType: types.ScalarAttributeTypeS}},
		KeySchema:            []types.KeySchemaElement{{AttributeName: aws.String("pk"), KeyType: types.KeyTypeHash}}})
	require.NoError(t, err)
	return h, db
}

// smallCalls makes the SDK's ListTables and PutItem and returns how long
// each took; a hang fails the test.
func smallCalls(t *testing.T, db *dynamodb.Client) (list, put time.Duration) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), testkit.Scaled(time.Minute))
	defer cancel()
	start := time.Now()
	out, err := db.ListTables(ctx, &dynamodb.ListTablesInput{})
	require.NoError(t, err)
	require.Equal(t, []string{"held"}, out.TableNames)
	list = time.Since(start)
	start = time.Now()
	_, err = db.PutItem(ctx, &dynamodb.PutItemInput{TableName: aws.String("held"), Item: map[string]types.AttributeValue{"pk": &types.AttributeValueMemberS{Value: "a"}}})
	require.NoError(t, err)
	return list, time.Since(start)
}

// holdUploads opens n connections that each send the head of a
// BatchWriteItem announcing heldBody bytes (signed with the test key when
// signed) and its first sent bytes, and nothing more.
func holdUploads(t *testing.T, h *hardServer, signed bool, n, sent int) []net.Conn {
	t.Helper()
	head := rawRequest("BatchWriteItem", testkit.DefaultAuth, heldBody, "")
	if signed {
		req, err := http.NewRequest(http.MethodPost, "http://"+h.addr+"/", nil)
		require.NoError(t, err)
		req.Header.Set("Content-Type", "application/x-amz-json-1.0")
		req.Header.Set("X-Amz-Target", "DynamoDB_20120810.BatchWriteItem")
		req.ContentLength = heldBody
		require.NoError(t, v4.NewSigner().SignHTTP(context.Background(), aws.Credentials{AccessKeyID: sigKey, SecretAccessKey: sigSecret},
			req, strings.Repeat("0", 64), "dynamodb", sigRegion, time.Now()))
		var b strings.Builder
		b.WriteString("POST / HTTP/1.1\r\nHost: " + h.addr + "\r\nContent-Length: " + strconv.Itoa(heldBody) + "\r\n")
		for k, v := range req.Header {
			b.WriteString(k + ": " + v[0] + "\r\n")
		}
		head = b.String() + "\r\n"
	}
	body := "{" + strings.Repeat(" ", sent-1)
	conns := make([]net.Conn, n)
	for i := range conns {
		conns[i] = h.dial(t)
		_, err := io.WriteString(conns[i], head+body)
		require.NoError(t, err)
	}
	return conns
}

// requireCut reads the answer to a held upload that sent bytes: 408
// RequestTimeoutException, saying so, with the connection closed.
func requireCut(t *testing.T, c net.Conn, sent ...int) {
	t.Helper()
	require.NoError(t, c.SetReadDeadline(time.Now().Add(testkit.Scaled(time.Minute))))
	res, err := http.ReadResponse(bufio.NewReader(c), nil)
	require.NoError(t, err)
	body, err := io.ReadAll(res.Body)
	require.NoError(t, err)
	require.Equal(t, http.StatusRequestTimeout, res.StatusCode, string(body))
	require.True(t, res.Close)
	typ, msg := testkit.ErrorOf(string(body))
	require.Equal(t, "RequestTimeoutException", typ)
	said := false
	for _, n := range sent {
		said = said || strings.Contains(msg, fmt.Sprintf("%d of its %d bytes were received", n, heldBody))
	}
	require.True(t, said, "%s: says one of %v bytes were received", msg, sent)
}
