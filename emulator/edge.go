package emulator

import (
	"hash/crc32"
	"log/slog"
	"net/http"
	"strconv"
	"strings"

	"github.com/dynamoemu/dynamoemu/emulator/internal/apierr"
	"github.com/dynamoemu/dynamoemu/emulator/internal/httpedge"
	"github.com/dynamoemu/dynamoemu/emulator/internal/httploop"
	"github.com/dynamoemu/dynamoemu/emulator/internal/wire"
)

// The HTTP edge: what the server answers before any operation runs, as
// AWS's DynamoDB endpoint answers it. The records followed:
//
//   - GET / answers 200 "healthy: " and the endpoint's name, with a final
//     space ("healthy: dynamodb.us-east-1.amazonaws.com "), no
//     Content-Type, an x-amz-crc32 and a request id, signed or not:
//     dynalite's test/connection.js, run against DynamoDB, and ScyllaDB's
//     test_health.py (also run against DynamoDB, 2026). The emulator has
//     no name of its own: it answers with the Host it was asked by.
//   - A GET of any other path is a 4xx (ScyllaDB's
//     test_health_only_works_for_root_path, "in range(400, 405)"); PUT,
//     DELETE and every other method but POST and OPTIONS, and OPTIONS
//     without an Origin, answer 404 with the body
//     "<UnknownOperationException/>\n" and no Content-Type (dynalite's
//     assert404, DynamoDB's answer; its other answer, an HTML "Page Not
//     Found", is the same status). Neither echoes the path.
//   - A POST to any path is an API call, as on AWS, which reads the
//     operation from X-Amz-Target and signs the path like any other part
//     of the request (ScyllaDB's test_too_large_request_line: a request
//     signed for / and sent to /garbage is InvalidSignatureException on
//     AWS, that is, served as a call whose signature covered another
//     path); DynamoDB Local also answers a POST to any path. The
//     emulator gives AWS's answer where it verifies signatures
//     (Options.Credentials, -credentials); by default it verifies none,
//     as DynamoDB Local, so it serves that request, as it serves one
//     whose signed headers were changed after signing: only the secret
//     tells a path or a header signed from one changed, and an SDK whose
//     endpoint has a path signs that path. The emulator's own paths
//     (/dynamoemu/...) are the exception.
//   - A request line, or the header fields, over 16 KB are refused with
//     400 before anything reads them (ScyllaDB's
//     test_too_large_request_headers and test_too_large_request_line:
//     "DynamoDB limits the total size of the headers to 16 KB", the
//     request line likewise, 2025), up to ServerOptions.MaxHeaderBytes
//     (64 KB by default): a larger head is net/http's 431.
//   - CORS: see internal/httpedge/cors.go.
//   - Options.Edge, when set, answers GET and HEAD first: cmd/dynamoemu's
//     DynamoDB Local and LocalStack modes answer their harnesses' probes
//     (GET / 400 as DynamoDB Local 3.3, /_localstack/health) there, and
//     the emulator's AWS answers stay the default.
//
// Which path is served how, and behind which guard, is one table: the
// endpoints of routes.go. The emulator's own paths, everything under
// /dynamoemu/, go to its router behind the origin check
// (httpedge/adminguard.go) and, with Options.Credentials, each route's
// credentials (credentials.go). Lambda's event source mapping API
// (/2015-03-31/event-source-mappings) goes behind the same origin check
// (httpedge.LambdaGuard), then, with Options.Credentials, Lambda's
// signature check (stream_handlers.go).

// ownPrefix is the path under which the emulator serves its own
// endpoints: admin, conventions, the console.
const ownPrefix = "/dynamoemu/"

// isOwnPath reports whether path is the emulator's (under ownPrefix, or
// ownPrefix without its slash).
func isOwnPath(path string) bool {
	return strings.HasPrefix(path, ownPrefix) || path == ownPrefix[:len(ownPrefix)-1]
}

// maxHeadPart is AWS's limit on a request line and on a request's header
// fields: 16 KB each.
const maxHeadPart = 16 << 10

// headTooLarge reports whether r's request line or header fields are
// larger than AWS takes: each header line counted as "Name: value\r\n",
// Host's included.
func headTooLarge(r *http.Request) bool {
	if len(r.Method)+1+len(r.RequestURI)+1+len(r.Proto) > maxHeadPart {
		return true
	}
	n := len("Host: \r\n") + len(r.Host)
	for name, vals := range r.Header {
		for _, v := range vals {
			n += len(name) + len(v) + 4
		}
		if n > maxHeadPart {
			return true
		}
	}
	return n > maxHeadPart
}

