package main

import (
	"flag"
	"fmt"
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
}

func defaultLimits() limitFlags {
	return limitFlags{
		readTimeout:    emulator.DefaultReadTimeout,
		writeTimeout:   emulator.DefaultWriteTimeout,
		idleTimeout:    emulator.DefaultIdleTimeout,
		maxHeaderBytes: emulator.DefaultMaxHeaderBytes,
		maxInFlight:    emulator.DefaultMaxInFlight,
		tokenBytes:     emulator.DefaultIdempotencyBytes,
	}
}

func addLimitFlags(fs *flag.FlagSet, l *limitFlags) {
	*l = defaultLimits()
	fs.DurationVar(&l.readTimeout, "readTimeout", l.readTimeout, "cut off a request (headers and body) not received within this time")
	fs.DurationVar(&l.writeTimeout, "writeTimeout", l.writeTimeout, "cut off a response the client has not read within this time")
	fs.DurationVar(&l.idleTimeout, "idleTimeout", l.idleTimeout, "close keep-alive connections idle this long")
	fs.IntVar(&l.maxHeaderBytes, "maxHeaderBytes", l.maxHeaderBytes, "largest request header block in bytes")
	fs.IntVar(&l.maxInFlight, "maxInFlight", l.maxInFlight, "requests served at once; more get ThrottlingException (0: no limit)")
	fs.Int64Var(&l.tokenBytes, "idempotencyBytes", l.tokenBytes, "bytes of ClientRequestTokens remembered for their 10-minute window; past it the oldest are forgotten early")
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

// applyMemoryLimit sets the runtime's soft memory limit when asked.
func (l limitFlags) applyMemoryLimit() {
	if l.memoryLimit > 0 {
		debug.SetMemoryLimit(l.memoryLimit)
	}
}
