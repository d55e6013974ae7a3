package emulator

import (
	"fmt"
	"mime"
	"net/http"

	"github.com/dynamoemu/dynamoemu/emulator/internal/apierr"
	"github.com/dynamoemu/dynamoemu/emulator/internal/wire"
)

// What the admin endpoints (admin.go, and every path but "/") take: only
// requests that a web page cannot send cross-site without a CORS preflight,
// and no request from a page that -cors does not name.
//
// A page can send a "simple" request to any address without asking: GET,
// or POST with Content-Type text/plain, multipart/form-data or
// application/x-www-form-urlencoded (or none), and no other headers of its
// own. The browser does not let the page read the answer, but the request
// has its effect: a POST /dynamoemu/clock from a page the developer opens
// would move the clock and a sweep would then delete items. So:
//
//   - A request with an Origin header that -cors does not allow is refused
//     with 403, whatever its method. Browsers send Origin with every
//     cross-origin request but navigations and images; tools (SDKs, the
//     AWS CLI, curl) send none.
//   - A request that can change state (any method but GET, HEAD and
//     OPTIONS) needs Content-Type application/json, which no simple request
//     has; without it the answer is 415. A browser sends it cross-site only
//     after a preflight, which the emulator approves for -cors origins
//     alone. This also covers browsers that send no Origin on a form POST.
//
// The DynamoDB API itself (POST /) needs neither check: every operation is
// named by the X-Amz-Target header, which no simple request can carry, so a
// cross-site page reaches it only through a preflight, that is only from a
// -cors origin (server.go's serveOp).

// adminGuard returns the error that refuses r, a request to a path other
// than "/", or nil.
func (e *Emulator) adminGuard(r *http.Request) error {
	for _, origin := range r.Header.Values("Origin") {
		if !e.cors.allowsOrigin(origin) {
			return apierr.New(apierr.ErrForbidden, fmt.Sprintf(apierr.MsgAdminOrigin, origin))
		}
	}
	switch r.Method {
	case http.MethodGet, http.MethodHead, http.MethodOptions:
		return nil
	}
	if !isJSONContentType(r.Header.Values("Content-Type")) {
		return apierr.New(apierr.ErrUnsupportedMediaType, fmt.Sprintf(apierr.MsgAdminContentType, r.Method, r.URL.Path))
	}
	return nil
}

// isJSONContentType reports whether the Content-Type values of a request are
// one application/json media type (parameters such as charset allowed).
func isJSONContentType(values []string) bool {
	if len(values) != 1 {
		return false
	}
	mt, _, err := mime.ParseMediaType(values[0])
	return err == nil && mt == "application/json"
}

// serveRefused answers a request the edge refuses (a Host, an origin or a
// content type) with err's class and message, before any operation runs.
func (e *Emulator) serveRefused(w http.ResponseWriter, r *http.Request, err error) {
	ae, _ := apierr.Classify(err)
	writeResponse(w, r, newRequestID(), ae.Class.Status, wire.AppendErrorBody(nil, ae))
}
