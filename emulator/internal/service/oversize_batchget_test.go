package service

import (
	"fmt"
	"math/rand/v2"
	"os"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/dynamoemu/dynamoemu/emulator/internal/apierr"
	"github.com/dynamoemu/dynamoemu/emulator/internal/testkit"
	"github.com/dynamoemu/dynamoemu/internal/expr"
)

// batchGetBody is a random BatchGetItem body with the shapes whose
// answer the keys' cut must work out: tables named twice or with a name
// the answer echoes the map for; a table's value null, without Keys,
// with Keys null, empty, given twice or in another case; lists of 0 to
// 6,000 keys, their echo short or past 64 KB, with a fault that decoding
// reports or a value fault at a random place; attribute names of several
// bytes a rune, so the echo's cut can fall inside one; other members
// before and after Keys (a repeated AttributesToGet; AttributesToGet of
// up to 6,000 names, with a stem, of random letters and digits, or long,
// with a fault, an empty, repeated or too long name or null at a random
// place, before or after Keys, with Keys again after it);
// RequestItems
// given again, null or in another case; a bad ReturnConsumedCapacity;
// many tables of 100 keys or fewer, their total over 100, exactly 100 or
// 101, some named twice or no table name, with few faults.
func batchGetBody(r *rand.Rand) string {
	many := false    // many tables: fewer faults, nulls and names
	var counts []int // the next lists' lengths, when set

	key := func(i int, pad string) string {
		return fmt.Sprintf(`{"pk":{"S":"k%d%s"}}`, i, pad)
	}
	keys := func() string {
		n := testkit.Pick(r, 0, 1, 60, 100, 101, 102, 150, 1500, 3000, 6000)
		bad := r.IntN(10)
		if many {
			n = testkit.Pick(r, 1, 2, 3, 9, 50, 99, 100, 100, 0, 101)
			bad = r.IntN(80)
		}
		if len(counts) > 0 {
			n, counts = counts[0], counts[1:]
		}
		pad := testkit.Pick(r, "", strings.Repeat("x", 60), strings.Repeat("é€", 40), "<&>")
		at := r.IntN(n + 1)
		var b strings.Builder
		b.WriteString("[")
		for i := range n {
			if i > 0 {
				b.WriteString(testkit.Pick(r, ",", ",", ",", " , "))
			}
			switch {
			case i == at && bad == 0:
				b.WriteString(`{"pk":{"S":5}}`) // serialization
			case i == at && bad == 1:
				b.WriteString(`{"pk":{"N":"x1"}}`) // a value fault
			case i == at && bad == 2:
				b.WriteString(`7`)
			case i == at && bad == 3:
				b.WriteString(`null`)
			case i == at && bad == 4:
				fmt.Fprintf(&b, `{"%s":{"S":"x"}}`, strings.Repeat("ü", 1+r.IntN(3)))
			default:
				b.WriteString(key(i, pad))
			}
		}
		b.WriteString("]")
		return b.String()
	}
	names := func() string { // an AttributesToGet of up to 6,000 names, its echo short or past 64 KB
		n := testkit.Pick(r, 1, 50, 2000, 6000)
		pad := testkit.Pick(r, "", strings.Repeat("n", 30), strings.Repeat("é€", 10), "<&>")
		name := func(i int) string { return fmt.Sprintf("a%d%s", i, pad) }
		switch r.IntN(4) {
		case 0: // random letters and digits, which compress little
			name = func(i int) string { return fmt.Sprintf("r%d%s", i, strconv.FormatUint(r.Uint64(), 36)) }
		case 1: // long
			long := 200 + r.IntN(100)
			name = func(i int) string {
				return fmt.Sprintf("l%d%s", i, strings.Repeat(strconv.FormatUint(r.Uint64()|1<<63, 36), 25)[:long])
			}
		}
		bad, at := r.IntN(8), r.IntN(n)
		var b strings.Builder
		first := ""
		b.WriteString(`"AttributesToGet":[`)
		for i := range n {
			if i > 0 {
				b.WriteString(testkit.Pick(r, ",", ",", " , "))
			}
			switch {
			case i == at && bad == 0:
				b.WriteString(`5`) // serialization
			case i == at && bad == 1:
				b.WriteString(`""`)
			case i == at && bad == 2 && i > 0:
				b.WriteString(first) // a repeat of the first
			case i == at && bad == 3:
				b.WriteString(`null`)
			case i == at && bad == 4:
				b.WriteString(`"` + strings.Repeat("o", expr.MaxAttributeNameBytes+1) + `"`) // over the longest name
			case i == n-1 && bad > 4:
				b.WriteString(`"v"`) // the items' attribute: the answer shows it
			default:
				b.WriteString(`"` + name(i) + `"`)
			}
			if i == 0 {
				first = b.String()[len(`"AttributesToGet":[`):]
			}
		}
		b.WriteString("]")
		return b.String()
	}
	object := func() string {
		special := r.IntN(12)
		if many && r.IntN(10) > 0 {
			special = 3
		}
		switch special {
		case 0:
			return "null"
		case 1:
			return `{"ConsistentRead":true}`
		case 2:
			return `{"Keys":null}`
		}
		var members []string
		fewNames := !many || r.IntN(8) == 0
		if r.IntN(4) == 0 && fewNames {
			members = append(members, testkit.Pick(r, `"ConsistentRead":true`, `"ProjectionExpression":"pk"`, `"AttributesToGet":["pk","pk"]`, names()))
		}
		members = append(members, `"Keys":`+keys())
		if r.IntN(3) == 0 && fewNames {
			members = append(members, names())
		}
		if r.IntN(6) == 0 && (!many || r.IntN(12) == 0) {
			members = append(members, testkit.Pick(r, `"Keys":`, `"keys":`)+keys())
		}
		if r.IntN(4) == 0 && fewNames {
			members = append(members, testkit.Pick(r, `"AttributesToGet":["pk"]`, `"ProjectionExpression":"pk"`, `"ExpressionAttributeNames":{"#a":"pk"}`, names()))
		}
		return "{" + strings.Join(members, ",") + "}"
	}
	table := func() string { return testkit.Pick(r, "tab0", "tab1", "tab2", "tab0", "t!0", "zz") }
	requestItems := func() string {
		var parts []string
		if r.IntN(3) == 0 {
			return manyTables(r, table, object, &many, &counts)
		}
		for range 1 + r.IntN(3) {
			parts = append(parts, `"`+table()+`":`+object())
		}
		return "{" + strings.Join(parts, ",") + "}"
	}
	var members []string
	if r.IntN(6) == 0 {
		members = append(members, `"ReturnConsumedCapacity":"TOTAL"`)
	}
	members = append(members, `"RequestItems":`+requestItems())
	switch r.IntN(10) {
	case 0:
		members = append(members, `"RequestItems":`+requestItems())
	case 1:
		members = append(members, `"RequestItems":null`)
	case 2:
		members = append(members, `"requestItems":{}`)
	case 3:
		members = append(members, `"RequestItems":{}`)
	}
	if r.IntN(5) == 0 {
		members = append(members, `"ReturnConsumedCapacity":"SOME"`)
	}
	body := "{" + strings.Join(members, ",") + "}"
	if r.IntN(8) == 0 {
		body = strings.ReplaceAll(body, "[", " [\n ")
	}
	return body
}

