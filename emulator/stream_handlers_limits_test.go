package emulator

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"net"
	"net/http"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/stretchr/testify/require"

	"github.com/dynamoemu/dynamoemu/emulator/internal/lambdaesm"
	"github.com/dynamoemu/dynamoemu/internal/adminpath"
)

// hangBound bounds a wait that only catches a hang (the server's read
// timeout, set far longer in these tests), never a speed.
const hangBound = 60 * time.Second

// announcedOnly sends a request whose head announces a body of length
// bytes, then one byte of it, and returns the answer the server gives
// without the rest (the server's read timeout is far longer than the
// wait): status, X-Amzn-ErrorType, __type and the body.
func announcedOnly(t *testing.T, addr, method, path string, length int64, header string) (int, string, string) {
	t.Helper()
	c, err := net.Dial("tcp", addr)
	require.NoError(t, err)
	defer c.Close()
	require.NoError(t, c.SetDeadline(time.Now().Add(hangBound)))
	head := method + " " + path + " HTTP/1.1\r\nHost: " + addr + "\r\nContent-Type: application/json\r\n" + header +
		"Content-Length: " + strconv.FormatInt(length, 10) + "\r\n\r\n{"
	_, err = io.WriteString(c, head)
	require.NoError(t, err)
	res, err := http.ReadResponse(bufio.NewReader(c), nil)
	require.NoError(t, err, "no answer to a %d-byte body of which one byte came", length)
	defer res.Body.Close()
	b, err := io.ReadAll(res.Body)
	require.NoError(t, err)
	return res.StatusCode, res.Header.Get("X-Amzn-ErrorType"), string(b)
}

