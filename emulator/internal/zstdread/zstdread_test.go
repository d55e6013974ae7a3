package zstdread

import (
	"bytes"
	"encoding/binary"
	"io"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/klauspost/compress/zstd"
	"github.com/stretchr/testify/require"
)

// compress encodes data as one frame at level l, with a checksum or not
// (an empty one too: without WithZeroFrames, none).
func compress(t testing.TB, data []byte, l zstd.EncoderLevel, checksum bool) []byte {
	t.Helper()
	enc, err := zstd.NewWriter(nil, zstd.WithEncoderLevel(l), zstd.WithEncoderCRC(checksum), zstd.WithEncoderConcurrency(1), zstd.WithZeroFrames(true))
	if err != nil {
		t.Fatal(err)
	}
	defer enc.Close()
	return enc.EncodeAll(data, nil)
}

func decompress(obj []byte) ([]byte, error) {
	r, err := NewReader(bytes.NewReader(obj), int64(len(obj)))
	if err != nil {
		return nil, err
	}
	return io.ReadAll(r)
}

// sample returns n bytes that compress as Ion objects do: repeated
// field names and values, with random numbers among them.
func sample(r *rand.Rand, n int) []byte {
	var b bytes.Buffer
	for b.Len() < n {
		b.WriteString(`{Item:{pk:"user#`)
		b.WriteString(strings.Repeat("x", r.IntN(20)))
		b.WriteString(`",n:`)
		b.WriteString(string(rune('0' + r.IntN(10))))
		b.WriteString("}}\n")
		if r.IntN(8) == 0 {
			var junk [32]byte
			for i := range junk {
				junk[i] = byte(r.Uint32())
			}
			b.Write(junk[:])
		}
	}
	return b.Bytes()[:n]
}

// TestRoundTrip: objects of the sizes and levels an import meets decode
// to what was encoded: empty, small, several blocks (a block holds at
// most 128 KB), and past the window of the fastest level.
func TestRoundTrip(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	levels := []zstd.EncoderLevel{zstd.SpeedFastest, zstd.SpeedDefault, zstd.SpeedBetterCompression, zstd.SpeedBestCompression}
	for _, n := range []int{0, 1, 100, 4 << 10, 200 << 10, 3 << 20} {
		data := sample(r, n)
		for _, l := range levels {
			for _, crc := range []bool{false, true} {
				got, err := decompress(compress(t, data, l, crc))
				if err != nil {
					t.Fatalf("%d bytes, level %v, checksum %v: %v", n, l, crc, err)
				}
				if !bytes.Equal(got, data) {
					t.Fatalf("%d bytes, level %v, checksum %v: got %d bytes, not the data", n, l, crc, len(got))
				}
			}
		}
	}
}

// TestFrames: frames in a row decode to their contents in a row, and a
// skippable frame (RFC 8878 3.1.2) contributes nothing.
func TestFrames(t *testing.T) {
	a, b := []byte("first frame\n"), []byte("second frame\n")
	skippable := binary.LittleEndian.AppendUint32(nil, 0x184D2A50)
	skippable = binary.LittleEndian.AppendUint32(skippable, 5)
	skippable = append(skippable, "skip!"...)
	obj := append(compress(t, a, zstd.SpeedDefault, true), skippable...)
	obj = append(obj, compress(t, b, zstd.SpeedDefault, false)...)
	got, err := decompress(obj)
	if err != nil {
		t.Fatal(err)
	}
	if want := string(a) + string(b); string(got) != want {
		t.Fatalf("got %q, want %q", got, want)
	}
}

// TestDamaged: a damaged object is an error of Read, never a panic or
// wrong content passed as right: a changed byte of a frame with a
// checksum, a cut object, bytes that are not Zstandard.
func TestDamaged(t *testing.T) {
	data := sample(rand.New(rand.NewPCG(3, 4)), 64<<10)
	obj := compress(t, data, zstd.SpeedDefault, true)
	for i := 4; i < len(obj); i += len(obj) / 50 {
		bad := bytes.Clone(obj)
		bad[i] ^= 0x41
		if got, err := decompress(bad); err == nil && bytes.Equal(got, data) {
			t.Fatalf("byte %d changed: read back the data without an error", i)
		} else if err == nil {
			t.Fatalf("byte %d changed: %d bytes of other content without an error", i, len(got))
		}
	}
	for _, cut := range []int{1, 4, 5, 10, len(obj) / 2, len(obj) - 1} {
		if _, err := decompress(obj[:cut]); err == nil {
			t.Errorf("cut to %d of %d bytes: no error", cut, len(obj))
		}
	}
	if _, err := decompress([]byte("not zstd at all")); err == nil {
		t.Error("plain text: no error")
	}
}

