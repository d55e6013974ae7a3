package emulator

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	v4 "github.com/aws/aws-sdk-go-v2/aws/signer/v4"
	"github.com/stretchr/testify/require"
)

// listCutBody is a TransactWriteItems of n puts (past service.MinCutBytes
// for n of a few thousand), its list cut as it arrives.
func listCutBody(n int) []byte {
	var b strings.Builder
	b.WriteString(`{"TransactItems":[`)
	for i := range n {
		if i > 0 {
			b.WriteString(",")
		}
		fmt.Fprintf(&b, `{"Put":{"TableName":"tab","Item":{"pk":{"S":"k%07d"},"v":{"S":"%s"}}}}`, i, strings.Repeat("x", 60))
	}
	b.WriteString(`],"ReturnConsumedCapacity":"TOTAL"}`)
	return []byte(b.String())
}

// onlyReader hides a reader's type: the client sends its bytes chunked,
// with no Content-Length.
type onlyReader struct{ io.Reader }

// TestListCutAtTheEdge: a transaction far over its limit is answered the
// same whether its list is cut as the body arrives (announced or
// chunked) or the body is read whole (compressed: decompressed first,
// then prescanned), over the server's two loops; with Credentials, the
// signature covers the bytes cut too (one changed among them is refused
// as the signature's, the hash of the bytes sent in its message), and a body over the size limit is still refused
// by its size.
func TestListCutAtTheEdge(t *testing.T) {
	body := listCutBody(20_000)
	require.Greater(t, len(body), 1<<20)
	send := func(t *testing.T, base string, b io.Reader, edit func(*http.Request)) (int, string) {
		t.Helper()
		req, err := http.NewRequest(http.MethodPost, base+"/", b)
		require.NoError(t, err)
		req.Header.Set("Content-Type", "application/x-amz-json-1.0")
		req.Header.Set("X-Amz-Target", "DynamoDB_20120810.TransactWriteItems")
		req.Header.Set("Authorization", "AWS4-HMAC-SHA256 Credential=AKID/20261125/us-east-1/dynamodb/aws4_request, SignedHeaders=host, Signature=x")
		if edit != nil {
			edit(req)
		}
		res, err := http.DefaultClient.Do(req)
		require.NoError(t, err)
		defer res.Body.Close()
		out, err := io.ReadAll(res.Body)
		require.NoError(t, err)
		return res.StatusCode, string(out)
	}
	for _, loop := range []struct {
		name string
		so   ServerOptions
	}{{"own loop", ServerOptions{Loop: LoopOwn}}, {"net/http", ServerOptions{Loop: LoopStd}}} {
		t.Run(loop.name, func(t *testing.T) {
			e := newTestEmulator(t, Options{})
			_, addr := startServer(t, e, loop.so)
			base := "http://" + addr
			status, whole := send(t, base, bytes.NewReader(gzipped(t, body)), func(r *http.Request) { r.Header.Set("Content-Encoding", "gzip") })
			require.Equal(t, 400, status)
			require.Contains(t, whole, "Member must have length less than or equal to 100")
			status, announced := send(t, base, bytes.NewReader(body), nil)
			require.Equal(t, 400, status)
			require.Equal(t, whole, announced)
			status, chunked := send(t, base, onlyReader{bytes.NewReader(body)}, nil)
			require.Equal(t, 400, status)
			require.Equal(t, whole, chunked)
		})
	}
	t.Run("signed", func(t *testing.T) {
		e := newTestEmulator(t, sigOptions())
		e.keys.Now = func() time.Time { return sigNow }
		_, addr := startServer(t, e, ServerOptions{})
		base := "http://" + addr
		signed := func(signedBody, sent []byte) func(*http.Request) {
			return func(r *http.Request) {
				r.Header.Del("Authorization")
				sum := sha256.Sum256(signedBody)
				require.NoError(t, v4.NewSigner().SignHTTP(context.Background(), aws.Credentials{AccessKeyID: sigKey, SecretAccessKey: sigSecret},
					r, hex.EncodeToString(sum[:]), "dynamodb", sigRegion, sigNow))
			}
		}
		status, out := send(t, base, bytes.NewReader(body), signed(body, body))
		require.Equal(t, 400, status, out)
		require.Contains(t, out, "Member must have length less than or equal to 100")
		changed := bytes.Clone(body)
		at := bytes.LastIndex(changed, []byte("xxxx")) // in an action past the limit, cut
		changed[at] = 'y'
		status, out = send(t, base, bytes.NewReader(changed), signed(body, changed))
		require.Equal(t, 400, status, out)
		require.Contains(t, out, "InvalidSignatureException")
		sum := sha256.Sum256(changed) // the bytes sent, cut ones included
		require.Contains(t, out, hex.EncodeToString(sum[:]))
	})
	t.Run("over the size limit", func(t *testing.T) {
		e := newTestEmulator(t, Options{MaxBodyBytes: 1 << 20})
		_, addr := startServer(t, e, ServerOptions{})
		for _, b := range []io.Reader{bytes.NewReader(body), onlyReader{bytes.NewReader(body)}} {
			status, out := send(t, "http://"+addr, b, nil)
			require.Equal(t, 413, status, out)
			require.Contains(t, out, "RequestEntityTooLargeException")
		}
	})
}