// manyTables is a RequestItems map of 2 to 40 tables for batchGetBody:
// their lists of random lengths, or lengths that sum to 100 or 101 with
// a list of 101 or more after; some tables named again or from table.
func manyTables(r *rand.Rand, table, object func() string, many *bool, counts *[]int) string {
	*many = true
	defer func() { *many, *counts = false, nil }()
	tables := 2 + r.IntN(39)
	if r.IntN(3) == 0 { // a total of 100 or 101, then maybe a list over 100
		left := testkit.Pick(r, 100, 101)
		for left > 0 {
			n := min(left, 1+r.IntN(60))
			*counts = append(*counts, n)
			left -= n
		}
		if r.IntN(3) == 0 {
			*counts = append(*counts, testkit.Pick(r, 1, 101, 150))
		}
		tables = len(*counts)
	}
	var parts []string
	odd := 1 + 1000*r.IntN(2) // tables named again or from table: none in half the maps
	for i := range tables {
		name := fmt.Sprintf("m%03d", i)
		switch r.IntN(30 * odd) {
		case 0:
			name = table()
		case 1:
			name = fmt.Sprintf("m%03d", r.IntN(i+1)) // named again
		}
		parts = append(parts, `"`+name+`":`+object())
	}
	return "{" + strings.Join(parts, ",") + "}"
}

