package oversize

import (
	"bytes"
	"io"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/dynamoemu/dynamoemu/emulator/internal/wire"
)

// pieces gives its bytes in reads of random sizes, 1 to max.
type pieces struct {
	b   []byte
	r   *rand.Rand
	max int
}

func (p *pieces) Read(b []byte) (int, error) {
	if len(p.b) == 0 {
		return 0, io.EOF
	}
	n := min(len(b), len(p.b), 1+p.r.IntN(p.max))
	copy(b, p.b[:n])
	p.b = p.b[n:]
	return n, nil
}

// cutOf reads body through a ListCut of TransactItems that keeps keep
// elements, in runs of size, and accepts every run but those holding
// bad: the body kept, the list's length cut, and whether the rest was
// left to read (then read here).
func cutOf(t testing.TB, body string, keep, size int, bad string, r *rand.Rand) (string, int) {
	t.Helper()
	lc := ListCut{Member: "TransactItems", Keep: keep, Size: size, Checker: func() func([]byte, wire.Span) bool {
		return func(b []byte, run wire.Span) bool {
			return bad == "" || !bytes.Contains(b[run.Start:run.End], []byte(bad))
		}
	}}
	var buf bytes.Buffer
	src := &pieces{b: []byte(body), r: r, max: 1 + r.IntN(4096)}
	n, cut, more, err := lc.Read(&buf, src, 1<<30, int64(len(body))+1)
	require.NoError(t, err)
	elems := cut.Elems
	if more {
		require.Zero(t, elems)
		rest, _ := io.ReadAll(src)
		buf.Write(rest)
		n += int64(len(rest))
	}
	require.Equal(t, int64(len(body)), n)
	return buf.String(), elems
}

// requireLikeFirstOf requires that a body read through a ListCut is cut
// exactly where firstOf reduces the body held whole, and to the same
// body (but for spaces before the list's end), with the same length.
func requireLikeFirstOf(t testing.TB, body string, keep, size int, r *rand.Rand) {
	t.Helper()
	got, elems := cutOf(t, body, keep, size, "", r)
	Every.Store(true)
	want, n := firstOf([]byte(body), "TransactItems", keep, size, func(wire.Span) bool { return true })
	Every.Store(false)
	if want == nil {
		require.Zero(t, elems, "cut where firstOf is not: %.200q", body)
		return
	}
	require.Equal(t, n, elems, "%.200q", body)
	p := 0
	for p < len(got) && p < len(want) && got[p] == want[p] {
		p++
	}
	require.Equal(t, string(want[p:]), strings.TrimLeft(got[p:], " \t\r\n"), "%.200q", body)
}

// TestListCutRead: a list far over its limit is read through as it
// arrives, in pieces of any size, and kept as firstOf reduces it: with
// spaces anywhere, members before and after it, elements of every size,
// one larger than the pieces; a fault in a run past the limit puts a
// clean element back in the place of each one dropped.
func TestListCutRead(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	big := `{"Put":{"TableName":"t","Item":{"pk":{"S":"` + strings.Repeat("z", 100_000) + `"}}}}`
	bodies := []string{
		`{"TransactItems":[` + list(500, action) + `]}`,
		` { "ClientRequestToken" : "x" , "TransactItems" : [ ` + strings.ReplaceAll(list(300, action), ",", " ,\n ") + ` ] , "ReturnConsumedCapacity":"TOTAL" } `,
		`{"ReturnConsumedCapacity":{"a":[1,2,{"b":"]"}]},"TransactItems":[` + list(150, action) + `,` + big + `,` + list(40, action) + `]}`,
		`{"TransactItems":[` + list(101, action) + `]}`,
		`{"TransactItems":[` + list(100, action) + `]}`,
		`{"TransactItems":[]}`,
		`{"TransactItems":5,"transactItems":[` + list(300, action) + `]}`,
		`{"TransactItems":[` + list(300, action) + `],"TransactItems":[]}`,
		`{"TransactItems":[` + list(300, action) + `],"transactItems":[]}`,
		`{"TransactItems":[` + list(300, action) + `,]}`,
		`{"TransactItems":[` + list(300, action) + `]`,
		`{"TransactItems":[` + list(300, action) + `]}x`,
		`{"\u0054ransactItems":[` + list(300, action) + `]}`,
		`[` + list(300, action) + `]`,
	}
	for _, body := range bodies {
		for _, size := range []int{1, 7, 100, 1024} {
			requireLikeFirstOf(t, body, 100, size, r)
		}
	}
	// A fault past the limit: every element back, a clean one in place
	// of those dropped, the faulty ones where they were.
	body := `{"TransactItems":[` + list(3000, func(i int) string {
		if i == 2500 {
			return `{"bad":1}`
		}
		return action(i)
	}) + `],"x":1}`
	got, elems := cutOf(t, body, 100, 100, `"bad"`, r)
	require.Zero(t, elems)
	var parts []string
	require.True(t, wire.ArrayElements([]byte(got), len(`{"TransactItems":`), func(i int, s wire.Span) bool {
		parts = append(parts, got[s.Start:s.End])
		return true
	}))
	require.Len(t, parts, 3000)
	for i, p := range parts {
		switch {
		case i == 2500:
			require.Equal(t, `{"bad":1}`, p)
		case i < 100 || i > 2500:
			require.Equal(t, action(i), p, "element %d", i) // kept, or in the run with the fault and after
		default:
			require.Equal(t, action(100), p, "element %d", i) // the first dropped, in place of each
		}
	}
	require.True(t, strings.HasSuffix(got, `],"x":1}`))
}

// FuzzListCutRead: any body, read as it arrives in pieces of any size,
// is cut where and as firstOf reduces it whole, and read whole otherwise.
func FuzzListCutRead(f *testing.F) {
	f.Add(`{"TransactItems":[`+list(120, action)+`]}`, uint8(5), uint64(1))
	f.Add(`{"TransactItems":[`+list(120, action)+`],"TransactItems":[1]}`, uint8(100), uint64(2))
	f.Add(`{"TransactItems":[1,2,3,"]",{"a":[]},[[]],true,null,-1.5e3]}`, uint8(2), uint64(3))
	f.Add(`{"a":"\"","TransactItems" :[ {} , {} , {} ] }`, uint8(1), uint64(4))
	f.Fuzz(func(t *testing.T, body string, keep uint8, seed uint64) {
		r := rand.New(rand.NewPCG(seed, 9))
		requireLikeFirstOf(t, body, 1+int(keep)%50, 1+r.IntN(8), r)
	})
}
