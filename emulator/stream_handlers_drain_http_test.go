package emulator_test

import (
	"fmt"
	"net"
	"net/http"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/dynamoemu/dynamoemu/emulator"
	"github.com/dynamoemu/dynamoemu/internal/adminpath"
)

// TestDrainOutlastsWriteTimeout: a drain over HTTP that waits longer
// than the server's write timeout (a handler that does not answer, a
// drain timeout four times the write timeout) is still answered, 504
// DrainTimeoutException naming the stuck mapping, as the data plane's
// slow requests are: the write timeout counts from the answer being
// ready.
func TestDrainOutlastsWriteTimeout(t *testing.T) {
	release := make(chan struct{})
	env := newHandlerEnv(t, func(int, invocation) reply { <-release; return reply{} })
	t.Cleanup(func() { close(release) }) // before the handler server closes: it waits for its handlers
	id := env.mapping(t, nil)
	env.put(t, "a", nil)

	ln, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	srv := env.e.NewServer(emulator.ServerOptions{WriteTimeout: 100 * time.Millisecond})
	go func() { _ = srv.Serve(ln) }()
	t.Cleanup(func() { _ = srv.Close() })

	status, _, answer := adminPost(t, "http://"+ln.Addr().String()+adminpath.StreamsDrain, `{"timeout":"400ms"}`)
	require.Equal(t, http.StatusGatewayTimeout, status, answer)
	require.Equal(t, "com.amazon.coral.service#DrainTimeoutException", answer["__type"], "not ValidationException: the request was valid")
	require.Contains(t, fmt.Sprint(answer["message"]), id)

	status, _, answer = adminPost(t, "http://"+ln.Addr().String()+adminpath.StreamsDrain, `{"timeout":"-1s"}`)
	require.Equal(t, http.StatusBadRequest, status, answer)
	require.Equal(t, "com.amazon.coral.validate#ValidationException", answer["__type"])
}