// TestBatchGetCutSameAnswer: a BatchGetItem whose Keys are cut as its
// body arrives gets exactly the answer of the whole body decoded (the
// prescans off), byte for byte, as does one cut in the body held whole
// (the prescan: Reduce).
func TestBatchGetCutSameAnswer(t *testing.T) {
	seed := oversizeSeed(t)
	r := rand.New(rand.NewPCG(seed, 7))
	p := newPair(t, r, "tab0", "tab1", "tab2")
	for _, tab := range []string{"tab0", "tab1"} { // items the keys find: their projection is in the answer
		for _, k := range []string{"k1", "k2", "k50"} {
			require.Equal(t, "{}", p.same(t, "PutItem", `{"TableName":"`+tab+`","Item":{"pk":{"S":"`+k+`"},"v":{"S":"x"},"a0":{"S":"y"}}}`, "item"))
		}
	}
	dropped := p.dropped
	cases := 200
	switch {
	case testkit.FullSize():
	case os.Getenv("DYNAMOEMU_HEAVY_TESTS") != "":
		cases = 100 // under -race: within the package's 10 minutes on a loaded machine
	default:
		cases = 60 // and beside a second copy of the suite and other work
	}
	for i := range cases {
		p.same(t, "BatchGetItem", batchGetBody(r), fmt.Sprintf("case %d", i))
	}
	require.Greater(t, p.dropped-dropped, cases/10, "too few requests dropped elements: the test misses them")
	t.Logf("%d of %d dropped elements", p.dropped-dropped, cases)
}

// TestBatchGetCutHoldsLittle: a BatchGetItem far over its 100 keys, read
// as it arrives, is held as its first keys and a read's bytes, not
// whole, its later keys' echo as the answer shows it, and the members
// after its Keys are kept.
func TestBatchGetCutHoldsLittle(t *testing.T) {
	const n = 100_000
	var b strings.Builder
	b.WriteString(`{"RequestItems":{"tab0":{"Keys":[`)
	for i := range n {
		if i > 0 {
			b.WriteString(",")
		}
		fmt.Fprintf(&b, `{"pk":{"S":"k%07d"}}`, i)
	}
	b.WriteString(`],"ConsistentRead":true}},"ReturnConsumedCapacity":"TOTAL"}`)
	body := b.String()
	s := oversizeService(t, "tab0")
	_, input, window := decodeArriving(t, s, "BatchGetItem", body, rand.New(rand.NewPCG(1, 2)))
	kept := input.in.(*BatchGetItemInput)
	tab := kept.RequestItems["tab0"]
	require.Less(t, window, 256<<10, "the body kept: %d bytes of %d", window, len(body))
	require.Len(t, tab.Keys, maxBatchGetKeys+1)
	require.Equal(t, n, len(tab.Keys)+tab.rest.Past)
	require.Greater(t, len(tab.rest.Echo), apierr.MaxEcho)
	require.Less(t, len(tab.rest.Echo), 2*apierr.MaxEcho)
	require.True(t, *tab.ConsistentRead)
	require.Equal(t, "TOTAL", kept.ReturnConsumedCapacity)
	input.Release()
	t.Logf("%d bytes kept as %d, %d keys of %d", len(body), window, len(tab.Keys), n)
}

