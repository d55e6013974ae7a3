package emulator

import (
	"net/http"
	"slices"
	"strings"
)

// corsPolicy answers browsers the way DynamoDB Local does with -cors: allowed
// origins get Access-Control-* headers and preflight answers.
type corsPolicy struct {
	enabled bool
	any     bool     // "*" was given
	origins []string // exact origins otherwise
}

func newCORSPolicy(origins []string) corsPolicy {
	p := corsPolicy{enabled: len(origins) > 0}
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
func (p corsPolicy) allowed(r *http.Request) string {
	if !p.enabled {
		return ""
	}
	origin := r.Header.Get("Origin")
	if p.any {
		if origin != "" {
			return origin
		}
		return "*"
	}
	if origin != "" && slices.Contains(p.origins, origin) {
		return origin
	}
	return ""
}

// allowsOrigin reports whether a request from a page of origin may be
// answered: -cors lists it, or says "*". Without -cors no origin is
// allowed: a page's request carries Origin, a tool's (SDK, CLI, curl) does
// not.
func (p corsPolicy) allowsOrigin(origin string) bool {
	return p.enabled && (p.any || slices.Contains(p.origins, origin))
}

// exposed are the response headers browsers may read (the SDKs need them).
const corsExposed = "x-amzn-RequestId,x-amz-crc32,x-amz-id-2"

// apply sets the CORS headers of an actual request.
func (p corsPolicy) apply(w http.ResponseWriter, r *http.Request) {
	origin := p.allowed(r)
	if origin == "" {
		return
	}
	h := w.Header()
	h.Set("Access-Control-Allow-Origin", origin)
	h.Set("Access-Control-Expose-Headers", corsExposed)
	if origin != "*" {
		h.Add("Vary", "Origin")
	}
}

// preflight sets the headers of an OPTIONS answer.
func (p corsPolicy) preflight(w http.ResponseWriter, r *http.Request) {
	origin := p.allowed(r)
	if origin == "" {
		return
	}
	h := w.Header()
	h.Set("Access-Control-Allow-Origin", origin)
	h.Set("Access-Control-Allow-Methods", "GET,POST,OPTIONS")
	if req := r.Header.Get("Access-Control-Request-Headers"); req != "" {
		h.Set("Access-Control-Allow-Headers", req)
	} else {
		h.Set("Access-Control-Allow-Headers", "*")
	}
	h.Set("Access-Control-Max-Age", "1728000")
	if origin != "*" {
		h.Add("Vary", "Origin")
	}
}
