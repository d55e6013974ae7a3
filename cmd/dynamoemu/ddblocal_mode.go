package main

import (
	"crypto/rand"
	"fmt"
	"io"
	"net/http"
	"strconv"

	"github.com/dynamoemu/dynamoemu/emulator"
	"github.com/dynamoemu/dynamoemu/internal/adminpath"
)

// DynamoDB Local's command line. Harnesses written for amazon/dynamodb-local
// start the container as "java -Djava.library.path=./DynamoDBLocal_lib -jar
// DynamoDBLocal.jar [flags]" (testcontainers-go replaces the image's
// entrypoint with java), wait for its start-up block on stdout (Rust's
// testcontainers-modules) or for GET / to answer 400 (Testcontainers for
// .NET), and probe /shell/ in compose health checks. Started that way,
// with "-jar FILE.jar" among its arguments (the image's java, a link to
// the tools' binary, starts the server so: cmd/internal/tools), the server:
//   - takes DynamoDB Local's flags with their meaning: without -inMemory or
//     -dbPath, DynamoDB Local keeps its database in the working directory,
//     and so does this server (-dbPath .); it listens on every interface
//     (0.0.0.0) unless -host says otherwise, as DynamoDB Local does;
//   - prints DynamoDB Local 3.3's configuration block on stdout once it
//     listens (the text checked against DynamoDB Local 3.3.0's own);
//   - answers GET (and HEAD) of any path with DynamoDB Local 3.3's 400
//     MissingAuthenticationToken, but /shell/, which answers 200 as the
//     JavaScript shell of older DynamoDB Local images did.
// The data plane (every POST) is the emulator's, as AWS answers it.

// ddbLocalDefaults gives c DynamoDB Local's defaults where its flags are
// silent: every interface, and the working directory for the data unless
// -inMemory.
func (c *config) ddbLocalDefaults() {
	if !c.hostSet {
		c.host, c.hostSet = "0.0.0.0", true
	}
	if c.dbPath == "" && !c.inMemorySet {
		c.dbPath = "."
		c.ddbLocalCwd = true
	}
}

// ddbLocalUsage is -help's first lines when started as DynamoDB Local.
const ddbLocalUsage = `usage: java [-Djava.library.path=./DynamoDBLocal_lib] -jar DynamoDBLocal.jar
            [-port N] [-inMemory | -dbPath DIR] [-sharedDb] [-cors ORIGINS]
            [-delayTransientStatuses] [-optimizeDbBeforeStartup]
            [-disableTelemetry] [-version] [-help]

This is dynamoemu started through DynamoDB Local's command line: the flags
above mean what they mean to DynamoDB Local (without -inMemory or -dbPath
the data is kept in the working directory), and every dynamoemu flag
below works too.

`

// printDDBLocalBlock writes DynamoDB Local 3.3's start-up block, the lines
// harnesses wait for, with the values of c and the port listened on. The
// Version line says dynamoemu's version (DynamoDB Local's says 3.3.0).
func printDDBLocalBlock(w io.Writer, c config, port int) error {
	orNull := func(s string) string {
		if s == "" {
			return "null"
		}
		return s
	}
	dbPath := c.dbPath
	if c.ddbLocalCwd {
		dbPath = "" // DynamoDB Local prints null for its default, the working directory
	}
	_, err := fmt.Fprintf(w, "Initializing DynamoDB Local with the following configuration:\n"+
		"Port:\t%d\nInMemory:\t%t\nVersion:\t%s\nDbPath:\t%s\nSharedDb:\t%t\n"+
		"shouldDelayTransientStatuses:\t%t\nCorsParams:\t%s\n\n",
		port, c.dbPath == "", "dynamoemu "+emulator.Version(), orNull(dbPath), c.sharedDB,
		c.delayTransientStatuses, orNull(c.cors))
	return err
}

// missingAuthBody is DynamoDB Local 3.3's answer to a GET (checked with
// curl against DynamoDB Local 3.3.0: 400, Content-Type
// application/x-amz-json-1.0, this body without a final newline).
const missingAuthBody = `{"__type":"com.amazonaws.dynamodb.v20120810#MissingAuthenticationToken","Message":"Request must contain either a valid (registered) AWS access key ID or X.509 certificate."}`

// shellPage is /shell/'s page: DynamoDB Local's JavaScript shell is not
// served, the console is.
const shellPage = `<!doctype html>
<title>dynamoemu</title>
<p>dynamoemu, started through DynamoDB Local's command line. DynamoDB Local's
JavaScript shell is not served here; the web console is at
<a href="` + adminpath.Console + `">` + adminpath.Console + `</a>.
`

// ddbLocalEdge answers the GETs of DynamoDB Local's harnesses
// (emulator.Options.Edge).
func ddbLocalEdge(w http.ResponseWriter, r *http.Request) bool {
	h := w.Header()
	h["x-amzn-RequestId"] = []string{requestID()} // DynamoDB Local's spelling
	if r.URL.Path == "/shell" || r.URL.Path == "/shell/" {
		h.Set("Content-Type", "text/html; charset=utf-8")
		h.Set("Content-Length", strconv.Itoa(len(shellPage)))
		w.WriteHeader(http.StatusOK)
		_, _ = io.WriteString(w, shellPage)
		return true
	}
	h.Set("Content-Type", "application/x-amz-json-1.0")
	h.Set("Content-Length", strconv.Itoa(len(missingAuthBody)))
	w.WriteHeader(http.StatusBadRequest)
	_, _ = io.WriteString(w, missingAuthBody)
	return true
}

// requestID is a request id of AWS's form (a random UUID).
func requestID() string {
	var b [16]byte
	_, _ = rand.Read(b[:])
	b[6] = b[6]&0x0f | 0x40
	b[8] = b[8]&0x3f | 0x80
	return fmt.Sprintf("%x-%x-%x-%x-%x", b[0:4], b[4:6], b[6:8], b[8:10], b[10:])
}