// FuzzBatchGetCut: any BatchGetItem body reads through ListCutOf
// without a panic and gets the answer the whole body decoded gets. The
// body is the fuzzer's bytes, or a table (the fuzzer's name) of 101 to
// 4,100 copies of the fuzzer's key (about 1 MB at most) with its other key at one place,
// and the fuzzer's bytes after the list.
func FuzzBatchGetCut(f *testing.F) {
	f.Add(false, uint16(3500), uint16(3000), "tab0", `{"pk":{"S":"a"}}`, `{"pk":{"N":"x"}}`, `}},"ReturnConsumedCapacity":"SOME"}`)
	f.Add(false, uint16(3500), uint16(10), "t!0", `{"pk":{"S":"aé€"}}`, `{"pk":{"S":5}}`, `}}}`)
	f.Add(false, uint16(4000), uint16(3999), "tab0", `{"pk":{"S":"a"}}`, `7`, `,"AttributesToGet":["a","a"]}}}`)
	f.Add(false, uint16(3900), uint16(5), "x", `{"pk":{"S":"<&>"}}`, `null`, `,"Keys":[]},"tab0":{"Keys":[{"pk":{"S":"b"}}]}},"RequestItems":null}`)
	f.Add(true, uint16(0), uint16(0), `{"RequestItems":{"tab0":{"Keys":[`, `{"pk":{"S":"a"}}`, `]`, `}}`)
	// over 100 keys in all, no table over 100: the later tables' keys parked
	f.Add(true, uint16(0), uint16(0), `{"RequestItems":{"tab0":{"Keys":[`+strings.Repeat(`{"pk":{"S":"a"}},`, 99)+`{}]},"tab1":{"Keys":[`,
		`{"pk":{"S":"b"}},{"pk":{"S":"c"}}`, `]},"tab2":{"Keys":[{"pk":{"S":"d"}},{"pk":{"S":"e"}}]}`, `},"ReturnConsumedCapacity":"NONE"}`)
	p := fuzzPair(f, "tab0")
	f.Fuzz(func(t *testing.T, raw bool, n, at uint16, name, elem, other, tail string) {
		body := name + elem + other + tail // the fuzzer's bytes as they are
		if !raw {
			count := 101 + int(n)%4000
			count = min(count, 101+(1<<20)/(1+len(elem))) // a body of about 1 MB at most: a run of the fuzzer is quick
			var b strings.Builder
			b.WriteString(`{"RequestItems":{"`)
			b.WriteString(name)
			b.WriteString(`":{"Keys":[`)
			for i := range count {
				if i > 0 {
					b.WriteString(",")
				}
				if i == int(at)%(count+1) {
					b.WriteString(other)
				} else {
					b.WriteString(elem)
				}
			}
			b.WriteString("]")
			b.WriteString(tail)
			body = b.String()
		}
		p.r = rand.New(rand.NewPCG(uint64(n), uint64(at)))
		p.same(t, "BatchGetItem", body, "fuzz")
	})
}

// manyTablesBody is a BatchWriteItem body of hundreds of tables with
// long names (so the names before a table soon add up to more echo than
// the answer shows, and the echoes are pruned), some not table names,
// lists of 0 to 30 writes, and some names given again after them with
// a short list, or RequestItems again or null: the shapes where pruning
// an echo too far would show in the answer.
func manyTablesBody(r *rand.Rand) string {
	name := func(i int) string {
		n := fmt.Sprintf("%c%s%d", 'a'+r.IntN(26), strings.Repeat("n", 150+r.IntN(90)), i)
		if r.IntN(40) == 0 {
			n = "!" + n
		}
		return n
	}
	writes := func(m int) string {
		var b strings.Builder
		b.WriteString("[")
		for i := range m {
			if i > 0 {
				b.WriteString(",")
			}
			fmt.Fprintf(&b, `{"PutRequest":{"Item":{"pk":{"S":"k%d"},"v":{"S":"%s"}}}}`, i, strings.Repeat("é", r.IntN(4)))
		}
		b.WriteString("]")
		return b.String()
	}
	tables := 300 + r.IntN(300)
	names := make([]string, tables)
	var parts []string
	for i := range names {
		names[i] = name(i)
		parts = append(parts, `"`+names[i]+`":`+writes(testkit.Pick(r, 0, 1, 5, 25, 26, 30, 150, 400)))
	}
	for range r.IntN(40) { // names given again, after every other: the echoes before a table shorten
		parts = append(parts, `"`+names[r.IntN(tables)]+`":`+writes(testkit.Pick(r, 0, 1, 3)))
	}
	if r.IntN(2) == 0 { // the first names by order given again, empty: the answer shows tables far down the order
		sorted := slices.Clone(names)
		slices.Sort(sorted)
		for _, n := range sorted[:r.IntN(tables)] {
			parts = append(parts, `"`+n+`":[]`)
		}
	}
	body := `{"RequestItems":{` + strings.Join(parts, ",") + `}`
	switch r.IntN(6) {
	case 0:
		body += `,"RequestItems":{"` + names[r.IntN(tables)] + `":[]}`
	case 1:
		body += `,"RequestItems":null,"RequestItems":{"tab0":` + writes(30) + `}`
	}
	return body + "}"
}