// TestWindowBound: a frame that refers back further than 8 MB is an
// error (the bound on a decoder's memory), one within 8 MB is read, and
// one that declares a window over 8 MB is an error even if it refers
// back less far (the standard library's reader, used before, read it).
func TestWindowBound(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	block := make([]byte, 1<<20)
	for i := range block {
		block[i] = byte(r.Uint32())
	}
	// 10 MB of which the last 1 MB repeats the first: only a match 9 MB
	// back compresses it.
	data := make([]byte, 0, 10<<20)
	data = append(data, block...)
	for range 8 {
		for i := range block {
			block[i] = byte(r.Uint32())
		}
		data = append(data, block...)
	}
	data = append(data, data[:1<<20]...)
	enc, err := zstd.NewWriter(nil, zstd.WithWindowSize(16<<20), zstd.WithEncoderLevel(zstd.SpeedBetterCompression), zstd.WithEncoderConcurrency(1))
	if err != nil {
		t.Fatal(err)
	}
	far := enc.EncodeAll(data, nil)
	enc.Close()
	if len(far) > len(data)-(512<<10) {
		t.Skipf("the encoder did not use the far match (%d of %d bytes): nothing to check", len(far), len(data))
	}
	if _, err := decompress(far); err == nil {
		t.Fatal("a match 9 MB back: no error")
	}
	near := compress(t, data[:6<<20], zstd.SpeedBestCompression, true)
	if got, err := decompress(near); err != nil || !bytes.Equal(got, data[:6<<20]) {
		t.Fatalf("6 MB object: %v, %d bytes", err, len(got))
	}
	wide, err := zstd.NewWriter(nil, zstd.WithWindowSize(16<<20), zstd.WithSingleSegment(false), zstd.WithEncoderConcurrency(1))
	require.NoError(t, err)
	// 9 MB of a repeated line: every match is a line back, but the
	// encoder declares a window the size of the object.
	declared := wide.EncodeAll(bytes.Repeat([]byte("a line that repeats, matched a line back\n"), 9<<20/41), nil)
	wide.Close()
	var h zstd.Header
	require.NoError(t, h.Decode(declared))
	require.Greater(t, h.WindowSize, uint64(8<<20), "the frame's declared window")
	_, err = decompress(declared)
	require.Error(t, err, "a frame declaring a window over 8 MB")
}

// FuzzRead: any bytes read as an object give an error or content, never
// a panic; content from a frame klauspost's decoder reads is the same.
func FuzzRead(f *testing.F) {
	r := rand.New(rand.NewPCG(7, 8))
	for _, n := range []int{0, 10, 1000, 70000} {
		f.Add(compress(f, sample(r, n), zstd.SpeedDefault, true))
		f.Add(compress(f, sample(r, n), zstd.SpeedFastest, false))
	}
	f.Add([]byte{0x28, 0xb5, 0x2f, 0xfd})
	dec, err := zstd.NewReader(nil, zstd.WithDecoderConcurrency(1), zstd.WithDecoderMaxMemory(64<<20))
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, obj []byte) {
		got, err := decompress(obj)
		if err != nil {
			return
		}
		want, werr := dec.DecodeAll(obj, nil)
		if werr != nil {
			return // klauspost's is stricter on some malformed frames
		}
		if !bytes.Equal(got, want) {
			t.Fatalf("decoded %d bytes, klauspost %d, differing", len(got), len(want))
		}
	})
}

// TestLargerThanWindow: an object larger than the window bound, in
// frames that do not declare more, decodes whole: the bound is on the
// window, not on the content.
func TestLargerThanWindow(t *testing.T) {
	data := sample(rand.New(rand.NewPCG(9, 10)), 12<<20)
	got, err := decompress(compress(t, data, zstd.SpeedFastest, true))
	require.NoError(t, err)
	require.True(t, bytes.Equal(got, data), "got %d bytes, want the %d of the data", len(got), len(data))
}

// TestReadAfterEnd: the reader answers its end again after releasing
// its decoder.
func TestReadAfterEnd(t *testing.T) {
	obj := compress(t, []byte("once"), zstd.SpeedDefault, true)
	r, err := NewReader(bytes.NewReader(obj), int64(len(obj)))
	require.NoError(t, err)
	got, err := io.ReadAll(r)
	require.NoError(t, err)
	require.Equal(t, "once", string(got))
	n, err := r.Read(make([]byte, 8))
	require.Equal(t, 0, n)
	require.ErrorIs(t, err, io.EOF)
}

// BenchmarkStart is the decoder's start-up cost: a reader made and a
// 1 KB object read through it, as an import of one small object pays.
func BenchmarkStart(b *testing.B) {
	obj := compress(b, sample(rand.New(rand.NewPCG(11, 12)), 1<<10), zstd.SpeedDefault, true)
	b.ReportAllocs()
	for b.Loop() {
		r, err := NewReader(bytes.NewReader(obj), int64(len(obj)))
		if err != nil {
			b.Fatal(err)
		}
		if _, err := io.ReadAll(r); err != nil {
			b.Fatal(err)
		}
	}
}
