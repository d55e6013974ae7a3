package conformance

import (
	"context"
	"errors"
	"net"
	"net/http"
	"os"
	"sync/atomic"
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
	// CORS for every origin, as AWS's endpoint answers browsers.
	emu, err := emulator.New(emulator.Options{ExportDir: s3dir, CORSOrigins: []string{"*"}})
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

// The signing emulator: a second in-process emulator that verifies
// signatures (emulator.Options.Credentials), for the signature tests when
// the suite runs against the in-process emulator.
const (
	signingKeyID  = "AKIACONFORMANCE01"
	signingSecret = "conformance/signing+secret"
)

// startSigningEmulator serves an emulator that accepts signingKeyID alone
// and returns its URL and a function that shuts it down.
func startSigningEmulator() (string, func() error, error) {
	emu, err := emulator.New(emulator.Options{Credentials: []emulator.Credential{{AccessKeyID: signingKeyID, SecretAccessKey: signingSecret}}})
	if err != nil {
		return "", nil, err
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return "", nil, err
	}
	srv := emu.NewServer(emulator.ServerOptions{})
	done := make(chan error, 1)
	go func() { done <- srv.Serve(ln) }()
	stop := func() error {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		err := srv.Shutdown(ctx)
		emu.Close()
		if serr := <-done; !errors.Is(serr, http.ErrServerClosed) && err == nil {
			err = serr
		}
		return err
	}
	return "http://" + ln.Addr().String(), stop, nil
}

// The transient emulator: a third in-process emulator started as with
// -delayTransientStatuses (tables CREATING and DELETING for
// emulator.DefaultTransientStatusDelay) on a clock the tests move
// (transientClock), for the table status tests when the suite runs
// against the in-process emulator.

// testClock is the real time moved on by Advance.
type testClock struct{ offset atomic.Int64 }

func (c *testClock) Now() time.Time { return time.Now().Add(time.Duration(c.offset.Load())) }

// Advance moves the clock on by d.
func (c *testClock) Advance(d time.Duration) { c.offset.Add(int64(d)) }

// transientClock is the transient emulator's clock.
var transientClock testClock

// startTransientEmulator serves an emulator whose tables pass through
// CREATING and DELETING and returns its URL and a function that shuts it
// down.
func startTransientEmulator() (string, func() error, error) {
	emu, err := emulator.New(emulator.Options{DelayTransientStatuses: true, Clock: transientClock.Now})
	if err != nil {
		return "", nil, err
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return "", nil, err
	}
	srv := emu.NewServer(emulator.ServerOptions{})
	done := make(chan error, 1)
	go func() { done <- srv.Serve(ln) }()
	stop := func() error {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		err := srv.Shutdown(ctx)
		emu.Close()
		if serr := <-done; !errors.Is(serr, http.ErrServerClosed) && err == nil {
			err = serr
		}
		return err
	}
	return "http://" + ln.Addr().String(), stop, nil
}
