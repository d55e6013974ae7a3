package main

import (
	"log/slog"
	"net"
	"strconv"
)

// listen opens the server's listeners. With an explicit -host it listens
// there alone. By default it listens on both loopback addresses, 127.0.0.1
// and ::1, on the same port: "localhost" resolves to ::1 first on many
// systems, and some clients do not fall back to 127.0.0.1. Nothing listens
// on a public interface unless -host says so. Where ::1 is unavailable (no
// IPv6, or its port taken) the IPv4 listener serves alone, with a warning.
func listen(host string, port int, bothLoopbacks bool, log *slog.Logger) ([]net.Listener, error) {
	ln, err := net.Listen("tcp", net.JoinHostPort(host, strconv.Itoa(port)))
	if err != nil {
		return nil, err
	}
	lns := []net.Listener{ln}
	tcp, ok := ln.Addr().(*net.TCPAddr)
	if !bothLoopbacks || !ok {
		return lns, nil
	}
	ln6, err := net.Listen("tcp6", net.JoinHostPort("::1", strconv.Itoa(tcp.Port)))
	if err != nil {
		log.Warn("listening on 127.0.0.1 only: ::1 is unavailable", "err", err)
		return lns, nil
	}
	return append(lns, ln6), nil
}
