package main

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"math/rand/v2"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/credentials"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/dynamoemu/dynamoemu/emulator"
)

// The kill loop (-kill): a server with a data directory under writers,
// killed with SIGKILL at a random moment every few seconds and started
// again on its files, for -duration; after each restart the writes it
// acknowledged are checked, and the time the restart took is measured.
//
// Each writer keeps, under its own keys: a sequence of PutItems (every
// acknowledged one must be there, an unanswered one there or not), a
// counter moved by UpdateItem ADD (at least the increments acknowledged,
// at most one more), a TransactWriteItems of the same value to two
// tables (both or neither: equal in both) and BatchWriteItems of 25
// items (each whole or not at all). The server compacts often (1 MiB),
// so kills land in compactions too. Every cycle prints a line (its
// writes, the restart's time from exec to the first answered request,
// the directory's size), the end a summary; a lost write or half a
// transaction is a failure (exit status 1).

// killEnv set in the environment makes this program the kill loop's
// server, on the directory it names.
const killEnv = "DYNAMOEMU_SOAK_KILL_DIR"

// killDurabilityEnv is the server's -durability.
const killDurabilityEnv = "DYNAMOEMU_SOAK_KILL_DURABILITY"

// serveKill is the kill loop's server: the emulator on the directory of
// killEnv, its address printed once it has loaded, until killed.
func serveKill() error {
	d, err := emulator.ParseDurability(os.Getenv(killDurabilityEnv))
	if err != nil {
		return err
	}
	emu, err := emulator.New(emulator.Options{
		DataDir: os.Getenv(killEnv),
		Persist: emulator.PersistOptions{Durability: d, CompactBytes: 1 << 20},
		Logger:  slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelWarn})),
	})
	if err != nil {
		return err
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return err
	}
	fmt.Println(ln.Addr().String())
	return emu.NewServer(emulator.ServerOptions{}).Serve(ln)
}

// killServer is a running kill-loop server.
type killServer struct {
	cmd  *exec.Cmd
	addr string
	took time.Duration // from exec to the first answered request
}

// startKillServer starts the server on dir and waits for its first
// answer.
func startKillServer(dir, durability string) (*killServer, error) {
	exe, err := os.Executable()
	if err != nil {
		return nil, err
	}
	cmd := exec.Command(exe)
	cmd.Env = append(os.Environ(), killEnv+"="+dir, killDurabilityEnv+"="+durability)
	cmd.Stderr = os.Stderr
	out, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	start := time.Now()
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	line, err := bufio.NewReader(out).ReadString('\n')
	if err != nil {
		_ = cmd.Process.Kill()
		_ = cmd.Wait()
		return nil, fmt.Errorf("the server did not start: %w", err)
	}
	s := &killServer{cmd: cmd, addr: strings.TrimSpace(line)}
	req, _ := http.NewRequest(http.MethodPost, "http://"+s.addr+"/", strings.NewReader("{}"))
	req.Header.Set("X-Amz-Target", "DynamoDB_20120810.ListTables")
	req.Header.Set("Content-Type", "application/x-amz-json-1.0")
	req.Header.Set("Authorization", "AWS4-HMAC-SHA256 Credential=soak/20260101/us-east-1/dynamodb/aws4_request, SignedHeaders=host, Signature=0")
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		s.kill()
		return nil, err
	}
	io.Copy(io.Discard, res.Body)
	res.Body.Close()
	s.took = time.Since(start)
	return s, nil
}

func (s *killServer) kill() {
	_ = s.cmd.Process.Signal(syscall.SIGKILL)
	_ = s.cmd.Wait()
}

// killWriter is one writer's acknowledged state, and what it has in
// flight (an unanswered write may or may not be there).
type killWriter struct {
	id      int
	puts    int   // PutItems acknowledged: keys p<id>-0 .. puts-1
	checked int   // puts checked after a restart so far
	putTry  bool  // PutItem puts was sent, not answered
	count   int   // ADDs acknowledged
	countIn bool  // an ADD not answered
	tx      int   // the last transaction acknowledged (value)
	txTry   int   // a transaction sent, not answered (0: none)
	batches []int // batches acknowledged
	batchIn int   // a batch sent, not answered (-1: none)
	nextB   int
}

// killTables are the loop's tables.
var killTables = []string{"kv1", "ta1", "tb1"}

