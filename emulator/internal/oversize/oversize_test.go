package oversize

import (
	"bytes"
	"hash/maphash"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/dynamoemu/dynamoemu/emulator/internal/wire"
)

// list is n JSON objects, each made by elem from its position.
func list(n int, elem func(i int) string) string {
	parts := make([]string, n)
	for i := range parts {
		parts[i] = elem(i)
	}
	return strings.Join(parts, ",")
}

func key(i int) string { return `{"pk":{"S":"k` + strconv.Itoa(i) + `"}}` }

func action(i int) string {
	return `{"Put":{"TableName":"t","Item":{"pk":{"S":"a` + strconv.Itoa(i) + `"}}}}`
}

// TestReductions: a list over its limit is cut to what the answer needs;
// a small body, a list within its limit, or a fault that changes the
// answer leaves the body as it is.
func TestReductions(t *testing.T) {
	Every.Store(true)
	defer Every.Store(false)
	txBody := func(n int, elem func(int) string) string { return `{"TransactItems":[` + list(n, elem) + `]}` }
	// transact reduces a TransactItems list of more than 100 actions to
	// its first 100, as the held body's ListCut does, and says how many
	// it left out.
	transact := func(b string, check func(wire.Span) bool) (string, int) {
		r, n := firstOf([]byte(b), "TransactItems", 100, 100, check)
		if r == nil {
			return "", 0
		}
		return string(r), n - 100
	}
	clean := func(body string) func(wire.Span) bool {
		return func(run wire.Span) bool { return !strings.Contains(body[run.Start:run.End], "bad") }
	}
	tests := []struct {
		name string
		run  func() (reduced string, past int)
		want string // "": not reduced
		past int
	}{
		{"transaction within its limit", func() (string, int) {
			return transact(txBody(100, action), clean(""))
		}, "", 0},
		{"transaction over", func() (string, int) {
			b := txBody(130, action)
			return transact(b, clean(b))
		}, txBody(100, action), 30},
		{"transaction, a fault of its own past the limit", func() (string, int) {
			b := txBody(130, func(i int) string {
				if i == 120 {
					return `{"bad":{}}`
				}
				return action(i)
			})
			return transact(b, clean(b))
		}, "", 0},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, past := tc.run()
			require.Equal(t, tc.want, got)
			require.Equal(t, tc.past, past)
		})
	}
}

// mapCutOf reads body through a MapCut of RequestItems that keeps 25
// elements a list, with echo as its Echoer: the body kept and the cut.
func mapCutOf(t *testing.T, body string, echo func(e *bytes.Buffer, run string, at int) int) (string, Cut) {
	t.Helper()
	lc := ListCut{Member: "RequestItems", Keep: 25, Size: 1024,
		Echoer: func() func(*bytes.Buffer, []byte, wire.Span, int) (int, bool, bool) {
			return func(e *bytes.Buffer, b []byte, run wire.Span, at int) (int, bool, bool) {
				return echo(e, string(b[run.Start:run.End]), at), true, true
			}
		}}
	var buf bytes.Buffer
	n, cut, more, err := lc.Read(&buf, strings.NewReader(body), 1<<30, int64(len(body))+1)
	require.NoError(t, err)
	if more {
		buf.WriteString(body[n:])
	}
	return buf.String(), cut
}

