package main

import (
	"context"
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
//
// The listeners are plain TCP: Go listens with Multipath TCP by default
// where the kernel has it, and creating that socket was a measurable part
// of start-up here (perf, BenchmarkStartup) for nothing a local emulator's
// clients use.
func listen(host string, port int, bothLoopbacks bool, log *slog.Logger) ([]net.Listener, error) {
	var lc net.ListenConfig
	lc.SetMultipathTCP(false)
	ctx := context.Background()
	ln, err := lc.Listen(ctx, "tcp", net.JoinHostPort(host, strconv.Itoa(port)))
	if err != nil {
		return nil, err
	}
	lns := []net.Listener{ln}
	tcp, ok := ln.Addr().(*net.TCPAddr)
	if !bothLoopbacks || !ok {
		return lns, nil
	}
	ln6, err := lc.Listen(ctx, "tcp6", net.JoinHostPort("::1", strconv.Itoa(tcp.Port)))
	if err != nil {
		log.Warn("listening on 127.0.0.1 only: ::1 is unavailable", "err", err)
		return lns, nil
	}
	return append(lns, ln6), nil
}