// TestLambdaAPIBodyLimit: a request of Lambda's mapping API with a body
// over MaxAPIBody (256 KB) is Lambda's answer to a request over its
// limit, 413 RequestEntityTooLargeException "Request must be smaller
// than 262144 bytes for the CreateEventSourceMapping operation" (the
// operation named), not a reset nor an InvalidParameterValueException:
// announced by Content-Length (300 KB, and 10 MB that the client goes on
// sending), of unknown length (chunked), unsigned, signed and with an
// admin token under Credentials; a body announced as 2 GB is answered at
// once, from its head, with one byte of it sent. An admin endpoint's
// body announced over its limit is answered at once too.
func TestLambdaAPIBodyLimit(t *testing.T) {
	big := func(n int) []byte {
		return []byte(`{"FunctionName":"fn","TableName":"orders","StartingPosition":"LATEST","Endpoint":"http://127.0.0.1:9","FilterCriteria":{"Filters":[{"Pattern":"` +
			strings.Repeat("x", n) + `"}]}}`)
	}
	const wantCreate = "Request must be smaller than 262144 bytes for the CreateEventSourceMapping operation"
	check := func(t *testing.T, name string, res *http.Response, want string) {
		t.Helper()
		defer res.Body.Close()
		b, err := io.ReadAll(res.Body)
		require.NoError(t, err)
		require.Equal(t, http.StatusRequestEntityTooLarge, res.StatusCode, "%s: %s", name, b)
		require.Equal(t, "RequestEntityTooLargeException", res.Header.Get("X-Amzn-ErrorType"), name)
		require.JSONEq(t, fmt.Sprintf(`{"Message":%q}`, want), string(b), name)
	}
	send := func(t *testing.T, method, url string, body []byte, chunked bool, sign func(*http.Request, []byte)) *http.Response {
		t.Helper()
		var r io.Reader = bytes.NewReader(body)
		if chunked {
			r = io.MultiReader(r) // no length known: sent chunked
		}
		req, err := http.NewRequest(method, url, r)
		require.NoError(t, err)
		req.Header.Set("Content-Type", "application/json")
		if sign != nil {
			sign(req, body)
		}
		res, err := http.DefaultClient.Do(req)
		require.NoError(t, err, "a reset, not an answer")
		return res
	}

	for _, creds := range []bool{false, true} {
		t.Run(fmt.Sprintf("credentials=%v", creds), func(t *testing.T) {
			opts := Options{}
			var signs map[string]func(*http.Request, []byte)
			if creds {
				opts = sigOptions()
				signs = map[string]func(*http.Request, []byte){
					"signed":      signFor(t, sigKey, sigSecret, "lambda", sigRegion),
					"admin token": func(r *http.Request, _ []byte) { r.Header.Set("Authorization", "Bearer token-0123456789abcdef") },
				}
			} else {
				signs = map[string]func(*http.Request, []byte){"any": nil}
			}
			e := newTestEmulator(t, opts)
			t.Cleanup(func() { e.Close() })
			_, addr := startServer(t, e, ServerOptions{ReadTimeout: 10 * time.Minute})
			base := "http://" + addr + "/2015-03-31/event-source-mappings/"
			made, err := e.Streams().CreateMapping(EventSourceMapping{TableName: aws.String("orders"), FunctionName: aws.String("fn"),
				StartingPosition: aws.String("LATEST")})
			require.NoError(t, err)

			for name, sign := range signs {
				check(t, name+", 300 KB", send(t, http.MethodPost, base, big(300<<10), false, sign), wantCreate)
				check(t, name+", 10 MB still being sent", send(t, http.MethodPost, base, big(10<<20), false, sign), wantCreate)
				check(t, name+", 300 KB chunked", send(t, http.MethodPost, base, big(300<<10), true, sign), wantCreate)
				check(t, name+", an update", send(t, http.MethodPut, base+made, big(300<<10), false, sign),
					"Request must be smaller than 262144 bytes for the UpdateEventSourceMapping operation")
				// Just under the limit is a request like any other.
				res := send(t, http.MethodPost, base, big(lambdaesm.MaxAPIBody-200), false, sign)
				b, _ := io.ReadAll(res.Body)
				res.Body.Close()
				require.Equal(t, http.StatusBadRequest, res.StatusCode, "%s: %s", name, b)
				require.Equal(t, "InvalidParameterValueException", res.Header.Get("X-Amzn-ErrorType"), "%s: the pattern is no JSON", name)
			}
			if creds {
				res := send(t, http.MethodPost, base, big(300<<10), true, nil)
				b, _ := io.ReadAll(res.Body)
				res.Body.Close()
				require.Equal(t, http.StatusForbidden, res.StatusCode, "unsigned, chunked: refused from its head: %s", b)
				require.Equal(t, "MissingAuthenticationTokenException", res.Header.Get("X-Amzn-ErrorType"))
			}

			status, typ, body := announcedOnly(t, addr, http.MethodPost, "/2015-03-31/event-source-mappings/", 2<<30, "")
			require.Equal(t, http.StatusRequestEntityTooLarge, status, body)
			require.Equal(t, "RequestEntityTooLargeException", typ)
			require.JSONEq(t, fmt.Sprintf(`{"Message":%q}`, wantCreate), body)

			// An admin endpoint: answered from the head too (signed: the
			// signature's check refuses it before reading; unsigned, the
			// endpoint's own limit).
			hdr := ""
			if creds {
				hdr = "Authorization: Bearer token-0123456789abcdef\r\n"
			}
			status, _, body = announcedOnly(t, addr, http.MethodPost, adminpath.Clock, 2<<30, hdr)
			require.Equal(t, http.StatusBadRequest, status, body)
			require.Contains(t, body, "body over 4096 bytes")
			if creds {
				hdr = "Authorization: AWS4-HMAC-SHA256 Credential=" + sigKey + "/20261127/us-east-1/dynamodb/aws4_request, SignedHeaders=host, Signature=00\r\n" +
					"X-Amz-Date: " + time.Now().UTC().Format("20060102T150405Z") + "\r\n"
				status, _, body = announcedOnly(t, addr, http.MethodPost, adminpath.Clock, 2<<30, strings.Replace(hdr, "20261127", time.Now().UTC().Format("20060102"), 1))
				require.Equal(t, http.StatusRequestEntityTooLarge, status, body)
				require.Contains(t, body, "RequestEntityTooLargeException")
			}
			require.Len(t, e.Streams().Mappings(), 1, "a refused request made a mapping")
		})
	}
}