// TestBatchWriteManyTablesSameAnswer: a BatchWriteItem of hundreds of
// tables, whose echoes are pruned across tables as the body arrives,
// gets exactly the whole body's answer.
func TestBatchWriteManyTablesSameAnswer(t *testing.T) {
	seed := oversizeSeed(t)
	r := rand.New(rand.NewPCG(seed, 11))
	p := newPair(t, r, "tab0")
	cases := 30
	switch {
	case testkit.FullSize():
	case os.Getenv("DYNAMOEMU_HEAVY_TESTS") != "":
		cases = 12 // under -race: within the package's 10 minutes on a loaded machine
	default:
		cases = 8 // and beside a second copy of the suite and other work
	}
	for i := range cases {
		p.same(t, "BatchWriteItem", manyTablesBody(r), fmt.Sprintf("case %d", i))
	}
	t.Logf("%d of %d dropped elements", p.dropped, cases)
	require.Greater(t, p.dropped, cases/3, "too few requests dropped elements: the test misses them")
}

// TestBatchGetNamesCut: a table's AttributesToGet past the echo the
// answer shows is dropped as the body arrives when the table's Keys are
// over 100 (the answer is their violation), and kept whole when they are
// not, or when Keys come again after it, or when its table comes again
// with fewer keys: each gets the whole body's answer, byte for byte.
func TestBatchGetNamesCut(t *testing.T) {
	r := rand.New(rand.NewPCG(oversizeSeed(t), 3))
	p := newPair(t, r, "tab0", "tab1")
	require.Equal(t, "{}", p.same(t, "PutItem", `{"TableName":"tab0","Item":{"pk":{"S":"k1"},"v":{"S":"x"},"w":{"S":"y"}}}`, "item"))
	keys := func(n int) string { return keysMember(1, n, "") }
	names := func(n int, last string) string {
		var b strings.Builder
		b.WriteString(`"AttributesToGet":[`)
		for i := range n {
			fmt.Fprintf(&b, `"name%07d",`, i)
		}
		return b.String() + `"` + last + `"]`
	}
	const many = 40_000 // 520 KB of names
	cases := []struct {
		name, body string
		cut        bool // the input does not hold the names: its table's Keys are over 100, it is no table, or it has names of its own
	}{
		{"after keys over", `{"RequestItems":{"tab0":{` + keys(150) + `,` + names(many, "v") + `}}}`, true},
		{"before keys over", `{"RequestItems":{"tab0":{` + names(many, "v") + `,` + keys(150) + `,"ConsistentRead":true}}}`, true},
		{"bad name echoed", `{"RequestItems":{"t!0":{` + keys(101) + `,` + names(many, "v") + `},"tab0":{` + keys(1) + `}}}`, true},
		{"keys at limit", `{"RequestItems":{"tab0":{` + keys(100) + `,` + names(many, "v") + `},"tab1":{` + keys(101) + `}}}`, false},
		{"keys again", `{"RequestItems":{"tab0":{` + keys(150) + `,` + names(many, "v") + `,` + keys(1) + `}}}`, false},
		{"keys again over", `{"RequestItems":{"tab0":{` + keys(150) + `,` + names(many, "v") + `,` + keys(120) + `}}}`, true},
		{"table again", `{"RequestItems":{"tab0":{` + keys(150) + `,` + names(many, "v") + `},"tab0":{` + keys(2) + `,` + names(3, "w") + `}}}`, true},
		{"repeat past the echo", `{"RequestItems":{"tab0":{` + keys(1) + `,` + names(many, "name0000000") + `}}}`, false},
		{"fault past the echo", `{"RequestItems":{"tab0":{` + keys(150) + `,` + strings.TrimSuffix(names(many, "v"), `]`) + `,7]}}}`, true},
		// a later list's null keeps the earlier list's name at its place,
		// which the bad name's echo shows
		{"names again with null", `{"RequestItems":{"t!0":{` + keys(150) + `,` + names(many, "v") + `,"AttributesToGet":[` + strings.Repeat(`"a",`, 10_000) + `null]}}}`, true},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			p.same(t, "BatchGetItem", tc.body, tc.name)
			_, input, window := decodeArriving(t, p.s, "BatchGetItem", tc.body, r)
			require.Less(t, window, 200<<10, "the body kept: %d bytes of %d", window, len(tc.body))
			names := 0
			if in, ok := input.in.(*BatchGetItemInput); ok {
				for _, t := range in.RequestItems {
					if t != nil {
						names += len(t.AttributesToGet)
					}
				}
			}
			if tc.cut {
				require.Less(t, names, many/2, "the names were kept")
			} else {
				require.Greater(t, names, many, "the names were let go")
			}
			input.Release()
		})
	}
}

