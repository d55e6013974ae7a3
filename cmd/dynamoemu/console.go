package main

import (
	"net"
	"net/http"
	"strconv"
	"strings"

	"github.com/dynamoemu/dynamoemu/cmd/internal/console"
	"github.com/dynamoemu/dynamoemu/emulator"
	"github.com/dynamoemu/dynamoemu/internal/adminpath"
)

// consoleHandler returns the web console's handler for emulator.Options,
// or nil with -console=false. The console is served on the server's own
// port at adminpath.Console, behind the edge's Host and Origin checks
// (emulator/console_mount.go).
func consoleHandler(c config) (http.Handler, error) {
	if !c.console {
		return nil, nil
	}
	return console.Handler(console.Options{
		Prefix:     adminpath.Console,
		SharedDB:   c.sharedDB,
		Version:    emulator.Version(),
		Signatures: c.credentials != "",
	})
}

// consoleURL is the console's address for a browser on this machine, on
// the server at url (http://host:port) listening at addr: localhost when
// the server listens on all interfaces (a browser cannot open 0.0.0.0),
// or behind a published container port.
func consoleURL(url string, addr net.Addr) string {
	if tcp, ok := addr.(*net.TCPAddr); ok && tcp.IP.IsUnspecified() {
		url = "http://localhost:" + strconv.Itoa(tcp.Port)
	}
	return strings.TrimSuffix(url, "/") + adminpath.Console
}