// TestMapCutEcho: a BatchWriteItem over its limit keeps its tables
// with no write requests and echoes every write, tables by name, each
// write at its position in its table.
func TestMapCutEcho(t *testing.T) {
	write := func(i int) string { return `{"PutRequest":{"Item":` + key(i) + `}}` }
	body := `{"RequestItems":{"b":[` + list(30, write) + `],"a":[` + list(2, write) + `]}}`
	var positions []int
	echo := func(e *bytes.Buffer, run string, at int) int {
		n := strings.Count(run, "PutRequest")
		for j := range n {
			e.WriteString("w")
			positions = append(positions, at+j)
		}
		return n
	}
	reduced, cut := mapCutOf(t, body, echo)
	require.Equal(t, `{"RequestItems":{"b":[],"a":[]}}`, reduced)
	require.Equal(t, []string{"{a=[ww], b=[" + strings.Repeat("w", 30) + "]}"}, cut.Echo)
	require.Equal(t, 32, cut.Elems)
	require.Len(t, positions, 32)
	require.Equal(t, 29, positions[29])

	small := `{"RequestItems":{"a":[` + list(25, write) + `]}}`
	kept, cut := mapCutOf(t, small, echo)
	require.Equal(t, small, kept)
	require.Zero(t, cut.Elems)
}

// TestFew: a body of few objects is decoded as it is.
func TestFew(t *testing.T) {
	require.True(t, Few([]byte(`{"TransactItems":[`+list(100, action)+`]}`), 100))
	require.False(t, Few([]byte(`{"TransactItems":[`+list(2000, action)+`]}`), 100))
}

// TestRunBytes: elements are read in runs of at most maxRunBytes and
// one element, however few they are; a run never ends empty.
func TestRunBytes(t *testing.T) {
	Every.Store(true)
	defer Every.Store(false)
	big := func(i int) string {
		return `{"PutRequest":{"Item":{"pk":{"S":"k` + strconv.Itoa(i) + `"},"v":{"S":"` + strings.Repeat("x", 1000) + `"}}}}`
	}
	body := `{"RequestItems":{"t":[` + list(300, big) + `]}}`
	runs, n := 0, 0
	_, cut := mapCutOf(t, body, func(e *bytes.Buffer, run string, at int) int {
		require.Equal(t, n, at)
		require.Less(t, len(run), maxRunBytes+len(big(0))+8, "run %d", runs)
		k := strings.Count(run, "PutRequest")
		require.Positive(t, k)
		runs, n = runs+1, n+k
		return k
	})
	require.NotEmpty(t, cut.Echo)
	require.Equal(t, 300, n)
	require.GreaterOrEqual(t, runs, 300*1000/maxRunBytes)

	stmt := func(i int) string {
		return `{"Statement":"INSERT INTO t VALUE {'pk':'` + strconv.Itoa(i) + strings.Repeat("x", 1000) + `'}"}`
	}
	body = `{"Statements":[` + list(300, stmt) + `]}`
	runs = 0
	reduced := Statements([]byte(body), 25, func(run wire.Span) ([]int, bool, bool) {
		require.Less(t, run.End-run.Start, maxRunBytes+len(stmt(0))+8, "run %d", runs)
		k := strings.Count(body[run.Start:run.End], "Statement")
		runs++
		return slices.Repeat([]int{KindWrite}, k), false, true
	})
	require.NotNil(t, reduced)
	require.GreaterOrEqual(t, runs, 274*1000/maxRunBytes)
}

// TestRepeatedNamesCut: the list is cut after the earliest name an
// earlier one repeats, escaped or not, whatever repeats come later; a
// list without a repeat, or with a fault, is left whole.
func TestRepeatedNamesCut(t *testing.T) {
	Every.Store(true)
	defer Every.Store(false)
	body := func(names string) []byte {
		return []byte(`{"TableName":"t","AttributesToGet":[` + names + `],"Limit":1}`)
	}
	cases := []struct{ names, want string }{
		{`"a","b","c"`, ""},
		{`"a","b","a","b"`, `"a","b","a"`},
		{`"a","b","b","a"`, `"a","b","b"`},
		{`"x","b","c","b","c","x"`, `"x","b","c","b"`},
		{`"a","\u0061","b"`, `"a","\u0061"`},
		{`"a","b","","a"`, ""},
		{`"a",7,"a"`, ""},
		{`"a"`, ""},
	}
	for _, tc := range cases {
		got := RepeatedNames(body(tc.names), "AttributesToGet", 255)
		if tc.want == "" {
			require.Nil(t, got, tc.names)
			continue
		}
		require.Equal(t, string(body(tc.want)), string(got), tc.names)
	}
}