// edgeHandler is the emulator's http.Handler: the Host check (hostAllowed, below),
// AWS's head limits, then the first of the edge's rows (routes.go's
// edgeEndpoints) that takes the request's method and path.
func (e *Emulator) edgeHandler() http.Handler {
	rows := edgeEndpoints()
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header()[versionHeaderName] = versionHeader() // version.go
		if !e.hostAllowed(r) {
			e.serveRefused(w, r, httpedge.ErrHostRefused(r.Host))
			return
		}
		if headTooLarge(r) {
			serveHeadTooLarge(w)
			return
		}
		for i := range rows {
			if rows[i].match(r) {
				rows[i].serve(e, w, r)
				return
			}
		}
	})
}

// serveHealth answers GET / as AWS's endpoint does: 200 "healthy: HOST ".
func (e *Emulator) serveHealth(w http.ResponseWriter, r *http.Request) {
	e.cors.Apply(w, r)
	writePlain(w, http.StatusOK, "healthy: "+r.Host+" ")
}

// notFoundBody is DynamoDB's body for a request it cannot route.
const notFoundBody = "<UnknownOperationException/>\n"

// serveNotFound answers a path or method the edge does not serve, as
// DynamoDB does: 404 "<UnknownOperationException/>".
func (e *Emulator) serveNotFound(w http.ResponseWriter, r *http.Request) {
	e.cors.Apply(w, r)
	writePlain(w, http.StatusNotFound, notFoundBody)
}

// writePlain writes body with AWS's headers for the edge's own answers:
// a request id, x-amz-crc32, Content-Length, Server, and no Content-Type
// (a nil value keeps net/http from sniffing one).
func writePlain(w http.ResponseWriter, status int, body string) {
	h := w.Header()
	h["Content-Type"] = nil
	h[httploop.HeaderRequestID] = []string{httploop.NewRequestID()}
	h[httploop.HeaderCRC32] = []string{strconv.FormatUint(uint64(crc32.ChecksumIEEE([]byte(body))), 10)}
	h["Content-Length"] = []string{strconv.Itoa(len(body))}
	h["Server"] = httploop.ServerHeader
	w.WriteHeader(status)
	_, _ = w.Write([]byte(body))
}

// headTooLargeBody explains a refused head. AWS's body for it is not
// recorded (only its status, 400); the path or headers are not echoed.
const headTooLargeBody = "Bad Request: the request line or the header fields are over 16384 bytes, DynamoDB's limit.\n"

// serveHeadTooLarge refuses a request whose head is over AWS's limits, and
// closes the connection (a client that sent one may send more).
func serveHeadTooLarge(w http.ResponseWriter) {
	w.Header().Set("Connection", "close")
	writePlain(w, http.StatusBadRequest, headTooLargeBody)
}

// servePreflight answers OPTIONS: a CORS preflight when it has an Origin
// (httpedge.CORS.Preflight), else 404 as DynamoDB answers an OPTIONS without one.
func (e *Emulator) servePreflight(w http.ResponseWriter, r *http.Request) {
	if headerGet(r.Header, hdrOrigin) == "" {
		e.serveNotFound(w, r)
		return
	}
	e.cors.Preflight(w, r)
	h := w.Header()
	h[httploop.HeaderRequestID] = []string{httploop.NewRequestID()}
	h["Server"] = httploop.ServerHeader
	h["Content-Length"] = []string{"0"}
	w.WriteHeader(http.StatusOK)
}

// hostAllowed reports whether the edge answers r (internal/httpedge/hosts.go),
// logging the first refusals of each Host at warn level.
func (e *Emulator) hostAllowed(r *http.Request) bool {
	public, checked := httpedge.ArrivedPublic(r)
	if !checked || e.hosts.Allows(r.Host, public) {
		return true
	}
	level := slog.LevelDebug
	if e.hosts.FirstRefusal(r.Host) {
		level = slog.LevelWarn
	}
	e.log.Log(r.Context(), level, "refused a request for a Host this server does not answer (DNS rebinding defence); allow it with -allowHost",
		"host", r.Host, "remote", r.RemoteAddr, "path", r.URL.Path)
	return false
}

// corsExposed is the Access-Control-Expose-Headers value: DynamoDB's
// list, and the emulator's version for pages that show it.
const corsExposed = httpedge.ExposedAWS + "," + versionHeaderName

// serveRefused answers a request the edge refuses (a Host, an origin or a
// content type) with err's class and message, before any operation runs.
func (e *Emulator) serveRefused(w http.ResponseWriter, r *http.Request, err error) {
	ae, _ := apierr.Classify(err)
	writeResponse(w, r, httploop.NewRequestID(), ae.Class.Status, wire.AppendErrorBody(nil, ae))
}
