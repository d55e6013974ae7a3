package httpedge

import (
	"fmt"
	"mime"
	"net/http"
	"strings"

	"github.com/dynamoemu/dynamoemu/emulator/internal/apierr"
)

// What the admin endpoints (the emulator's admin routes, the console:
// every path under /dynamoemu/) take: only requests that a web page cannot send cross-site without a CORS
// preflight, and no request from a page of an origin that is not allowed.
//
// A page can send a "simple" request to any address without asking: GET,
// or POST with Content-Type text/plain, multipart/form-data or
// application/x-www-form-urlencoded (or none), and no other headers of its
// own. The browser does not let the page read the answer, but the request
// has its effect: a POST /dynamoemu/clock from a page the developer opens
// would move the clock and a sweep would then delete items. So:
//
//   - A request with an Origin header is refused with 403, whatever its
//     method, unless the origin is allowed (CORS: a loopback origin, or
//     one -cors names) or is the server's own: the scheme and Host the
//     request came with, as from the console's page,
//     which Chromium sends with its same-origin POSTs and DELETEs and
//     module script loads. The Host check (hosts.go) has run before: a
//     page that DNS rebinding made same-origin has a Host the server does
//     not answer (unless -allowHost '*' gave up that defence, and with it
//     the API too). Browsers send Origin with every cross-origin request
//     but navigations and images; tools (SDKs, the AWS CLI, curl) send
//     none.
//   - A request that can change state (any method but GET, HEAD and
//     OPTIONS) needs Content-Type application/json, which no simple request
//     has; without it the answer is 415. A browser sends it cross-site only
//     after a preflight, which the emulator approves for -cors origins
//     alone. This also covers browsers that send no Origin on a form POST.
//
// The DynamoDB API itself (POST /) needs neither check: every operation is
// named by the X-Amz-Target header, which no simple request can carry, so a
// cross-site page reaches it only through a preflight, that is only from a
// -cors origin.

// AdminGuard returns the error that refuses r, a request to a path other
// than "/", with c the emulator's CORS policy, or nil.
func AdminGuard(c *CORS, r *http.Request) error {
	for _, origin := range r.Header.Values("Origin") {
		if !c.AllowsOrigin(origin) && !isSameOrigin(r, origin) {
			return apierr.New(apierr.ErrForbidden, fmt.Sprintf(apierr.MsgAdminOrigin, origin))
		}
	}
	switch r.Method {
	case http.MethodGet, http.MethodHead, http.MethodOptions:
		return nil
	}
	if !IsJSONContentType(r.Header.Values("Content-Type")) {
		return apierr.New(apierr.ErrUnsupportedMediaType, fmt.Sprintf(apierr.MsgAdminContentType, r.Method, shortPath(r.URL.Path)))
	}
	return nil
}

// LambdaGuard returns the error that refuses r, a request of Lambda's
// event source mapping API, or nil. A mapping makes
// the server call any HTTP endpoint with the stream's records (its
// Endpoint) and write any file (its on-failure destination), so a web
// page may not make one: as AdminGuard, a request from a page of an
// origin that is not allowed is refused (403), and a POST or PUT needs
// Content-Type application/json (415), which the AWS CLI and the SDKs
// send with their bodies and no simple request has. A DELETE without a
// body (the CLI's) needs no type: no page sends a DELETE cross-site
// without a preflight.
func LambdaGuard(c *CORS, r *http.Request) error {
	if r.Method == http.MethodDelete {
		for _, origin := range r.Header.Values("Origin") {
			if !c.AllowsOrigin(origin) && !isSameOrigin(r, origin) {
				return apierr.New(apierr.ErrForbidden, fmt.Sprintf(apierr.MsgAdminOrigin, origin))
			}
		}
		return nil
	}
	return AdminGuard(c, r)
}

// maxEchoedPath is the most of a path an answer repeats: a path may be
// as long as the request line allows (16 KB), an answer need not be.
const maxEchoedPath = 64

// shortPath is path, cut to maxEchoedPath bytes with "..." when longer.
func shortPath(path string) string {
	if len(path) <= maxEchoedPath {
		return path
	}
	return path[:maxEchoedPath] + "..."
}

// isSameOrigin reports whether origin is the origin r was sent to: its
// scheme and its Host header (browsers write the origin in lower case and
// leave out a default port, as in Host).
func isSameOrigin(r *http.Request, origin string) bool {
	scheme := "http://"
	if r.TLS != nil {
		scheme = "https://"
	}
	rest, ok := strings.CutPrefix(origin, scheme)
	return ok && r.Host != "" && strings.EqualFold(rest, r.Host)
}

// IsJSONContentType reports whether the Content-Type values of a request are
// one application/json media type (parameters such as charset allowed).
func IsJSONContentType(values []string) bool {
	if len(values) != 1 {
		return false
	}
	mt, _, err := mime.ParseMediaType(values[0])
	return err == nil && mt == "application/json"
}
