package main

import (
	"fmt"
	"hash/crc32"
	"io"
	"net"
	"net/http"
	"os"
	"strconv"
	"time"
)

// The floor: a net/http server that answers every request of the
// workload with a fixed body of the right shape (an item, ten items, a
// hundred, an empty put answer) without doing anything else. It costs
// what net/http, the Go runtime and the kernel cost per request, which no
// server written on net/http goes below: the distance from a server's
// figures to the floor's is that server's own work. It runs as a process
// of its own (this program with -serve-floor), so its CPU time is read as
// any server's.

// cannedAnswers returns the floor's answer to each operation.
func cannedAnswers() map[string][]byte {
	items := func(n int) []byte {
		b := []byte{'['}
		for i := range n {
			if i > 0 {
				b = append(b, ',')
			}
			b = appendItem(b, i/itemsPerPartition, i%itemsPerPartition)
		}
		return append(b, ']')
	}
	table := `{"TableName":"floor","TableStatus":"ACTIVE","KeySchema":[{"AttributeName":"pk","KeyType":"HASH"},{"AttributeName":"sk","KeyType":"RANGE"}]}`
	return map[string][]byte{
		"CreateTable":    []byte(`{"TableDescription":` + table + `}`),
		"DescribeTable":  []byte(`{"Table":` + table + `}`),
		"DeleteTable":    []byte(`{"TableDescription":` + table + `}`),
		"ListTables":     []byte(`{"TableNames":[]}`),
		"PutItem":        []byte(`{}`),
		"GetItem":        append(appendItem([]byte(`{"Item":`), 0, 0), '}'),
		"Query":          append(append([]byte(`{"Count":10,"Items":`), items(itemsPerPartition)...), `,"ScannedCount":10}`...),
		"Scan":           append(append([]byte(`{"Count":100,"Items":`), items(scanLimit)...), `,"LastEvaluatedKey":{"pk":{"S":"user#0000009"},"sk":{"N":"9"}},"ScannedCount":100}`...),
		"UpdateItem":     []byte(`{"Attributes":{"count":{"N":"1"}}}`),
		"BatchWriteItem": []byte(`{"UnprocessedItems":{}}`),
	}
}

// floorHandler answers with the canned bodies, reading each request's
// body first as any server must.
func floorHandler() http.Handler {
	answers := cannedAnswers()
	crcs := make(map[string]string, len(answers))
	for op, body := range answers {
		crcs[op] = strconv.FormatUint(uint64(crc32.ChecksumIEEE(body)), 10)
	}
	const prefix = "DynamoDB_20120810."
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.Copy(io.Discard, r.Body)
		target := r.Header.Get("X-Amz-Target")
		op := ""
		if len(target) > len(prefix) {
			op = target[len(prefix):]
		}
		body, ok := answers[op]
		h := w.Header()
		h["Content-Type"] = []string{"application/x-amz-json-1.0"}
		h["X-Amzn-Requestid"] = []string{"floor"}
		if !ok {
			w.WriteHeader(http.StatusBadRequest)
			fmt.Fprintf(w, `{"__type":"com.amazon.coral.service#UnknownOperationException","message":"%s"}`, op)
			return
		}
		h["X-Amz-Crc32"] = []string{crcs[op]}
		h["Content-Length"] = []string{strconv.Itoa(len(body))}
		w.Write(body)
	})
}

// serveFloor runs the floor on addr, printing its URL on stdout once it
// listens, until the process is killed.
func serveFloor(addr string) error {
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return err
	}
	fmt.Fprintf(os.Stdout, "http://%s\n", ln.Addr())
	srv := &http.Server{Handler: floorHandler(), ReadHeaderTimeout: 10 * time.Second, IdleTimeout: 2 * time.Minute}
	return srv.Serve(ln)
}
