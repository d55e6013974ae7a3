package main

import (
	"context"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// killHandler is a Lambda Invoke endpoint that counts, per life of the
// server, each id its batches carry.
type killHandler struct {
	mu    sync.Mutex
	life  int
	seen  []map[int]int // per life: id -> deliveries
	total map[int]bool  // every id delivered
}

func (h *killHandler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	var ev struct {
		Records []struct {
			Dynamodb struct {
				Keys struct{ ID struct{ N string } }
			}
		}
	}
	if !strings.HasSuffix(r.URL.Path, "/invocations") || json.NewDecoder(r.Body).Decode(&ev) != nil {
		http.Error(w, "not an invocation", http.StatusBadRequest)
		return
	}
	h.mu.Lock()
	for _, rec := range ev.Records {
		id, _ := strconv.Atoi(rec.Dynamodb.Keys.ID.N)
		h.seen[h.life][id]++
		h.total[id] = true
	}
	h.mu.Unlock()
	w.Write([]byte(`{}`))
}

func (h *killHandler) delivered() int {
	h.mu.Lock()
	defer h.mu.Unlock()
	return len(h.total)
}

// nextLife counts what arrives from now on as the next life's.
func (h *killHandler) nextLife() {
	h.mu.Lock()
	h.life++
	h.seen = append(h.seen, map[int]int{})
	h.mu.Unlock()
}

// TestStreamHandlerCheckpointSurvivesKill: a server with -dbPath and an
// event source mapping (BatchSize 3) to a Lambda endpoint is killed with
// SIGKILL while its poller delivers, at a random instant, and restarted
// on the same directory, several times; a drain then catches up. Every
// acknowledged write reaches the handler (no record skipped), and after
// each kill at most one batch, the one being handled, is delivered
// again: the checkpoint is saved after each batch, as Lambda moves a
// shard's checkpoint (at least once, never a record lost). With the
// checkpoint saved only at a clean stop, each restart would deliver
// everything again.
func TestStreamHandlerCheckpointSurvivesKill(t *testing.T) {
	kills, perLife := 3, 40
	if heavyTests() {
		kills = 8
	}
	const batchSize = 3
	seed := uint64(time.Now().UnixNano())
	t.Logf("seed %d", seed)
	r := rand.New(rand.NewPCG(seed, 0))
	h := &killHandler{seen: []map[int]int{{}}, total: map[int]bool{}}
	hs := httptest.NewServer(h)
	defer hs.Close()
	dir := t.TempDir()
	ctx := context.Background()
	written := 0
	for life := 0; life <= kills; life++ {
		c := startChild(t, "-dbPath", dir, "-lambdaEndpoint", hs.URL)
		cl := newClient(c.url)
		if life == 0 {
			var out struct {
				TableDescription struct{ LatestStreamArn string }
			}
			require.NoError(t, cl.call(ctx, "CreateTable", `{"TableName":"events","BillingMode":"PAY_PER_REQUEST",
				"AttributeDefinitions":[{"AttributeName":"id","AttributeType":"N"}],
				"KeySchema":[{"AttributeName":"id","KeyType":"HASH"}],
				"StreamSpecification":{"StreamEnabled":true,"StreamViewType":"NEW_IMAGE"}}`, &out))
			body := fmt.Sprintf(`{"EventSourceArn":%q,"FunctionName":"f","BatchSize":%d,"StartingPosition":"TRIM_HORIZON"}`,
				out.TableDescription.LatestStreamArn, batchSize)
			req, err := http.NewRequestWithContext(ctx, http.MethodPost, c.url+"/2015-03-31/event-source-mappings/", strings.NewReader(body))
			require.NoError(t, err)
			req.Header.Set("Content-Type", "application/json")
			res, err := cl.hc.Do(req)
			require.NoError(t, err)
			res.Body.Close()
			require.Equal(t, http.StatusAccepted, res.StatusCode)
		}
		if life == kills {
			require.NoError(t, cl.admin(ctx, "/dynamoemu/streams/drain", `{"timeout":"120s"}`), "its log:\n%s", c.logs.String())
			c.stop(t)
			break
		}
		for i := 0; i < perLife; i++ {
			require.NoError(t, cl.call(ctx, "PutItem", fmt.Sprintf(`{"TableName":"events","Item":{"id":{"N":"%d"}}}`, written), nil))
			written++
		}
		// Killed once the handler has had a random number of the records
		// not yet delivered (the poller may be mid-batch or between two).
		target := written
		if d := h.delivered(); d < written {
			target = d + 1 + r.IntN(written-d)
		}
		deadline := time.Now().Add(hangBound)
		for h.delivered() < target && time.Now().Before(deadline) {
			time.Sleep(time.Millisecond)
		}
		require.GreaterOrEqual(t, h.delivered(), target, "the handler never got %d records; the server's log:\n%s", target, c.logs.String())
		c.kill()
		h.nextLife()
	}

	h.mu.Lock()
	defer h.mu.Unlock()
	for id := 0; id < written; id++ {
		require.True(t, h.total[id], "record %d was never delivered", id)
	}
	before := map[int]bool{}
	for life, seen := range h.seen {
		again := 0
		for id, n := range seen {
			if before[id] {
				again += n
			} else {
				again += n - 1 // twice within the life: the handler never fails, so a kill's too (a batch of the killed server arriving late)
			}
		}
		if life > 0 {
			require.LessOrEqual(t, again, batchSize, "life %d delivered again %d records handled before the kill (at most the batch in flight)", life, again)
		} else {
			require.Zero(t, again, "duplicates before any kill")
		}
		t.Logf("life %d: %d records, %d delivered again", life, len(seen), again)
		for id := range seen {
			before[id] = true
		}
	}
}
