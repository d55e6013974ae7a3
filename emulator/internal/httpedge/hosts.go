package httpedge

import (
	"fmt"
	"net"
	"net/http"
	"net/netip"
	"strings"
	"sync"

	"github.com/dynamoemu/dynamoemu/emulator/internal/apierr"
)

// The Host names the emulator answers: a defence against DNS rebinding.
//
// A web page the developer opens can make the browser send requests to
// http://127.0.0.1:8000, but it cannot read the answers, nor send
// DynamoDB's headers (X-Amz-Target, Authorization) without a CORS preflight
// that only -cors approves. DNS rebinding removes both limits: the page's
// own name (evil.example) is made to resolve to 127.0.0.1, so the emulator
// becomes the page's own origin and the browser sends it anything, with
// "Host: evil.example:8000". Rebinding needs a name whose DNS answers the
// attacker controls, so the edge refuses Host names that can live in the
// public DNS unless the emulator's Options.AllowHosts names them. It allows:
//
//   - always: IP addresses (no DNS: a page whose origin is an IP address is
//     served by that address, never by the emulator); localhost and
//     *.localhost (RFC 6761: loopback by definition, browsers do not ask the
//     DNS); *.internal (ICANN's private-use top-level domain, absent from
//     the public DNS: Docker's host.docker.internal, Podman's
//     host.containers.internal); an empty Host (HTTP/1.0; browsers always
//     send one); and Options.AllowHosts.
//   - on a connection that arrived at a non-loopback address (a server
//     listening on 0.0.0.0 or a LAN address, as in a container), also
//     single-label names (docker compose and CI service names such as
//     "dynamodb"), *.local (multicast DNS, Kubernetes' cluster.local) and
//     *.home.arpa (RFC 8375). Only machines of the same network answer for
//     those names (multicast DNS, LLMNR, the local resolver), and such a
//     machine reaches a non-loopback listener directly anyway. A connection
//     to a loopback address does not take them, so that a neighbour cannot
//     rebind one of them to 127.0.0.1 and reach a server that listens on
//     loopback only.
//
// A request that did not come through a net/http server (no
// http.LocalAddrContextKey in its context: emulatortest.New's in-process
// transport, httptest.NewRequest given to the handler) is not checked: no
// browser sent it.
//
// The refusal: AWS's endpoints route by Host, and what they answer to a Host
// they do not serve is neither documented nor in the public records we
// searched; DynamoDB Local answers any Host. The emulator answers 403 with a
// DynamoDB error body, __type AccessDeniedException and a message naming the
// Host and the flag that allows it: SDKs and the AWS CLI decode it into an
// error that says what to do, and none retries a 403 AccessDeniedException.

// Hosts decides which Host names are answered. Its fields are set by
// NewHosts and read-only after, but for refused, which has its own lock.
type Hosts struct {
	any      bool     // "*" was given: no check
	names    []string // exact names, lower case, no trailing dot
	suffixes []string // ".example.com" for each "*.example.com"
	refused  refusedHosts
}

// NewHosts returns the policy of Options.AllowHosts (already validated
// by ValidateAllowHost).
func NewHosts(allow []string) *Hosts {
	p := &Hosts{}
	for _, a := range allow {
		a = normalizeHostName(strings.TrimSpace(a))
		switch {
		case a == "*":
			p.any = true
		case strings.HasPrefix(a, "*."):
			p.suffixes = append(p.suffixes, a[1:])
		default:
			p.names = append(p.names, strings.TrimSuffix(strings.TrimPrefix(a, "["), "]"))
		}
	}
	return p
}

// ValidateAllowHost reports whether a is a usable Options.AllowHosts entry:
// "*", a name or IP address, or "*." and a name; no port.
func ValidateAllowHost(a string) error {
	a = strings.TrimSpace(a)
	if a == "*" {
		return nil
	}
	name := strings.TrimPrefix(a, "*.")
	if ip := strings.TrimSuffix(strings.TrimPrefix(name, "["), "]"); name == a {
		if _, err := netip.ParseAddr(ip); err == nil {
			return nil
		}
	}
	if strings.Contains(name, ":") {
		return fmt.Errorf("emulator: allowed host %q has a port: give the name alone (every port is allowed)", a)
	}
	name = strings.TrimSuffix(name, ".")
	if name == "" {
		return fmt.Errorf("emulator: allowed host %q is empty", a)
	}
	for _, label := range strings.Split(name, ".") {
		if label == "" {
			return fmt.Errorf("emulator: allowed host %q has an empty label", a)
		}
		for i := 0; i < len(label); i++ {
			if c := label[i]; !('a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '-' || c == '_') {
				return fmt.Errorf("emulator: allowed host %q: %q is not a character of a host name", a, c)
			}
		}
	}
	return nil
}

