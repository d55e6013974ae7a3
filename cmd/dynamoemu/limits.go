package main

import (
	"flag"
	"fmt"
	"log/slog"
	"math"
	"os"
	"runtime/debug"
	"time"

	"github.com/dynamoemu/dynamoemu/emulator"
)

// limitFlags bound what clients can make the server hold (see the memory
// model in docs/performance.md).
type limitFlags struct {
	readTimeout    time.Duration
	writeTimeout   time.Duration
	idleTimeout    time.Duration
	maxHeaderBytes int
	maxInFlight    int
	memoryLimit    int64 // bytes; 0: the Go runtime's default (GOMEMLIMIT)
	tokenBytes     int64 // bytes of remembered ClientRequestTokens
	// requestBytes is the budget of request bytes in flight; -1: sized
	// for the machine (requestBudget).
	requestBytes int64
	streamBytes  int64 // bytes of stream records kept; 0: the retention alone bounds them
}

// The server's own defaults, where the library's zero means none:
// far above what a test suite or a developer's application sends at
// once, and bounds that keep a long-running server's memory in check.
const (
	defaultMaxInFlight = 1024
	// defaultRequestBytes is the budget of request bytes in flight when
	// neither -maxRequestBytesInFlight nor a memory limit says otherwise
	// (emulator/internal/apiserve/budget.go).
	defaultRequestBytes = 256 << 20
	defaultStreamBytes  = 256 << 20
)

func defaultLimits() limitFlags {
	srv, opts := emulator.ServerOptions{}.WithDefaults(), emulator.Options{}.WithDefaults()
	return limitFlags{
		readTimeout:    srv.ReadTimeout,
		writeTimeout:   srv.WriteTimeout,
		idleTimeout:    srv.IdleTimeout,
		maxHeaderBytes: srv.MaxHeaderBytes,
		maxInFlight:    defaultMaxInFlight,
		tokenBytes:     opts.IdempotencyBytes,
		requestBytes:   -1,
		streamBytes:    defaultStreamBytes,
	}
}

func addLimitFlags(fs *flag.FlagSet, l *limitFlags) {
	*l = defaultLimits()
	fs.DurationVar(&l.readTimeout, "readTimeout", l.readTimeout, "cut off a request (headers and body) not received within this time (a body cut off is answered 408)")
	fs.DurationVar(&l.writeTimeout, "writeTimeout", l.writeTimeout, "cut off a response the client has not read within this time")
	fs.DurationVar(&l.idleTimeout, "idleTimeout", l.idleTimeout, "close keep-alive connections idle this long")
	fs.IntVar(&l.maxHeaderBytes, "maxHeaderBytes", l.maxHeaderBytes, "largest request header block in bytes")
	fs.IntVar(&l.maxInFlight, "maxInFlight", l.maxInFlight, "requests served at once; more get ThrottlingException (0: no limit)")
	fs.Int64Var(&l.tokenBytes, "idempotencyBytes", l.tokenBytes, "bytes of ClientRequestTokens remembered for their 10-minute window; past it the oldest are forgotten early")
	fs.Int64Var(&l.requestBytes, "maxRequestBytesInFlight", l.requestBytes, "bytes of request bodies read or served at once, each charged what its sender has proven, a body slower than 16 KiB a second cut off; more wait, then get ThrottlingException (-1: a quarter of -memoryLimit or GOMEMLIMIT, else 256 MiB; 0: no limit)")
	fs.Int64Var(&l.streamBytes, "streamRetentionBytes", l.streamBytes, "bytes of stream records kept (of every stream, images included); past it the oldest go before their 24 hours, as AWS's trim horizon moves (0: the 24 hours alone)")
	fs.Int64Var(&l.memoryLimit, "memoryLimit", 0, "soft memory limit of the Go runtime in bytes, like GOMEMLIMIT (0: GOMEMLIMIT or none)")
}

func (l limitFlags) validate() error {
	for _, d := range []struct {
		name string
		v    time.Duration
	}{{"-readTimeout", l.readTimeout}, {"-writeTimeout", l.writeTimeout}, {"-idleTimeout", l.idleTimeout}} {
		if d.v <= 0 {
			return fmt.Errorf("%s %v must be positive", d.name, d.v)
		}
	}
	if l.maxHeaderBytes <= 0 {
		return fmt.Errorf("-maxHeaderBytes %d must be positive", l.maxHeaderBytes)
	}
	if l.maxInFlight < 0 {
		return fmt.Errorf("-maxInFlight %d is negative", l.maxInFlight)
	}
	if l.tokenBytes <= 0 {
		return fmt.Errorf("-idempotencyBytes %d must be positive", l.tokenBytes)
	}
	if l.streamBytes < 0 {
		return fmt.Errorf("-streamRetentionBytes %d is negative", l.streamBytes)
	}
	if l.requestBytes < -1 {
		return fmt.Errorf("-maxRequestBytesInFlight %d is negative", l.requestBytes)
	}
	if l.memoryLimit < 0 {
		return fmt.Errorf("-memoryLimit %d is negative", l.memoryLimit)
	}
	return nil
}

func (l limitFlags) serverOptions() emulator.ServerOptions {
	return emulator.ServerOptions{
		ReadTimeout:    l.readTimeout,
		WriteTimeout:   l.writeTimeout,
		IdleTimeout:    l.idleTimeout,
		MaxHeaderBytes: l.maxHeaderBytes,
	}
}

// operatorMemoryLimit is the soft memory limit the operator set
// (-memoryLimit, else GOMEMLIMIT), or 0.
func (l limitFlags) operatorMemoryLimit() int64 {
	if l.memoryLimit > 0 {
		return l.memoryLimit
	}
	if os.Getenv("GOMEMLIMIT") != "" {
		if v := debug.SetMemoryLimit(-1); v != math.MaxInt64 {
			return v
		}
	}
	return 0
}

// requestBudget is the budget of request bytes in flight: the flag's,
// else a quarter of the operator's memory limit, else
// defaultRequestBytes.
func (l limitFlags) requestBudget() int64 {
	switch {
	case l.requestBytes >= 0:
		return l.requestBytes
	case l.operatorMemoryLimit() > 0:
		return max(l.operatorMemoryLimit()/4, emulator.Options{}.WithDefaults().MaxBodyBytes)
	}
	return defaultRequestBytes
}

// applyMemoryLimit sets the runtime's soft memory limit the operator
// set (-memoryLimit; GOMEMLIMIT the runtime read itself). Without one the
// budget of request bytes keeps it (emulator/internal/apiserve/memlimit.go):
// after each collection, the live heap, 32 MiB and the part of the budget
// the requests do not hold, so that a large data set never pins the
// collector and the collector's lag never doubles what requests hold.
func (l limitFlags) applyMemoryLimit(log *slog.Logger) {
	if l.memoryLimit > 0 {
		debug.SetMemoryLimit(l.memoryLimit)
		return
	}
	if l.operatorMemoryLimit() == 0 && l.requestBudget() > 0 {
		log.Info("memory limit kept from the request budget", "max_request_bytes_in_flight", l.requestBudget())
	}
}
