package expr

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/dynamoemu/dynamoemu/internal/storage"
	"github.com/stretchr/testify/require"
)

// nameListOf builds the NameList a decoder would for names written as a
// JSON list: each name at its offset in the text, except those marked
// in copies, given as strings (an escaped name's decoded copy), and
// some given at a wrong offset (the list must keep them as strings).
func nameListOf(names []string, copies func(i int) bool) *NameList {
	var b strings.Builder
	b.WriteString(`{"AttributesToGet":[`)
	offs := make([]int, len(names))
	for i, n := range names {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteByte('"')
		offs[i] = b.Len()
		b.WriteString(n)
		b.WriteByte('"')
	}
	b.WriteString(`]}`)
	l := &NameList{}
	l.Reset(b.String())
	for i, n := range names {
		switch {
		case copies(i):
			l.Add(n, -1)
		case i%7 == 3:
			l.Add(n, offs[i]+1) // wrong offset
		default:
			l.Add(n, offs[i])
		}
	}
	return l
}

// checkListSameAnswer checks AttributesToGetList against
// AttributesToGet: the same error, or the same source form, paths,
// names in order, trie names and projection of items, decoded and
// stored.
func checkListSameAnswer(t *testing.T, names []string, copies func(i int) bool) {
	t.Helper()
	want, wantErr := AttributesToGet(names)
	l := nameListOf(names, copies)
	require.Equal(t, names, l.Names(), "%q", names)
	got, gotErr := AttributesToGetList(l)
	if !sameProjection(t, names, want, wantErr, got, gotErr) {
		return
	}
	require.Equal(t, names, got.LegacyNames(), "%q", names)
	for i := range l.Len() {
		require.Equal(t, want.trie.names[i], l.At(i), "%q", names)
	}
	items := []storage.Item{{"pk": storage.S("p"), "sk": storage.N("1"), "other": storage.S("x")}, {"pk": storage.S("q"), "sk": storage.N("2")}}
	for i, n := range names {
		if i%2 == 0 && n != "pk" && n != "sk" {
			items[0][n] = storage.S(n)
		}
		if i%3 == 0 && n != "pk" && n != "sk" {
			items[1][n] = storage.N(storage.Number(fmt.Sprint(i)))
		}
	}
	encs := store(t, items)
	var buf []byte
	for i, it := range items {
		require.Equal(t, want.Apply(it), got.Apply(it), "%q", names)
		checkProjected(t, "AttributesToGetList", got.Projector(), &buf, encs[i], want.Apply(it))
	}
}

// TestAttributesToGetListSameAnswer checks AttributesToGetList against
// AttributesToGet on random lists: names from a small alphabet (so that
// some repeat), some empty, some with '"' or too long, some kept as
// strings, lists longer than a Projector's run of names.
func TestAttributesToGetListSameAnswer(t *testing.T) {
	rng := rand.New(rand.NewPCG(13, 17))
	long := strings.Repeat("l", MaxAttributeNameBytes+1)
	for round := range 2000 {
		n := 1 + rng.IntN(40)
		if round%50 == 0 {
			n = 300 + rng.IntN(600)
		}
		names := make([]string, n)
		alphabet := 2 + rng.IntN(60)
		if n > 200 {
			alphabet = 4 * n
		}
		for i := range names {
			names[i] = fmt.Sprintf("n%d", rng.IntN(alphabet))
		}
		switch round % 10 {
		case 0:
			names[rng.IntN(len(names))] = ""
		case 1:
			names[rng.IntN(len(names))] = `a"b`
		case 2:
			names[rng.IntN(len(names))] = "pk"
		}
		if round%97 == 0 {
			names[rng.IntN(len(names))] = long
		}
		every := 1 + rng.IntN(5)
		checkListSameAnswer(t, names, func(i int) bool { return i%every == 0 && round%3 == 0 })
	}
}

// TestNameListOf: a list given as strings, and one not given.
func TestNameListOf(t *testing.T) {
	l := NameListOf([]string{"b", "a"})
	require.True(t, l.Given())
	require.Equal(t, []string{"b", "a"}, l.Names())
	empty := NameListOf([]string{})
	require.True(t, empty.Given())
	require.Equal(t, 0, empty.Len())
	none := NameListOf(nil)
	require.False(t, none.Given())
	require.Nil(t, none.Names())
	p, err := AttributesToGetList(&l)
	require.NoError(t, err)
	require.Equal(t, []string{"b", "a"}, p.LegacyNames())
}

// FuzzAttributesToGetList checks AttributesToGetList against
// AttributesToGet on lists split from the input at commas.
func FuzzAttributesToGetList(f *testing.F) {
	f.Add("a,b,a", uint8(0))
	f.Add("b,a,c,b,a", uint8(2))
	f.Add("x,,y", uint8(1))
	f.Add(`a"b,c,a"b`, uint8(3))
	f.Fuzz(func(t *testing.T, s string, every uint8) {
		checkListSameAnswer(t, strings.Split(s, ","), func(i int) bool { return every > 0 && i%int(every) == 0 })
	})
}