func runKill(cfg config, out io.Writer) error {
	dir, err := os.MkdirTemp("", "dynamoemu-soak-kill-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(dir)
	srv, err := startKillServer(dir, cfg.durability)
	if err != nil {
		return err
	}
	cl := killClient(srv.addr)
	ctx := context.Background()
	for _, name := range killTables {
		if _, err := cl.CreateTable(ctx, &dynamodb.CreateTableInput{
			TableName:            aws.String(name),
			BillingMode:          types.BillingModePayPerRequest,
			AttributeDefinitions: []types.AttributeDefinition{{AttributeName: aws.String("pk"), AttributeType: types.ScalarAttributeTypeS}},
			KeySchema:            []types.KeySchemaElement{{AttributeName: aws.String("pk"), KeyType: types.KeyTypeHash}},
		}); err != nil {
			srv.kill()
			return err
		}
	}
	writers := make([]*killWriter, cfg.workers)
	for i := range writers {
		writers[i] = &killWriter{id: i, batchIn: -1}
	}
	fmt.Fprintf(out, "dynamoemu-soak -kill: %v, %d writers, -durability %s, data in %s\n", cfg.duration, cfg.workers, cfg.durability, dir)
	fmt.Fprintf(out, "%5s %8s %9s %9s %11s %9s\n", "cycle", "ran", "writes", "restart", "directory", "problems")
	r := rand.New(rand.NewPCG(uint64(time.Now().UnixNano()), 1))
	deadline := time.Now().Add(cfg.duration)
	var restarts []time.Duration
	var problems []string
	totalWrites := 0
	for cycle := 1; time.Now().Before(deadline); cycle++ {
		run := time.Duration(500+r.IntN(2500)) * time.Millisecond
		writes := killCycle(killClient(srv.addr), writers, run)
		totalWrites += writes
		srv.kill()
		if srv, err = startKillServer(dir, cfg.durability); err != nil {
			return fmt.Errorf("cycle %d: restart: %w", cycle, err)
		}
		restarts = append(restarts, srv.took)
		found := killCheck(killClient(srv.addr), writers)
		problems = append(problems, found...)
		fmt.Fprintf(out, "%5d %8v %9d %8dms %9.1fMB %9d\n", cycle, run.Round(time.Millisecond), writes, srv.took.Milliseconds(), float64(dirBytes(dir))/(1<<20), len(found))
		for _, p := range found {
			fmt.Fprintln(out, "      ", p)
		}
	}
	srv.kill()
	slices.Sort(restarts)
	pct := func(p int) time.Duration { return restarts[min(len(restarts)-1, len(restarts)*p/100)] }
	fmt.Fprintf(out, "kills: %d; writes acknowledged: %d; restart (exec to first answer): median %v, p90 %v, max %v; problems: %d\n",
		len(restarts), totalWrites, pct(50).Round(time.Millisecond), pct(90).Round(time.Millisecond), restarts[len(restarts)-1].Round(time.Millisecond), len(problems))
	if len(problems) > 0 {
		return fmt.Errorf("%d problems; first: %s", len(problems), problems[0])
	}
	return nil
}

// killClient is an SDK client of the server at addr that does not retry
// (a write cut by the kill must stay unanswered, not be sent again).
func killClient(addr string) *dynamodb.Client {
	return dynamodb.New(dynamodb.Options{
		Region:           "us-east-1",
		BaseEndpoint:     aws.String("http://" + addr),
		Credentials:      credentials.NewStaticCredentialsProvider("soak", "soak", ""),
		RetryMaxAttempts: 1,
		HTTPClient:       &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: 64}},
	})
}

// killCycle runs the writers for d and returns the writes acknowledged.
// The server is killed after it returns, with the last writes unanswered.
func killCycle(cl *dynamodb.Client, writers []*killWriter, d time.Duration) int {
	ctx, cancel := context.WithTimeout(context.Background(), d)
	defer cancel()
	var mu sync.Mutex
	total := 0
	var wg sync.WaitGroup
	for _, w := range writers {
		wg.Go(func() {
			n := 0
			for i := 0; ctx.Err() == nil; i++ {
				if w.step(ctx, cl, i%4) {
					n++
				}
			}
			mu.Lock()
			total += n
			mu.Unlock()
		})
	}
	wg.Wait()
	return total
}

