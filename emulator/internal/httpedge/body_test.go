package httpedge

import (
	"bytes"
	"errors"
	"io"
	"math/bits"
	"runtime"
	"strings"
	"testing"
	"testing/iotest"

	"github.com/stretchr/testify/require"
)

func TestReadAtMost(t *testing.T) {
	boom := errors.New("boom")
	for _, tt := range []struct {
		name    string
		r       io.Reader
		limit   int64
		want    string
		wantErr error
	}{
		{"under", strings.NewReader("hello"), 10, "hello", nil},
		{"exact", strings.NewReader("hello"), 5, "hello", nil},
		{"over", strings.NewReader("hello, world"), 5, "hello", nil},
		{"one byte at a time", iotest.OneByteReader(strings.NewReader(strings.Repeat("x", 2000))), 1500, strings.Repeat("x", 1500), nil},
		{"error", io.MultiReader(strings.NewReader("ab"), iotest.ErrReader(boom)), 10, "ab", boom},
		{"empty", strings.NewReader(""), 10, "", nil},
	} {
		t.Run(tt.name, func(t *testing.T) {
			var buf bytes.Buffer
			buf.WriteString("pre")
			n, err := ReadAtMost(&buf, tt.r, tt.limit, 0)
			if got := buf.String(); got != "pre"+tt.want || n != int64(len(tt.want)) || !errors.Is(err, tt.wantErr) {
				t.Fatalf("got %q, %d, %v; want %q, %d, %v", got, n, err, "pre"+tt.want, len(tt.want), tt.wantErr)
			}
		})
	}
}

// TestReadAtMostGrowsToWant: a body that arrives as announced ends in a
// buffer of its size (plus the byte that sees its end), its first half
// read into chunks copied once (at most 1.6 times its size allocated:
// the chunks, the buffer and the 8 KB before);
// without an announced size, or past it, the buffer doubles.
func TestReadAtMostGrowsToWant(t *testing.T) {
	for _, size := range []int{5<<20 + 123, 4 << 20, 4<<20 - 1, 300 << 10} {
		for _, tt := range []struct {
			name    string
			want    int64
			wantCap int
		}{
			{"announced", int64(size) + 1, size + 1},
			{"not announced", 0, 8 << 10 << bits.Len(uint(size>>13))},
			{"announced too short", 1000, 8 << 10 << bits.Len(uint(size>>13))},
			// A Content-Length that lies high reserves no more than
			// arrived: the chunks, joined in a buffer of the body's size.
			{"announced too long", 3 * int64(size), size},
		} {
			body := strings.Repeat("x", size)
			var buf bytes.Buffer
			buf.Grow(8 << 10)
			var before, after runtime.MemStats
			runtime.ReadMemStats(&before)
			n, err := ReadAtMost(&buf, iotest.HalfReader(strings.NewReader(body)), 16<<20, tt.want)
			runtime.ReadMemStats(&after)
			require.NoError(t, err, "%s %d", tt.name, size)
			require.Equal(t, int64(size), n, "%s %d", tt.name, size)
			require.Equal(t, size, buf.Len(), "%s %d", tt.name, size)
			require.Equal(t, tt.wantCap, buf.Cap(), "%s %d: buffer of %d bytes", tt.name, size, buf.Cap())
			switch alloc := after.TotalAlloc - before.TotalAlloc; tt.want {
			case int64(size) + 1:
				require.LessOrEqual(t, alloc, uint64(8*size/5), "%s %d", tt.name, size)
			case 3 * int64(size):
				require.LessOrEqual(t, alloc, uint64(2*size+maxBodyChunk+64<<10), "%s %d", tt.name, size)
			}
		}
	}
}

// FuzzReadAtMost: whatever the announced size (want) and however the
// bytes arrive (read sizes from step), the buffer ends holding the
// body's first limit bytes after what it held.
func FuzzReadAtMost(f *testing.F) {
	for _, tc := range []struct {
		size        int
		want, limit int64
		step        uint8
	}{
		{0, 0, 10, 1}, {20000, 20001, 1 << 20, 7}, {20000, 100000, 1 << 20, 0},
		{20000, 500, 1 << 20, 3}, {20000, 20001, 12000, 255}, {70000, 70001, 70000, 9},
	} {
		f.Add(tc.size, tc.want, tc.limit, tc.step)
	}
	f.Fuzz(func(t *testing.T, size int, want, limit int64, step uint8) {
		if size < 0 || size > 1<<20 || limit < 0 || want > 4<<20 {
			return
		}
		body := make([]byte, size)
		for i := range body {
			body[i] = byte(i * 7)
		}
		var r io.Reader = bytes.NewReader(body)
		if step > 0 {
			r = &stepReader{r: r, step: int(step)}
		}
		// A buffer with room and a prefix, as the pool's, and one with
		// none: each read must make progress.
		for _, pre := range []string{"pre", ""} {
			r := r
			if pre == "" {
				r = io.MultiReader(bytes.NewReader(body))
				if step > 0 {
					r = &stepReader{r: r, step: int(step)}
				}
			}
			var buf bytes.Buffer
			if pre != "" {
				buf.Grow(8 << 10)
				buf.WriteString(pre)
			}
			n, err := ReadAtMost(&buf, r, limit, want)
			require.NoError(t, err)
			got := min(int64(size), limit)
			require.Equal(t, got, n)
			require.Equal(t, pre+string(body[:got]), buf.String())
		}
	})
}

// stepReader reads at most step bytes at a time.
type stepReader struct {
	r    io.Reader
	step int
}

func (s *stepReader) Read(p []byte) (int, error) {
	return s.r.Read(p[:min(len(p), s.step)])
}