// TestRepeatedNamesLate: a repeat past the first names (found by the
// hashes' table, hashedCut) is cut at the earliest, among many names
// whose bits collide by chance.
func TestRepeatedNamesLate(t *testing.T) {
	Every.Store(true)
	defer Every.Store(false)
	names := make([]string, 20000)
	for i := range names {
		names[i] = `"n` + strconv.Itoa(i) + `"`
	}
	body := func(names []string) string { return `{"AttributesToGet":[` + strings.Join(names, ",") + `]}` }
	require.Nil(t, RepeatedNames([]byte(body(names)), "AttributesToGet", 255))
	late := append(slices.Clone(names[:15000]), `"n7"`, `"n9"`, `"n12"`)
	late = append(late, names[15000:]...)
	require.Equal(t, body(late[:15001]), string(RepeatedNames([]byte(body(late)), "AttributesToGet", 255)))
	escaped := append(slices.Clone(names[:12000]), `"n12"`, `"n9"`)
	require.Equal(t, body(escaped[:12001]), string(RepeatedNames([]byte(body(escaped)), "AttributesToGet", 255)))
}

// TestRepeatedNamesCollide: when the names' hashes collide, the cut is
// either where a name really repeats or none (the list decoded whole),
// never at a name that does not repeat an earlier one.
func TestRepeatedNamesCollide(t *testing.T) {
	Every.Store(true)
	defer Every.Store(false)
	defer func(h func(maphash.Seed, []byte) uint64, n int) { nameHash, earlyNames = h, n }(nameHash, earlyNames)
	earlyNames = 0
	nameHash = func(_ maphash.Seed, b []byte) uint64 { return uint64(len(b)) << 40 } // names of one length collide
	body := func(names string) []byte { return []byte(`{"AttributesToGet":[` + names + `]}`) }
	require.Nil(t, RepeatedNames(body(`"a","b","a"`), "AttributesToGet", 255), "a and b collide")
	require.Equal(t, string(body(`"a","bb","a"`)), string(RepeatedNames(body(`"a","bb","a","bb"`), "AttributesToGet", 255)))
	require.Nil(t, RepeatedNames(body(`"a","bb","cc"`), "AttributesToGet", 255))
}

// FuzzRepeatedNames: whatever the body, the cut list is the body's list
// up to its first repeated name, found by a set of the decoded names;
// a body it does not cut has no repeat or a fault.
func FuzzRepeatedNames(f *testing.F) {
	for _, s := range []string{`"a","b","a"`, `"a","\u0061"`, `"a",""`, `"a",7,"a"`, `"b","a","b","a"`, `"\ud800","\ud800"`} {
		f.Add(`{"AttributesToGet":[` + s + `]}`)
	}
	Every.Store(true)
	defer Every.Store(false)
	defer func(n int) { earlyNames = n }(earlyNames)
	earlyNames = 2 // both ways: the set of the first names, then the hashes
	f.Fuzz(func(t *testing.T, body string) {
		got := RepeatedNames([]byte(body), "AttributesToGet", 8)
		list, ok := topMember([]byte(body), "AttributesToGet")
		if !ok {
			require.Nil(t, got)
			return
		}
		seen := map[string]bool{}
		cut, fault := -1, false
		whole := wire.ArrayElements([]byte(body), list.Start, func(_ int, s wire.Span) bool {
			name, isName := nameAt([]byte(body), s, 8)
			if !isName {
				fault = true
				return false
			}
			if cut < 0 && seen[string(name)] {
				cut = s.End
			}
			seen[string(name)] = true
			return true
		})
		fault = fault || !whole
		if got == nil {
			require.True(t, fault || cut < 0, "a repeat ending at %d was not cut", cut)
			return
		}
		require.False(t, fault)
		require.Equal(t, body[:cut]+"]"+body[list.End:], string(got))
	})
}