// step sends the writer's next write of kind k and reports whether it
// was acknowledged. An unanswered write stays in flight: the writer
// sends no other of its kind (it is checked after the restart).
func (w *killWriter) step(ctx context.Context, cl *dynamodb.Client, k int) bool {
	s := func(v string) types.AttributeValue { return &types.AttributeValueMemberS{Value: v} }
	n := func(v int) types.AttributeValue { return &types.AttributeValueMemberN{Value: strconv.Itoa(v)} }
	pad := s(strings.Repeat("x", 200))
	switch k {
	case 0:
		if w.putTry {
			return false
		}
		w.putTry = true
		_, err := cl.PutItem(ctx, &dynamodb.PutItemInput{TableName: aws.String("kv1"), Item: map[string]types.AttributeValue{
			"pk": s(fmt.Sprintf("p%d-%d", w.id, w.puts)), "v": n(w.puts), "pad": pad}})
		if err != nil {
			return false
		}
		w.putTry = false
		w.puts++
	case 1:
		if w.countIn {
			return false
		}
		w.countIn = true
		_, err := cl.UpdateItem(ctx, &dynamodb.UpdateItemInput{TableName: aws.String("kv1"), Key: map[string]types.AttributeValue{"pk": s(fmt.Sprint("c", w.id))},
			UpdateExpression: aws.String("ADD n :one"), ExpressionAttributeValues: map[string]types.AttributeValue{":one": n(1)}})
		if err != nil {
			return false
		}
		w.countIn = false
		w.count++
	case 2:
		if w.txTry != 0 {
			return false
		}
		w.txTry = w.tx + 1
		item := map[string]types.AttributeValue{"pk": s(fmt.Sprint("t", w.id)), "v": n(w.txTry), "pad": pad}
		_, err := cl.TransactWriteItems(ctx, &dynamodb.TransactWriteItemsInput{TransactItems: []types.TransactWriteItem{
			{Put: &types.Put{TableName: aws.String("ta1"), Item: item}}, {Put: &types.Put{TableName: aws.String("tb1"), Item: item}}}})
		if err != nil {
			return false
		}
		w.tx, w.txTry = w.txTry, 0
	case 3:
		if w.batchIn >= 0 {
			return false
		}
		b := w.nextB
		w.batchIn, w.nextB = b, b+1
		var reqs []types.WriteRequest
		for i := range 25 {
			reqs = append(reqs, types.WriteRequest{PutRequest: &types.PutRequest{Item: map[string]types.AttributeValue{
				"pk": s(fmt.Sprintf("b%d-%d-%d", w.id, b, i)), "pad": pad}}})
		}
		res, err := cl.BatchWriteItem(ctx, &dynamodb.BatchWriteItemInput{RequestItems: map[string][]types.WriteRequest{"kv1": reqs}})
		if err != nil || len(res.UnprocessedItems) > 0 {
			return false
		}
		w.batchIn = -1
		w.batches = append(w.batches, b)
	}
	return true
}

// killCheck compares the restarted server with what the writers know,
// settles their unanswered writes (there or not), and returns what it
// finds wrong.
func killCheck(cl *dynamodb.Client, writers []*killWriter) []string {
	k := &killChecker{ctx: context.Background(), cl: cl}
	for _, w := range writers {
		k.w = w
		k.puts()
		k.counter()
		k.transaction()
		// Batches: the last acknowledged whole, the one in flight whole
		// or absent.
		if n := len(w.batches); n > 0 {
			k.batch(w.batches[n-1], true)
		}
		if w.batchIn >= 0 {
			k.batch(w.batchIn, false)
			w.batchIn = -1
		}
	}
	return k.probs
}

// killChecker checks one writer w after a restart, gathering problems.
type killChecker struct {
	ctx   context.Context
	cl    *dynamodb.Client
	w     *killWriter
	probs []string
}

func (k *killChecker) fail(format string, args ...any) {
	k.probs = append(k.probs, fmt.Sprintf("writer %d: ", k.w.id)+fmt.Sprintf(format, args...))
}

// get reads the item pk of table, consistently.
func (k *killChecker) get(table, pk string) (map[string]types.AttributeValue, error) {
	res, err := k.cl.GetItem(k.ctx, &dynamodb.GetItemInput{TableName: aws.String(table), ConsistentRead: aws.Bool(true),
		Key: map[string]types.AttributeValue{"pk": &types.AttributeValueMemberS{Value: pk}}})
	if err != nil {
		return nil, err
	}
	return res.Item, nil
}

