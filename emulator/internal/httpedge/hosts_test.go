package httpedge

import (
	"net/netip"
	"strings"
	"testing"
)

func TestHostPolicy(t *testing.T) {
	p := NewHosts([]string{"dynamodb.ci.example", "*.corp.example", "[fd00::1]"})
	tests := []struct {
		host           string
		loopback, open bool // answered on a loopback connection, on another
	}{
		{"", true, true},
		{"localhost", true, true},
		{"localhost:8000", true, true},
		{"LOCALHOST:8000", true, true},
		{"localhost.", true, true},
		{"a.b.localhost:1", true, true},
		{"127.0.0.1:8000", true, true},
		{"127.255.0.9", true, true},
		{"[::1]:8000", true, true},
		{"::1", true, true},
		{"[::1]", true, true},
		{"[fe80::1%25eth0]:8000", true, true},
		{"0.0.0.0:8000", true, true},
		{"10.0.0.7:8000", true, true},
		{"host.docker.internal:8000", true, true},
		{"dynamodb.ci.example:8000", true, true},
		{"DynamoDB.CI.example.:8000", true, true},
		{"x.corp.example", true, true},
		{"corp.example", false, false},
		{"xcorp.example", false, false},
		{"dynamodb:8000", false, true},
		{"dynamodb.local:8000", false, true},
		{"nas.home.arpa", false, true},
		{"attacker.example:8000", false, false},
		{"attacker.example", false, false},
		{"localhost.attacker.example", false, false},
		{"internal.attacker.example", false, false},
		{"dynamodb.default:8000", false, false},
		{".", false, false},
		{":8000", false, false},
		{"localhost:8x", false, false},
		{"localhost:123456", false, false},
		{"localhost:80:80", false, false},
		{"[::1", false, false},
		{"[::1]:", true, true},
		{"[::1]8000", false, false},
		{"1:2:3", false, false},
	}
	for _, tt := range tests {
		if got := p.Allows(tt.host, false); got != tt.loopback {
			t.Errorf("Host %q on a loopback connection: got %v, want %v", tt.host, got, tt.loopback)
		}
		if got := p.Allows(tt.host, true); got != tt.open {
			t.Errorf("Host %q on a non-loopback connection: got %v, want %v", tt.host, got, tt.open)
		}
	}
	if !NewHosts([]string{"*"}).Allows("attacker.example:1", false) {
		t.Error(`"*" refused a Host`)
	}
}

func TestValidateAllowHost(t *testing.T) {
	for _, tt := range []struct {
		entry string
		ok    bool
	}{
		{"dynamodb", true},
		{"dynamodb.ci.example", true},
		{"dynamodb.ci.example.", true},
		{"*.ci.example", true},
		{"*", true},
		{"10.0.0.1", true},
		{"::1", true},
		{"[::1]", true},
		{"my_host", true},
		{"", false},
		{" ", false},
		{"dynamodb:8000", false},
		{"*.ci.example:8000", false},
		{"a..b", false},
		{"*.", false},
		{"**", false},
		{"http://dynamodb", false},
		{"dyn amodb", false},
		{"a/b", false},
	} {
		if err := ValidateAllowHost(tt.entry); (err == nil) != tt.ok {
			t.Errorf("%q: got %v, want ok %v", tt.entry, err, tt.ok)
		}
	}
}

// FuzzHostPolicy: any Host header gets an answer without panicking, and
// the answers keep their invariants: a non-loopback connection allows what
// a loopback one does, case and a port do not change the answer, and an
// allowed name that is not listed is an IP address or a name no public DNS
// can answer.
func FuzzHostPolicy(f *testing.F) {
	for _, s := range []string{"localhost:8000", "127.0.0.1:8000", "[::1]:8000", "attacker.example:8000", "dynamodb",
		"host.docker.internal", "a.local", "[fe80::1%25en0]:1", "::1", "[::1", "1:2:3", ".", "LOCALHOST.", "x.corp.example"} {
		f.Add(s)
	}
	p := NewHosts([]string{"*.corp.example", "listed.example"})
	f.Fuzz(func(t *testing.T, host string) {
		loop, open := p.Allows(host, false), p.Allows(host, true)
		if loop && !open {
			t.Fatalf("%q: allowed on loopback, refused elsewhere", host)
		}
		if up := asciiUpper(host); !strings.Contains(host, "%") && p.Allows(up, false) != loop {
			t.Fatalf("%q: case changes the answer", host)
		}
		name, ok := hostOfHeader(host)
		if !ok {
			if host != "" && (loop || open) {
				t.Fatalf("%q: unparsable, yet allowed", host)
			}
			return
		}
		if host != "" && !strings.Contains(name, ":") && !strings.Contains(host, "]") {
			if got := p.Allows(name+":8000", false); got != loop {
				t.Fatalf("%q: a port changes the answer (%v, with one %v)", host, loop, got)
			}
		}
		n := normalizeHostName(name)
		if _, err := netip.ParseAddr(n); err == nil || !loop || host == "" {
			return
		}
		if !(n == "localhost" || strings.HasSuffix(n, ".localhost") || strings.HasSuffix(n, ".internal") ||
			n == "listed.example" || strings.HasSuffix(n, ".corp.example")) {
			t.Fatalf("%q: allowed on loopback, but name %q is neither local nor listed", host, n)
		}
	})
}

func asciiUpper(s string) string {
	b := []byte(s)
	for i, c := range b {
		if 'a' <= c && c <= 'z' {
			b[i] = c - ('a' - 'A')
		}
	}
	return string(b)
}
