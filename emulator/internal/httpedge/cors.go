package httpedge

import (
	"net/http"
	"slices"
	"strings"
)

// Which web pages may call the emulator from a browser (CORS), and what
// they are told.
//
// Without Options.Credentials the emulator checks no signature, so CORS is
// what keeps the pages a developer happens to open from using it. It answers, without flags, the
// pages served from loopback origins (http:// or https:// and localhost,
// 127.0.0.1 or [::1], any port): the developer's own front end on
// http://localhost:3000 works out of the box, and no page of the internet
// has such an origin (DNS rebinding gives a page the emulator's address,
// never a loopback origin: the origin is the name in the page's URL).
// the emulator's Options.CORSOrigins (-cors) adds origins; "*" allows any.
//
// The others: DynamoDB Local answers any origin by default ("-cors *"
// unless given a list). AWS's DynamoDB endpoint answers browsers too (the
// JavaScript SDK's browser build calls it directly), but every request
// there is authorized by its signature, not by the page's origin, so its
// CORS answer is no access control; here, with no signatures, the origin
// is the only one, hence the narrower default.
//
// The answer: an allowed origin gets Access-Control-Allow-Origin with
// itself (and Vary: Origin), or "*" when "*" was given (the same for every
// page: no Vary needed, and no page may send cookies with it, which no
// SDK does); a request without an Origin (SDKs, the AWS CLI, curl) gets
// no CORS headers at all.
//
// The headers are AWS's (DynamoDB's answer to a preflight, recorded
// 2020-10-26 in a survey of every AWS endpoint's CORS answers, and
// ScyllaDB's test_cors.py, run against DynamoDB): every answer to an
// allowed origin carries Access-Control-Allow-Origin and
// Access-Control-Expose-Headers; a preflight also echoes the method and
// headers it asks for (Access-Control-Allow-Methods, -Allow-Headers) and
// says Access-Control-Max-Age: 172800, and nothing else.

// CORS decides which origins are answered, and what they are told. Its
// fields are set by NewCORS and read-only after.
type CORS struct {
	any     bool     // "*" was given
	origins []string // exact origins given, besides the loopback ones
	exposed string   // Access-Control-Expose-Headers
}

// NewCORS returns the policy of Options.CORSOrigins. exposed is the
// Access-Control-Expose-Headers value: ExposedAWS, and what the emulator
// adds to it.
func NewCORS(origins []string, exposed string) CORS {
	p := CORS{exposed: exposed}
	for _, o := range origins {
		o = strings.TrimSpace(o)
		if o == "*" {
			p.any = true
		} else if o != "" {
			p.origins = append(p.origins, o)
		}
	}
	return p
}

// allowed returns the Access-Control-Allow-Origin value for r, or "".
func (p CORS) allowed(r *http.Request) string {
	var origin string
	if v := r.Header["Origin"]; len(v) > 0 { // canonical already: no Get
		origin = v[0]
	}
	switch {
	case origin == "":
		return ""
	case p.any:
		return "*"
	case IsLoopbackOrigin(origin), slices.Contains(p.origins, origin):
		return origin
	}
	return ""
}

// AllowsOrigin reports whether a request from a page of origin may be
// answered: a loopback origin, one -cors lists, or any when -cors says
// "*". A page's request carries Origin; a tool's (SDK, CLI, curl) does
// not.
func (p CORS) AllowsOrigin(origin string) bool {
	return p.any || IsLoopbackOrigin(origin) || slices.Contains(p.origins, origin)
}

// loopbackHosts are the hosts of the origins allowed by default, as
// browsers write them in Origin.
var loopbackHosts = []string{"localhost", "127.0.0.1", "[::1]"}

// IsLoopbackOrigin reports whether origin is http:// or https:// and a
// loopback host, with a port or without.
func IsLoopbackOrigin(origin string) bool {
	rest, ok := strings.CutPrefix(origin, "http://")
	if !ok {
		if rest, ok = strings.CutPrefix(origin, "https://"); !ok {
			return false
		}
	}
	for _, h := range loopbackHosts {
		if port, ok := strings.CutPrefix(rest, h); ok && isPort(port) {
			return true
		}
	}
	return false
}

// ExposedAWS are the response headers browsers may read: DynamoDB's list
// ("x-amzn-RequestId,x-amzn-ErrorType,x-amzn-ErrorMessage,Date"), then
// x-amz-crc32, which DynamoDB does not expose but the SDKs check when they
// can read it. The emulator adds its version header, for pages that show it.
const ExposedAWS = "x-amzn-RequestId,x-amzn-ErrorType,x-amzn-ErrorMessage,Date,x-amz-crc32"

// corsMaxAge is how long a browser may keep a preflight's answer:
// DynamoDB's 172800 seconds (two days; browsers cap it lower).
const corsMaxAge = "172800"

// Apply sets the CORS headers of an actual request.
func (p CORS) Apply(w http.ResponseWriter, r *http.Request) {
	origin := p.allowed(r)
	if origin == "" {
		return
	}
	h := w.Header()
	h.Set("Access-Control-Allow-Origin", origin)
	h.Set("Access-Control-Expose-Headers", p.exposed)
	if origin != "*" {
		h.Add("Vary", "Origin")
	}
}

// Preflight sets the headers of an OPTIONS answer: those of Apply, the
// method and headers asked for echoed back, and the Max-Age.
func (p CORS) Preflight(w http.ResponseWriter, r *http.Request) {
	if p.allowed(r) == "" {
		return
	}
	p.Apply(w, r)
	h := w.Header()
	if req := r.Header.Get("Access-Control-Request-Headers"); req != "" {
		h.Set("Access-Control-Allow-Headers", req)
	}
	if req := r.Header.Get("Access-Control-Request-Method"); req != "" {
		h.Set("Access-Control-Allow-Methods", req)
	}
	h.Set("Access-Control-Max-Age", corsMaxAge)
}
