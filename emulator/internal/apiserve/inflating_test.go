package apiserve

import (
	"bytes"
	"compress/gzip"
	"context"
	"errors"
	"io"
	"log/slog"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/dynamoemu/dynamoemu/emulator/internal/apierr"
	"github.com/dynamoemu/dynamoemu/emulator/internal/service"
)

// gzipOf is b compressed with gzip.
func gzipOf(tb testing.TB, b []byte) []byte {
	tb.Helper()
	var out bytes.Buffer
	zw := gzip.NewWriter(&out)
	_, err := zw.Write(b)
	require.NoError(tb, err)
	require.NoError(tb, zw.Close())
	return out.Bytes()
}

// compressedServer is a Server with a budget of budget bytes and a body
// limit of limit, in front of a service of no tables.
func compressedServer(tb testing.TB, budget, limit int64) *Server {
	tb.Helper()
	svc, err := service.New(service.Config{})
	require.NoError(tb, err)
	tb.Cleanup(svc.Close)
	s := &Server{Svc: svc, MaxBody: limit, Logger: slog.New(slog.DiscardHandler)}
	s.Budget.Init(budget)
	return s
}

// readCompressed reads body (announced as its length, with coding) as
// Serve's admission does, and returns the error and what it was charged
// at most; what it holds is given back.
func readCompressed(tb testing.TB, s *Server, coding string, body []byte) (held int64, err error) {
	tb.Helper()
	in := &Request{Ctx: context.Background(), Target: service.TargetPrefix + "PutItem", ContentEncoding: []string{coding},
		ContentLength: int64(len(body)), Body: bytes.NewReader(body), Remote: "fuzz"}
	var a admission
	a.op, err = s.Svc.Lookup(in.Target)
	require.NoError(tb, err)
	if err = s.ruleBudget(in, &a); err == nil {
		err = s.ruleBody(in, &a)
		if a.br != nil {
			held = a.br.held
		}
		a.input.Release()
	}
	s.endAdmission(&a)
	return held, err
}

// TestCompressedBodyCharged: a compressed body is charged twice what it
// inflates to (its window and its decoded strings), all at once, before
// its window is allocated; one that inflates past the limit is 413
// before anything is charged for it.
func TestCompressedBodyCharged(t *testing.T) {
	s := compressedServer(t, 64<<20, 1<<20)
	plain := []byte(`{"TableName":"tab","Item":{"pk":{"S":"` + string(bytes.Repeat([]byte("z"), 500_000)) + `"}}}`)
	gz := gzipOf(t, plain)
	held, err := readCompressed(t, s, "gzip", gz)
	require.NotErrorIs(t, err, apierr.ErrRequestEntityTooLarge)
	require.Equal(t, int64(2*len(plain)+1), held, "charged twice its inflated size and a byte")
	require.Equal(t, int64(len(gz)+2*len(plain)+1), s.Budget.Peak.Load(), "besides its compressed bytes, and nothing more")

	over := append(plain, bytes.Repeat([]byte(" "), 1<<20)...)
	s = compressedServer(t, 64<<20, 1<<20)
	_, err = readCompressed(t, s, "gzip", gzipOf(t, over))
	require.ErrorIs(t, err, apierr.ErrRequestEntityTooLarge)
	require.Less(t, s.Budget.Peak.Load(), int64(64<<10), "refused before its inflated bytes were charged")
	used, small := s.Budget.Reserved()
	require.Zero(t, used)
	require.Zero(t, small)
}

// FuzzCompressedBody: any body under any coding is read, inflated and
// charged within the budget, or refused with DynamoDB's answers; never a
// panic, and the budget is whole again after.
func FuzzCompressedBody(f *testing.F) {
	plain := []byte(`{"TableName":"fuzz","Item":{"pk":{"S":"a"}}}`)
	f.Add(gzipOf(f, plain), "gzip")
	f.Add(gzipOf(f, plain)[:12], "gzip")
	f.Add(gzipOf(f, bytes.Repeat([]byte("x"), 10_000)), "gzip")
	f.Add(plain, "deflate")
	f.Add([]byte{}, "gzip")
	f.Add(plain, "zstd")
	const limit = 4096
	s := compressedServer(f, 1<<20, limit)
	f.Fuzz(func(t *testing.T, body []byte, coding string) {
		held, err := readCompressed(t, s, coding, body)
		require.LessOrEqual(t, held, int64(len(body)+2*limit+1)+firstCharge, "charged past its bytes and the limit")
		if err != nil {
			var ae *apierr.Error
			if !errors.As(err, &ae) && !errors.Is(err, io.ErrUnexpectedEOF) {
				_, known := apierr.Classify(err)
				require.True(t, known, "an unclassified error: %v", err)
			}
		}
		used, small := s.Budget.Reserved()
		require.Zero(t, used)
		require.Zero(t, small)
	})
}
