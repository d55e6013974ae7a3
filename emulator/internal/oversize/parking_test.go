package oversize

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestParkingReadsBack: records parked read back in order, whole, from
// a file or, where none can be made, from memory; a parking let go, or
// read back, parks again from nothing, and leaves no file behind.
func TestParkingReadsBack(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	var stem, random [][]byte
	for i := range 20_000 {
		stem = append(stem, fmt.Appendf(nil, "name%07d", i))
		random = append(random, []byte(strconv.FormatUint(r.Uint64(), 36)))
	}
	random = append(random, nil, make([]byte, 100_000)) // an empty record, a long one
	for _, tc := range []struct {
		name, dir string
		recs      [][]byte
	}{
		{"file", "", stem},
		{"file/random", t.TempDir(), random},
		{"memory", filepath.Join(t.TempDir(), "none"), stem},
		{"memory/random", filepath.Join(t.TempDir(), "none"), random},
	} {
		t.Run(tc.name, func(t *testing.T) {
			parkDir = tc.dir
			t.Cleanup(func() { parkDir = "" })
			var p Parking
			for round := range 3 {
				for _, rec := range tc.recs {
					p.Park(rec)
				}
				require.Equal(t, len(tc.recs), p.Len())
				require.Equal(t, tc.name == "file" || tc.name == "file/random", p.file != nil, "round %d", round)
				if round == 1 {
					p.LetGo()
					require.Zero(t, p.Len())
					continue
				}
				i := 0
				require.NoError(t, p.Unpark(func(rec []byte) error {
					require.Equal(t, string(tc.recs[i]), string(rec), "round %d record %d", round, i)
					i++
					return nil
				}))
				require.Equal(t, len(tc.recs), i)
				require.Zero(t, p.Len())
				require.Nil(t, p.file)
			}
			if tc.dir != "" && filepath.Base(tc.dir) != "none" {
				left, err := os.ReadDir(tc.dir)
				require.NoError(t, err)
				require.Empty(t, left, "the parking's files are removed")
			}
		})
	}
}

// TestParkingFails: records whose file does not read back (here: closed
// under it) are ErrParking, not records missing, and the parking parks
// again from nothing after it.
func TestParkingFails(t *testing.T) {
	var p Parking
	p.Park([]byte("a"))
	if p.file == nil {
		t.Skip("no temporary file could be made")
	}
	require.NoError(t, p.file.Close())
	err := p.Unpark(func([]byte) error { return nil })
	require.True(t, errors.Is(err, ErrParking), "%v", err)
	require.Zero(t, p.Len())
	p.Park([]byte("b"))
	var got []string
	require.NoError(t, p.Unpark(func(rec []byte) error { got = append(got, string(rec)); return nil }))
	require.Equal(t, []string{"b"}, got)
}