// killNum is number attribute name of it (0: none).
func killNum(it map[string]types.AttributeValue, name string) int {
	if v, ok := it[name].(*types.AttributeValueMemberN); ok {
		n, _ := strconv.Atoi(v.Value)
		return n
	}
	return 0
}

// puts checks every put acknowledged since the last check, and settles
// the one in flight.
func (k *killChecker) puts() {
	w := k.w
	for from := w.checked; from < w.puts; from += 100 {
		var keys []map[string]types.AttributeValue
		for i := from; i < min(from+100, w.puts); i++ {
			keys = append(keys, map[string]types.AttributeValue{"pk": &types.AttributeValueMemberS{Value: fmt.Sprintf("p%d-%d", w.id, i)}})
		}
		res, err := k.cl.BatchGetItem(k.ctx, &dynamodb.BatchGetItemInput{RequestItems: map[string]types.KeysAndAttributes{"kv1": {Keys: keys, ConsistentRead: aws.Bool(true)}}})
		if err != nil || len(res.UnprocessedKeys) > 0 {
			k.fail("PutItems %d..: %v", from, err)
		} else if got := len(res.Responses["kv1"]); got != len(keys) {
			k.fail("acknowledged PutItems lost: %d of %d from %d", len(keys)-got, len(keys), from)
		}
	}
	w.checked = w.puts
	if w.putTry {
		if it, err := k.get("kv1", fmt.Sprintf("p%d-%d", w.id, w.puts)); err == nil && it != nil {
			w.puts++
		}
		w.putTry = false
	}
}

// counter checks the counter: at least what was acknowledged, at most
// one more.
func (k *killChecker) counter() {
	w := k.w
	if it, err := k.get("kv1", fmt.Sprint("c", w.id)); err != nil {
		k.fail("counter: %v", err)
	} else if c := killNum(it, "n"); c < w.count || c > w.count+1 || c == w.count+1 && !w.countIn {
		k.fail("counter %d, %d increments acknowledged (one in flight: %v)", c, w.count, w.countIn)
	} else {
		w.count, w.countIn = c, false
	}
}

// transaction checks the transaction: equal in both tables, the last
// acknowledged or the one in flight.
func (k *killChecker) transaction() {
	w := k.w
	a, errA := k.get("ta1", fmt.Sprint("t", w.id))
	b, errB := k.get("tb1", fmt.Sprint("t", w.id))
	if errors.Join(errA, errB) != nil {
		k.fail("transaction: %v", errors.Join(errA, errB))
	} else if va, vb := killNum(a, "v"), killNum(b, "v"); va != vb {
		k.fail("half a transaction: %d in one table, %d in the other", va, vb)
	} else if va != w.tx && (w.txTry == 0 || va != w.txTry) {
		k.fail("transaction %d found, %d acknowledged (in flight: %d)", va, w.tx, w.txTry)
	} else {
		w.tx, w.txTry = va, 0
	}
}

// batch checks batch bn: whole, and there when acked; one in flight
// found whole counts as acknowledged.
func (k *killChecker) batch(bn int, acked bool) {
	w := k.w
	keys := make([]map[string]types.AttributeValue, 25)
	for i := range keys {
		keys[i] = map[string]types.AttributeValue{"pk": &types.AttributeValueMemberS{Value: fmt.Sprintf("b%d-%d-%d", w.id, bn, i)}}
	}
	res, err := k.cl.BatchGetItem(k.ctx, &dynamodb.BatchGetItemInput{RequestItems: map[string]types.KeysAndAttributes{"kv1": {Keys: keys, ConsistentRead: aws.Bool(true)}}})
	if err != nil || len(res.UnprocessedKeys) > 0 {
		k.fail("batch %d: %v", bn, err)
		return
	}
	got := len(res.Responses["kv1"])
	switch {
	case got != 0 && got != 25:
		k.fail("batch %d: %d of its 25 items", bn, got)
	case acked && got == 0:
		k.fail("acknowledged batch %d lost", bn)
	case !acked && got == 25:
		w.batches = append(w.batches, bn)
	}
}

// dirBytes is the size of the files under dir.
func dirBytes(dir string) int64 {
	var n int64
	filepath.Walk(dir, func(_ string, info os.FileInfo, err error) error {
		if err == nil && !info.IsDir() {
			n += info.Size()
		}
		return nil
	})
	return n
}