// FuzzBatchGetNamesCut: a BatchGetItem whose table has the fuzzer's
// number of keys (0 to 300) and an AttributesToGet of 70 KB and up to
// 2,000 copies of the fuzzer's element (past the echo it shows) with
// its other element at one place, then the fuzzer's bytes, reads
// through ListCutOf without a panic and gets the whole body's answer.
func FuzzBatchGetNamesCut(f *testing.F) {
	f.Add(uint16(150), uint16(3000), uint16(10), "tab0", `"abcdefghijklmnopqrst"`, `5`, `}}}`)
	f.Add(uint16(101), uint16(6000), uint16(5999), "tab0", `"é€<&>é€<&>é€<&>é€<&>"`, `""`, `,"Keys":[{"pk":{"S":"a"}}]}}}`)
	f.Add(uint16(100), uint16(4000), uint16(1), "t!0", `"a"`, `"a"`, `},"t!0":null}}`)
	f.Add(uint16(300), uint16(3500), uint16(7), "tab0", `"abcdefghijklmnopqrst"`, `null`, `,"ConsistentRead":true},"tab0":{"Keys":[]}},"RequestItems":null}`)
	p := fuzzPair(f, "tab0")
	f.Fuzz(func(t *testing.T, keys, n, at uint16, name, elem, other, tail string) {
		count := (70<<10)/(1+len(elem)) + int(n)%2000 // past the echo, a body of a few hundred KB at most
		var b strings.Builder
		b.WriteString(`{"RequestItems":{"`)
		b.WriteString(name)
		b.WriteString(`":{"Keys":[`)
		for i := range int(keys) % 301 {
			if i > 0 {
				b.WriteString(",")
			}
			fmt.Fprintf(&b, `{"pk":{"S":"k%d"}}`, i)
		}
		b.WriteString(`],"AttributesToGet":[`)
		for i := range count {
			if i > 0 {
				b.WriteString(",")
			}
			if i == int(at)%count {
				b.WriteString(other)
			} else {
				b.WriteString(elem)
			}
		}
		b.WriteString("]")
		b.WriteString(tail)
		p.r = rand.New(rand.NewPCG(uint64(n), uint64(at)))
		p.same(t, "BatchGetItem", b.String(), "fuzz")
	})
}

