package conformance

import (
	"context"
	"errors"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"time"

	"github.com/dynamoemu/dynamoemu/emulator"
)

// conformanceBucket is the S3 bucket the suite's exports and imports
// name; against AWS it must exist in the account.
const conformanceBucket = "dynamoemu-conformance"

// startEmulator serves a fresh emulator on a free loopback port and returns its URL
// and a function that shuts it down.
func startEmulator() (string, func() error, error) {
	s3dir, err := os.MkdirTemp("", "dynamoemu-conformance-s3-") // the exports' "S3"
	if err != nil {
		return "", nil, err
	}
	// The suite's bucket, made first as on S3 (an export to a bucket not
	// made ends FAILED, S3NoSuchBucket).
	if err := os.Mkdir(filepath.Join(s3dir, conformanceBucket), 0o755); err != nil {
		return "", nil, err
	}
	// CORS for every origin, as AWS's endpoint answers browsers.
	emu, err := emulator.New(emulator.Options{ExportDir: s3dir, CORSOrigins: []string{"*"}})
	if err != nil {
		return "", nil, err
	}
	// Served as cmd/dynamoemu serves: emulator.Server, with its connection
	// loop unless DYNAMOEMU_HTTP_LOOP=std.
	so := emulator.ServerOptions{Loop: emulator.HTTPLoop(os.Getenv("DYNAMOEMU_HTTP_LOOP"))}
	return serveEmulator(emu, so, func() { _ = os.RemoveAll(s3dir) })
}

// serveEmulator serves emu with so on a free loopback port and returns
// its URL and a function that shuts the server and emu down, then runs
// after (nil: nothing). Its read and write timeouts are the suite's
// request bound (ctx's), its header timeout 2 minutes, times the scale:
// bounds that only catch a hang. Under -race on a busy machine a body of
// megabytes (TestItemSizeWrites' lists of 409,594 values, 7.4 MB), read
// while the server decodes it, outlasted the 60 s default users get.
func serveEmulator(emu *emulator.Emulator, so emulator.ServerOptions, after func()) (string, func() error, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		emu.Close()
		return "", nil, err
	}
	so.ReadHeaderTimeout = scaled(2 * time.Minute)
	so.ReadTimeout = scaled(requestBound)
	so.WriteTimeout = scaled(requestBound)
	srv := emu.NewServer(so)
	done := make(chan error, 1)
	go func() { done <- srv.Serve(ln) }()
	stop := func() error {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		err := srv.Shutdown(ctx)
		emu.Close()
		if after != nil {
			after()
		}
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
	return serveEmulator(emu, emulator.ServerOptions{}, nil)
}

// The transient emulator: a third in-process emulator started as with
// -delayTransientStatuses (tables CREATING and DELETING for
// Options.TransientStatusDelay's default), whose clock the tests move
// (transientEmu.Advance), for the table status tests when the suite runs
// against the in-process emulator.
var transientEmu *emulator.Emulator

// startTransientEmulator serves an emulator whose tables pass through
// CREATING and DELETING and returns its URL and a function that shuts it
// down.
func startTransientEmulator() (string, func() error, error) {
	emu, err := emulator.New(emulator.Options{DelayTransientStatuses: true})
	if err != nil {
		return "", nil, err
	}
	transientEmu = emu
	return serveEmulator(emu, emulator.ServerOptions{}, nil)
}

// requestBound is how long a request of the suite may take, times the
// scale (ctx, serveEmulator): it only catches a hang, generous for a
// loaded machine running the race detector (a request of 2 MB of
// placeholders takes tens of seconds there).
const requestBound = 5 * time.Minute

// timeScaleEnv scales the suite's bounds: on a machine slower or busier
// than a shared 2-core one, set it above 1 (DYNAMOEMU_TEST_TIMEOUT_SCALE=3).
const timeScaleEnv = "DYNAMOEMU_TEST_TIMEOUT_SCALE"

// scaled is d times the scale timeScaleEnv gives (1 when unset or not a
// positive number).
func scaled(d time.Duration) time.Duration {
	if f, err := strconv.ParseFloat(os.Getenv(timeScaleEnv), 64); err == nil && f > 0 {
		return time.Duration(float64(d) * f)
	}
	return d
}
