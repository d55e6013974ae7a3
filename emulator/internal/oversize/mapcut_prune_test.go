package oversize

import (
	"bytes"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/dynamoemu/dynamoemu/emulator/internal/wire"
)

// TestMapCutPrunesEchoes: a map of 200 tables with names of 1,000 bytes,
// each with 60 KB of echo, keeps the echoes the answer can show (the
// names before a table add up past 64 KB after 65 of them), not 200 of
// them (within twice what it can show, as buffers grow); and when the
// first 40, 64, 65 or 150 names by order are given again, empty, at the
// end, the answer's echo is still the whole map's (the tables in the
// body by name or the other way).
func TestMapCutPrunesEchoes(t *testing.T) {
	const tables, writes, echoEach = 200, 30, 2000
	lc := ListCut{Member: "RequestItems", Keep: 25, Size: 1024,
		Echoer: func() func(*bytes.Buffer, []byte, wire.Span, int) (int, bool, bool) {
			return func(e *bytes.Buffer, b []byte, run wire.Span, at int) (int, bool, bool) {
				n := bytes.Count(b[run.Start:run.End], []byte("{"))
				for j := range n {
					if at+j > 0 {
						e.WriteString(", ")
					}
					e.WriteString(strings.Repeat("e", echoEach))
				}
				return n, true, true
			}
		}}
	name := func(i int) string { return fmt.Sprintf("%03d%s", i, strings.Repeat("n", 1000)) }
	list := `[` + strings.TrimSuffix(strings.Repeat(`{"w":1},`, writes), ",") + `]`
	for _, tc := range []struct {
		replaced int
		down     bool // the tables in the body last name first
	}{{0, true}, {0, false}, {40, true}, {40, false}, {64, false}, {65, false}, {150, true}} {
		replaced := tc.replaced
		var parts []string
		for j := range tables {
			i := j
			if tc.down {
				i = tables - 1 - j
			}
			parts = append(parts, `"`+name(i)+`":`+list)
		}
		for i := range replaced {
			parts = append(parts, `"`+name(i)+`":[]`)
		}
		body := `{"RequestItems":{` + strings.Join(parts, ",") + `}}`
		c := &mapCutter{lc: &lc, echo: lc.Echoer(), names: map[string]*occurrence{}}
		_, cut, _, err := readCut(c, strings.NewReader(body), 1<<30, 0)
		require.NoError(t, err)

		var want []string
		names := make([]string, tables)
		for i := range names {
			names[i] = name(i)
		}
		slices.Sort(names)
		for i, n := range names {
			if i < replaced {
				want = append(want, n+"=[]")
				continue
			}
			want = append(want, n+"=["+strings.TrimSuffix(strings.Repeat(strings.Repeat("e", echoEach)+", ", writes), ", ")+"]")
		}
		whole := "{" + strings.Join(want, ", ") + "}"
		require.Equal(t, []string{whole[:echoKeep]}, cut.Echo, "%+v", tc)

		held := 0
		for _, o := range c.names {
			held += o.echo.Cap()
		}
		t.Logf("%+v: %d bytes of echo held for %d of the whole map", tc, held, len(whole))
		if replaced == 0 {
			require.Less(t, held, len(whole)/2, "the echoes the answer cannot show are pruned")
		}
	}
}
