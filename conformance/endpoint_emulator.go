package conformance

import (
	"context"
	"errors"
	"net"
	"net/http"
	"os"
	"time"

	"github.com/dynamoemu/dynamoemu/emulator"
)

// startEmulator serves a fresh emulator on a free loopback port and returns its URL
// and a function that shuts it down.
func startEmulator() (string, func() error, error) {
	s3dir, err := os.MkdirTemp("", "dynamoemu-conformance-s3-") // the exports' "S3"
	if err != nil {
		return "", nil, err
	}
	emu, err := emulator.New(emulator.Options{ExportDir: s3dir})
	if err != nil {
		return "", nil, err
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return "", nil, err
	}
	// Served as cmd/dynamoemu serves: emulator.Server, with its connection
	// loop unless DYNAMOEMU_HTTP_LOOP=std.
	srv := emu.NewServer(emulator.ServerOptions{Loop: emulator.HTTPLoop(os.Getenv("DYNAMOEMU_HTTP_LOOP"))})
	done := make(chan error, 1)
	go func() { done <- srv.Serve(ln) }()
	stop := func() error {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		err := srv.Shutdown(ctx)
		emu.Close()
		_ = os.RemoveAll(s3dir)
		if serr := <-done; !errors.Is(serr, http.ErrServerClosed) && err == nil {
			err = serr
		}
		return err
	}
	return "http://" + ln.Addr().String(), stop, nil
}