// TestBatchGetTotalCut: a BatchGetItem of many tables of 100 keys or
// fewer, over 100 in all, is held as its first keys and one key a table
// once the tables after them close (their total is the answer), and kept
// whole when the total is 100, or when a table, its Keys or RequestItems
// come again, a table is no table name, or a key has a fault: each gets
// the whole body's answer, byte for byte.
func TestBatchGetTotalCut(t *testing.T) {
	r := rand.New(rand.NewPCG(oversizeSeed(t), 9))
	p := newPair(t, r, "tab0")
	pad := strings.Repeat("x", 200)
	keys := func(n int) string { return keysMember(0, n, pad) }
	names := `"AttributesToGet":[` + strings.Repeat(`"abcdefghijklmnopqrstuvwxyz",`, 3000) + `"v"]`
	tables := func(n int, object func(i int) string) string {
		var parts []string
		for i := range n {
			parts = append(parts, fmt.Sprintf(`"m%03d":{%s}`, i, object(i)))
		}
		return strings.Join(parts, ",")
	}
	plain := func(int) string { return keys(100) }
	cases := []struct {
		name, body string
		cut        bool // the keys past the first 101 are let go: the answer is the map's total, its tables', an error
	}{
		{"over in total", `{"RequestItems":{` + tables(40, plain) + `}}`, true},
		{"over in total, names before keys", `{"RequestItems":{` + tables(40, func(int) string { return names + "," + keys(100) }) + `},"ReturnConsumedCapacity":"TOTAL"}`, true},
		{"a list over after", `{"RequestItems":{` + tables(40, plain) + `,"zzz":{` + keys(150) + `}}}`, true},
		{"exactly 100", `{"RequestItems":{` + tables(2, func(int) string { return keys(50) }) + `}}`, false},
		{"table again", `{"RequestItems":{` + tables(40, plain) + `,"m000":{` + keys(1) + `}}}`, true},
		{"keys again", `{"RequestItems":{` + tables(40, func(i int) string {
			if i == 39 {
				return keys(100) + "," + keys(1)
			}
			return keys(100)
		}) + `}}`, true},
		{"keys in another case", `{"RequestItems":{` + tables(40, plain) + `,"m999":{"keys":[]}}}`, true},
		{"request items again", `{"RequestItems":{` + tables(40, plain) + `},"RequestItems":{"m000":{` + keys(1) + `}}}`, true},
		{"names before keys, the map null after", `{"RequestItems":{` + tables(40, func(int) string { return names + "," + keys(100) }) + `},"RequestItems":null}`, true},
		{"no table name", `{"RequestItems":{` + tables(40, plain) + `,"t!0":{` + keys(1) + `}}}`, false},
		{"a value fault", `{"RequestItems":{` + tables(40, func(i int) string {
			if i == 20 {
				return `"Keys":[{"pk":{"S":"a"}},{"pk":{"N":"x1"}}]`
			}
			return keys(100)
		}) + `}}`, true},
		{"a serialization fault", `{"RequestItems":{` + tables(40, func(i int) string {
			if i == 39 {
				return `"Keys":[{"pk":{"S":"a"}},{"pk":{"S":5}}]`
			}
			return keys(100)
		}) + `}}`, true},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			p.same(t, "BatchGetItem", tc.body, tc.name)
			_, input, window := decodeArriving(t, p.s, "BatchGetItem", tc.body, r)
			keys := 0
			if in, ok := input.in.(*BatchGetItemInput); ok {
				for _, t := range in.RequestItems {
					if t != nil {
						keys += len(t.Keys)
					}
				}
			}
			if tc.cut {
				require.Less(t, window, len(tc.body)-35*99*len(pad), "the body kept: %d bytes of %d", window, len(tc.body))
				require.Less(t, keys, 300, "the keys past 101 in all were kept")
			} else {
				require.Equal(t, strings.Count(tc.body, `{"pk":`), keys, "the keys past 101 in all were let go")
			}
			input.Release()
		})
	}
}

// keysMember is a Keys member of n keys, k and their numbers from from,
// then pad.
func keysMember(from, n int, pad string) string {
	var b strings.Builder
	b.WriteString(`"Keys":[`)
	for i := range n {
		if i > 0 {
			b.WriteString(",")
		}
		fmt.Fprintf(&b, `{"pk":{"S":"k%d%s"}}`, from+i, pad)
	}
	return b.String() + "]"
}
