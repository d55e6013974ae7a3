package oversize

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestParkingPutsBack: runs taken out of a body one after another, each
// where the last left off, go back to their places, the body whole
// again; a parking let go, or emptied, parks again from nothing. The
// runs go to a file, or, where none can be made, to memory; names of
// random letters and digits as names with a common stem.
func TestParkingPutsBack(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	var stem, random []string
	for i := range 20_000 {
		stem = append(stem, fmt.Sprintf(`"name%07d"`, i))
		random = append(random, `"`+strconv.FormatUint(r.Uint64(), 36)+`"`)
	}
	for _, tc := range []struct {
		name, dir string
		names     []string
	}{
		{"file", "", stem},
		{"file/random", t.TempDir(), random},
		{"memory", filepath.Join(t.TempDir(), "none"), stem},
		{"memory/random", filepath.Join(t.TempDir(), "none"), random},
	} {
		t.Run(tc.name, func(t *testing.T) {
			parkDir = tc.dir
			t.Cleanup(func() { parkDir = "" })
			whole := `{"AttributesToGet":[` + strings.Join(tc.names, ",") + `],"Keys":[]}`
			first := tc.names[1000]
			var p parking
			for round := range 3 {
				b := []byte(whole)
				at := strings.Index(whole, first) + len(first)
				for b[at] != ']' { // runs of about 32 KB from there on
					end := min(at+32<<10, strings.Index(string(b), "]"))
					p.park(at, b[at:end])
					b = append(b[:at], b[end:]...)
				}
				require.False(t, p.empty())
				require.Equal(t, tc.name == "file" || tc.name == "file/random", p.file != nil, "round %d", round)
				require.Less(t, len(b), len(whole)/10, "round %d", round)
				if round == 1 {
					p.letGo()
					require.True(t, p.empty())
					continue
				}
				got, n, err := p.unpark(b)
				require.NoError(t, err)
				require.Equal(t, whole, string(got), "round %d", round)
				require.Equal(t, len(whole)-len(b), n)
				require.True(t, p.empty())
				require.Nil(t, p.file)
			}
			if tc.dir != "" && !strings.HasSuffix(tc.dir, "none") {
				left, err := os.ReadDir(tc.dir)
				require.NoError(t, err)
				require.Empty(t, left, "the parking's files are removed")
			}
		})
	}
}

// TestParkingFails: names whose file does not read back (here: closed
// under it) are ErrParking, not a body with a part missing, and the
// parking parks again from nothing after it.
func TestParkingFails(t *testing.T) {
	var p parking
	p.park(0, []byte(`"a","b"`))
	require.NotNil(t, p.file)
	require.NoError(t, p.file.Close())
	b, n, err := p.unpark([]byte(`[]`))
	require.True(t, errors.Is(err, ErrParking), "got %v", err)
	require.Equal(t, `[]`, string(b))
	require.Zero(t, n)
	require.True(t, p.empty())

	p.park(1, []byte(`"a"`))
	b, _, err = p.unpark([]byte(`[]`))
	require.NoError(t, err)
	require.Equal(t, `["a"]`, string(b))
}

// BenchmarkParkingPutBack: a 15 MB names list parked in 480 runs of
// 32 KB, each where the last left off (as a KeysCut parks a list read a
// chunk at a time), then put back.
func BenchmarkParkingPutBack(b *testing.B) {
	run := []byte(strings.Repeat(`"a0000000",`, 32<<10/11))
	head := []byte(`{"AttributesToGet":[`)
	for b.Loop() {
		var p parking
		for range 480 {
			p.park(len(head), run)
		}
		body, n, err := p.unpark(append([]byte(nil), head...))
		if err != nil || n != 480*len(run) || len(body) != len(head)+n {
			b.Fatal(err, n, len(body))
		}
	}
}

// TestParkingAfter: two parkings of one body, the second's runs taken
// at places before, between and after the first's, go back whole when
// the first goes back first and the second's places move for it (after).
func TestParkingAfter(t *testing.T) {
	whole := "a[1,2,3]b[4,5,55,555]c[6,7,8]d[9,10]e"
	body := []byte(whole)
	var first, second parking
	take := func(p *parking, from, to string) {
		at := strings.Index(string(body), from) + len(from)
		end := strings.Index(string(body), to)
		p.park(at, body[at:end])
		body = append(body[:at], body[end:]...)
	}
	take(&second, "[1", "]b") // ",2,3", before the first's
	take(&first, "[4", "]c")  // ",5,55,555", longer than the gap after it
	take(&second, "[6", "]d") // ",7,8", between them
	take(&first, "[9", "]e")  // ",10"
	require.Equal(t, "a[1]b[4]c[6]d[9]e", string(body))
	second.after(&first)
	body, n, err := first.unpark(body)
	require.NoError(t, err)
	require.Equal(t, 12, n)
	body, n, err = second.unpark(body)
	require.NoError(t, err)
	require.Equal(t, 8, n)
	require.Equal(t, whole, string(body))
	second.letGo()
}