// Allows reports whether a request for Host header host is answered.
// public says the request arrived at a non-loopback address.
func (p *Hosts) Allows(host string, public bool) bool {
	if p.any || host == "" {
		return true
	}
	name, ok := hostOfHeader(host)
	if !ok {
		return false
	}
	name = normalizeHostName(name)
	if name == "" {
		return false
	}
	if isIPAddress(name) {
		return true
	}
	switch {
	case name == "localhost", strings.HasSuffix(name, ".localhost"), strings.HasSuffix(name, ".internal"):
		return true
	case public && (!strings.Contains(name, ".") || strings.HasSuffix(name, ".local") || strings.HasSuffix(name, ".home.arpa")):
		return true
	}
	for _, n := range p.names {
		if name == n {
			return true
		}
	}
	for _, s := range p.suffixes {
		if strings.HasSuffix(name, s) {
			return true
		}
	}
	return false
}

// isIPAddress reports whether name is an IPv4 or IPv6 address (with a zone
// or not). Only what may be one is parsed: netip's error allocates.
func isIPAddress(name string) bool {
	if strings.IndexByte(name, ':') < 0 && strings.Trim(name, "0123456789.") != "" {
		return false
	}
	_, err := netip.ParseAddr(name)
	return err == nil
}

// normalizeHostName lower-cases the ASCII letters of a host name (without
// allocating when there are none upper case) and drops one trailing dot
// ("localhost." is localhost). Other bytes stay as they are: Unicode case
// folding would make "localhoſt" (a long s) localhost.
func normalizeHostName(name string) string {
	name = strings.TrimSuffix(name, ".")
	for i := 0; i < len(name); i++ {
		if 'A' <= name[i] && name[i] <= 'Z' {
			b := []byte(name)
			for j := i; j < len(b); j++ {
				if 'A' <= b[j] && b[j] <= 'Z' {
					b[j] += 'a' - 'A'
				}
			}
			return string(b)
		}
	}
	return name
}

// hostOfHeader returns the host part of a Host header: "name", "name:port",
// "1.2.3.4:port", "[::1]:port", or a bare IPv6 address "::1". ok is false
// for anything else (a port that is not digits, text after "]").
func hostOfHeader(h string) (name string, ok bool) {
	if strings.HasPrefix(h, "[") {
		end := strings.IndexByte(h, ']')
		if end < 0 || !isPort(h[end+1:]) {
			return "", false
		}
		return h[1:end], true
	}
	i := strings.IndexByte(h, ':')
	switch {
	case i < 0:
		return h, true
	case strings.IndexByte(h[i+1:], ':') >= 0:
		// Two colons or more: a bare IPv6 address, or nothing.
		if _, err := netip.ParseAddr(h); err != nil {
			return "", false
		}
		return h, true
	case !isPort(h[i:]):
		return "", false
	}
	return h[:i], true
}

// isPort reports whether s is empty or ":" followed by at most 5 digits.
func isPort(s string) bool {
	if s == "" {
		return true
	}
	if s[0] != ':' || len(s) > 6 {
		return false
	}
	for i := 1; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}

// ArrivedPublic tells how a request reached the server: checked is false
// when it came through no net/http server (no local address in its
// context); public is true when the connection's local address is not a
// loopback address. A local address that is not TCP (a Unix socket) counts
// as loopback.
func ArrivedPublic(r *http.Request) (public, checked bool) {
	addr, ok := r.Context().Value(http.LocalAddrContextKey).(net.Addr)
	if !ok {
		return false, false
	}
	return ArrivedAtPublic(addr), true
}

// ArrivedAtPublic reports whether a connection's local address addr is a
// TCP address other than a loopback one.
func ArrivedAtPublic(addr net.Addr) bool {
	if tcp, ok := addr.(*net.TCPAddr); ok {
		return !tcp.IP.IsLoopback()
	}
	return false
}

// ErrHostRefused is the edge's answer to a Host it does not serve.
func ErrHostRefused(host string) error {
	name, ok := hostOfHeader(host)
	hint := fmt.Sprintf(apierr.MsgHostAllowHint, strings.TrimSuffix(strings.TrimPrefix(name, "["), "]"))
	if !ok || name == "" {
		hint = apierr.MsgHostFormHint
	}
	return apierr.New(apierr.ErrForbidden, fmt.Sprintf(apierr.MsgHostRefused, host, hint))
}

// maxRefusedHostsLogged bounds the Host names remembered as logged.
const maxRefusedHostsLogged = 64

// refusedHosts remembers which refused Host names were logged at warn
// level, so a page that retries in a loop does not flood the log.
type refusedHosts struct {
	mu    sync.Mutex          // guards names
	names map[string]struct{} // at most maxRefusedHostsLogged
}

// FirstRefusal reports whether host is refused for the first time (and
// there is room to remember it): the first refusals are logged at warn
// level, the others at debug.
func (p *Hosts) FirstRefusal(host string) bool { return p.refused.first(host) }

// first reports whether host is refused for the first time (and there is
// room to remember it).
func (h *refusedHosts) first(host string) bool {
	h.mu.Lock()
	defer h.mu.Unlock()
	if _, seen := h.names[host]; seen || len(h.names) >= maxRefusedHostsLogged {
		return false
	}
	if h.names == nil {
		h.names = make(map[string]struct{})
	}
	h.names[host] = struct{}{}
	return true
}
