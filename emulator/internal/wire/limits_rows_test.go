package wire

import (
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/dynamoemu/dynamoemu/internal/lease"
)

// rowInput has one list member, one map of lists, and one member that is
// no list.
type rowInput struct {
	Items  []string            `json:"Items"`
	Tables map[string][]string `json:"Tables"`
	Name   string
}

// TestAddChecksItsRow: a row is checked against its struct when it is
// added, at wiring; a misspelt member, one that is no list, or a list of
// other elements panics there, naming the row, instead of turning the
// member's bound off.
func TestAddChecksItsRow(t *testing.T) {
	cases := []struct {
		name, member string
		add          func(l *Limits, member string)
		want         string // "" : no panic
	}{
		{"list", "Items", addStrings, ""},
		{"map of lists", "Tables", addStrings, ""},
		{"misspelt", "Itemz", addStrings, `wire: limits row "Itemz" on wire.rowInput: no such member (members: Items, Name, Tables)`},
		{"Go name of a tagged field", "items", addStrings, `no such member`},
		{"not a list", "Name", addStrings, `member is string, not a list of string`},
		{"other elements", "Items", func(l *Limits, m string) { Add(l, m, Row[rowInput, int]{Max: 1}) }, `member is []string, not a list of int`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var l Limits
			got := func() (msg string) {
				defer func() {
					if r := recover(); r != nil {
						msg = fmt.Sprint(r)
					}
				}()
				c.add(&l, c.member)
				return ""
			}()
			if c.want == "" {
				require.Empty(t, got)
				require.Equal(t, []string{"rowInput." + c.member}, l.Rows())
				return
			}
			require.Contains(t, got, c.want)
			require.Empty(t, l.Rows())
		})
	}
}

func addStrings(l *Limits, member string) { Add(l, member, Row[rowInput, string]{Max: 1}) }

// TestRowKeeps: a checked row keeps what it says of its member (the
// review's reproduction: a row for a member the struct lacks kept all 3).
func TestRowKeeps(t *testing.T) {
	past := 0
	l := Add(new(Limits), "Items", Row[rowInput, string]{Max: 1,
		Past: func(*rowInput, At, *string) { past++ }})
	var in rowInput
	_, err := DecodeBody(&Body{R: strings.NewReader(`{"Items":["a","b","c"]}`), Size: -1}, &in, l)
	require.NoError(t, err)
	require.Equal(t, []string{"a"}, in.Items)
	require.Equal(t, 2, past)
}

// setPoison turns the checked mode of drop on or off for one test.
func setPoison(t *testing.T, on bool) {
	was := poisonDrops
	poisonDrops = on
	t.Cleanup(func() { poisonDrops = was })
}

// TestPoisonedDrops: with the checked mode on (as under the race
// detector), a Past that keeps the view it was shown of a dropped
// element's string reads poison or a later element's text, and one that
// keeps a copy reads the element.
func TestPoisonedDrops(t *testing.T) {
	const elems = 1600
	var b strings.Builder
	b.WriteString(`{"Items":[`)
	var want []string
	for i := range elems {
		if i > 0 {
			b.WriteString(",")
		}
		s := fmt.Sprintf("element %04d %s", i, strings.Repeat("x", i%90))
		want = append(want, s)
		fmt.Fprintf(&b, "%q", s)
	}
	b.WriteString(`]}`)
	body := b.String()
	require.Greater(t, len(body), maxBodyText) // a window that drops

	decode := func(copies bool) (kept []string) {
		l := Add(new(Limits), "Items", Row[rowInput, string]{Max: 1,
			Past: func(_ *rowInput, _ At, e *string) {
				if copies {
					kept = append(kept, strings.Clone(*e))
					return
				}
				kept = append(kept, *e) // wrong: a view of the window
			}})
		var in rowInput
		_, err := DecodeBody(&Body{R: &chunks{b: []byte(body), n: 700}, Size: int64(len(body))}, &in, l)
		require.NoError(t, err)
		require.Equal(t, want[:1], in.Items)
		return kept
	}

	setPoison(t, true)
	require.Equal(t, want[1:], decode(true))
	views := decode(false)
	require.Len(t, views, elems-1)
	// A view of a window the decoder grew out of keeps its bytes (the
	// old window is the collector's, never reused); every later one is
	// wrong, and those the window's move did not write over read poison.
	poisoned, wrong := 0, 0
	for i, v := range views {
		if strings.IndexByte(v, poisonByte) >= 0 {
			poisoned++
		}
		if v != want[i+1] {
			wrong++
		}
	}
	t.Logf("%d of %d views wrong, %d read poison", wrong, len(views), poisoned)
	require.Greater(t, wrong, len(views)*3/4)
	require.Greater(t, poisoned, len(views)/10)
}

// TestPoisonUnderRace: the race detector turns the poison on, so the
// -race run of every package that decodes bodies with Limits checks its
// rows' Past.
func TestPoisonUnderRace(t *testing.T) {
	require.Equal(t, lease.Checked(), poisonDrops)
}
