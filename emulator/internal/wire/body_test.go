package wire

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/dynamoemu/dynamoemu/internal/expr"
)

// streamInput has a member of each kind the decoder reads, and two
// limited lists (streamLimits).
type streamInput struct {
	TableName  string
	Key        WireItem
	Item       WireItem
	Values     ExpressionValues `json:"ExpressionAttributeValues"`
	Names      ExpressionNames  `json:"ExpressionAttributeNames"`
	Get        expr.NameList    `json:"AttributesToGet"`
	Parameters Params
	Limit      *int
	Items      []WireItem
	Tables     map[string][]streamElem
	Any        any

	past  []int // Items' elements past their limit, by position
	lists map[string]int
}

type streamElem struct {
	Put *struct{ Item WireItem }
	N   int
}

// streamLimits keeps 3 of Items and 2 of each of Tables' lists.
var streamLimits = Add(Add(new(Limits), "Items", Row[streamInput, WireItem]{Max: 3,
	Start: func(in *streamInput, _ At) { in.past = nil },
	Past:  func(in *streamInput, at At, _ *WireItem) { in.past = append(in.past, at.I) },
}), "Tables", Row[streamInput, streamElem]{Max: 2,
	Past: func(in *streamInput, at At, e *streamElem) {
		if in.lists == nil {
			in.lists = map[string]int{}
		}
		in.lists[at.Key] += e.N
	},
})

// chunks reads b at most n bytes a read (n < 1: one).
type chunks struct {
	b []byte
	n int
}

func (c *chunks) Read(p []byte) (int, error) {
	if len(c.b) == 0 {
		return 0, io.EOF
	}
	n := copy(p[:min(len(p), max(c.n, 1))], c.b)
	c.b = c.b[n:]
	return n, nil
}

// decodeStream decodes body read n bytes at a time, with lim; size is
// the size it announces.
func decodeStream(body []byte, n int, size int64, lim *Limits) (streamInput, *Deferred, error) {
	var in streamInput
	b := Body{R: &chunks{b: body, n: n}, Size: size}
	def, err := DecodeBody(&b, &in, lim)
	return in, def, err
}

// answer is what a decoding gave, as text.
func answer(in streamInput, def *Deferred, err error) string {
	if err != nil {
		return "error: " + err.Error()
	}
	out, jerr := json.Marshal(struct {
		In    streamInput
		Get   []string
		Past  []int
		Lists map[string]int
		Def   string
	}{in, nameList(in.Get), in.past, in.lists, fmt.Sprint(def)})
	if jerr != nil {
		return "marshal: " + jerr.Error()
	}
	if def != nil {
		return string(out) + " deferred " + def.Err.Error()
	}
	return string(out)
}

func nameList(l expr.NameList) []string {
	var out []string
	for i := range l.Len() {
		out = append(out, l.At(i))
	}
	return out
}

// TestDecodeBodyChunks: a body read as it arrives, a byte at a time or
// in chunks, announced or not, gets the answer of the body held whole,
// with its limited lists dropped as they are read.
func TestDecodeBodyChunks(t *testing.T) {
	items := func(n int) string {
		var b strings.Builder
		for i := range n {
			if i > 0 {
				b.WriteString(",")
			}
			fmt.Fprintf(&b, `{"pk":{"S":"k%d"},"v":{"N":"%d"}}`, i, i)
		}
		return b.String()
	}
	bodies := []string{
		`{}`, ``, `null`, ` null `, `{"TableName":"t","Limit":7}`, `{"TableName":`, `[]`,
		`{"TableName":"t","Key":{"pk":{"S":"a\u00e9"}},"AttributesToGet":["a","b\n","c"],"ExpressionAttributeNames":{"#a":"x"}}`,
		`{"Items":[` + items(2) + `]}`,
		`{"Items":[` + items(50) + `],"TableName":"after"}`,
		`{"Items":[` + items(50) + `],"Items":[` + items(4) + `]}`,
		`{"Items":[` + items(50) + `,{"pk":{"N":"x"}}]}`,
		`{"Items":[` + items(50) + `,{"pk":{"S":5}}]}`,
		`{"Items":[` + items(50) + `,7],"Limit":"x"}`,
		`{"Items":[` + items(50) + `],"Limit":}`,
		`{"Tables":{"a":[{"N":1},{"N":2},{"N":3},{"Put":{"Item":{"pk":{"S":"x"}}},"N":4}],"b":[{"N":5}],"a":[{"N":6},{"N":7},{"N":8}]}}`,
		`{"ExpressionAttributeValues":{":a":{"S":"x"},":b":{"L":[{"N":"1"},{"N":"x"}]}},"Parameters":[{"S":"a"},{"N":"2"}]}`,
		`{"Item":{"l":{"L":[` + strings.Repeat(`{"S":"`+strings.Repeat("x", 1000)+`"},`, 500) + `{"L":[{"L":[{"N":"1"}]}]},{"S":"y"}]}}}`,
		`{"Any":{"a":[1,2,{"b":null}],"c":"d"},"TableName":"t"}`,
		`  {"TableName" : "t" , "Limit" : 1e3 }  `,
		`{"TableName":"t"} x`,
	}
	for i, body := range bodies {
		want := answer(decodeStream([]byte(body), 1<<30, int64(len(body)), streamLimits))
		for _, n := range []int{1, 2, 7, 100, 4096} {
			for _, size := range []int64{int64(len(body)), -1} {
				got := answer(decodeStream([]byte(body), n, size, streamLimits))
				require.Equal(t, want, got, "body %d read %d bytes at a time, size %d", i, n, size)
			}
		}
	}
}

// TestDecodeBodyDrops: a limited list's elements past its limit leave
// the window as they are read: what a body far over its limit keeps is
// the elements kept and a read's bytes.
func TestDecodeBodyDrops(t *testing.T) {
	var b strings.Builder
	b.WriteString(`{"Items":[`)
	for i := range 20000 {
		if i > 0 {
			b.WriteString(",")
		}
		fmt.Fprintf(&b, `{"pk":{"S":"k%06d"},"v":{"S":"%s"}}`, i, strings.Repeat("x", 100))
	}
	b.WriteString(`],"TableName":"t"}`)
	body := []byte(b.String())
	var in streamInput
	src := Body{R: &chunks{b: body, n: 32 << 10}, Size: int64(len(body))}
	_, err := DecodeBody(&src, &in, streamLimits)
	require.NoError(t, err)
	require.Len(t, in.Items, 3)
	require.Len(t, in.past, 20000-3)
	require.Equal(t, "t", in.TableName)
	require.Less(t, cap(src.Buf), 4*readChunk, "a window of %d bytes for a body of %d", cap(src.Buf), len(body))
	require.True(t, json.Valid(src.Buf), "the window is JSON: %.200s", src.Buf)
}

// TestDecodeBodyLimit: a body past its Limit stops there, with
// ErrTooLarge, whatever the decoder thinks of its bytes.
func TestDecodeBodyLimit(t *testing.T) {
	body := []byte(`{"TableName":"` + strings.Repeat("x", 1000) + `"}`)
	var in streamInput
	src := Body{R: &chunks{b: body, n: 64}, Size: -1, Limit: 500}
	_, err := DecodeBody(&src, &in, nil)
	require.Error(t, err)
	require.True(t, errors.Is(src.Err, ErrTooLarge), "%v", src.Err)
	require.LessOrEqual(t, src.N, int64(501))
}

// FuzzDecodeBody: any body, read in chunks of any size, gets the answer
// of the body held whole, with and without the limits.
func FuzzDecodeBody(f *testing.F) {
	f.Add(`{"Items":[{"pk":{"S":"a"}},{},{},{},{"x":{"N":"1"}},7]}`, uint8(1), true)
	f.Add(`{"Tables":{"a":[{"N":1},{"N":2},{"N":3}],"a":null}}`, uint8(3), true)
	f.Add(`{"ExpressionAttributeValues":{":a":{"L":[{"N":"1"}]}},"AttributesToGet":["a"]}`, uint8(5), false)
	f.Add(`{"Key":{"a":{"M":{"b":{"SS":["x","x"]}}}},"TableName":"t"}`, uint8(2), true)
	f.Fuzz(func(t *testing.T, body string, n uint8, limited bool) {
		lim := streamLimits
		if !limited {
			lim = nil
		}
		want := answer(decodeStream([]byte(body), 1<<30, int64(len(body)), lim))
		require.Equal(t, want, answer(decodeStream([]byte(body), int(n), -1, lim)))
		if !limited {
			var whole streamInput
			def, err := DecodeRequestDeferred([]byte(body), &whole)
			require.Equal(t, want, answer(whole, def, err))
		}
	})
}

// TestDecodeBodyKeptStrings: the strings of a body over maxBodyText,
// short ones sharing chunks and the room past long ones (keepText), are
// the body's and stay so once the body and its window are overwritten.
func TestDecodeBodyKeptStrings(t *testing.T) {
	var b strings.Builder
	b.WriteString(`{"TableName":"t","Items":[`)
	for i := range 40 {
		if i > 0 {
			b.WriteString(",")
		}
		fmt.Fprintf(&b, `{"pk":{"S":"k%d"},"n":{"N":"%d"},"long":{"S":"%s"},"m":{"M":{"a":{"SS":["x%d","y"]}}},"s":{"S":"%s"}}`,
			i, i, strings.Repeat(string(rune('a'+i%26)), 60+i*97), i, strings.Repeat("z", i%70))
	}
	b.WriteString(`]}`)
	body := []byte(b.String())
	require.Greater(t, len(body), maxBodyText)
	want := answer(decodeStream(append([]byte(nil), body...), 1<<30, int64(len(body)), nil))
	for _, size := range []int64{int64(len(body)), -1} {
		var in streamInput
		src := append([]byte(nil), body...)
		bd := Body{R: &chunks{b: src, n: 1000}, Size: size}
		def, err := DecodeBody(&bd, &in, nil)
		for i := range src {
			src[i] = 'x'
		}
		for i := range bd.Buf[:cap(bd.Buf)] {
			bd.Buf[:cap(bd.Buf)][i] = 'x'
		}
		require.Equal(t, want, answer(in, def, err), "size %d", size)
	}
}

// admittedAll is a reader's admission that covers n bytes.
type admittedAll int64

func (a admittedAll) Admitted() int64 { return int64(a) }

// TestBodyWindowAdmitted reads a 4 MB body through its window and sums
// the buffers the window was given: doubling from 8 KB to a quarter of
// the body, then its size, without an admission; from a sixteenth once
// the reader's admission covers the body, unless bytes were dropped.
func TestBodyWindowAdmitted(t *testing.T) {
	const size = 4<<20 + 100
	grown := func(adm interface{ Admitted() int64 }, dropped bool) (total int) {
		b := &Body{R: strings.NewReader(strings.Repeat("x", size)), Size: size, Admitted: adm, dropped: dropped}
		data := make([]byte, 0, 8<<10)
		total = cap(data)
		for {
			before := cap(data)
			var ok bool
			data, ok = b.fill(data)
			if cap(data) != before {
				total += cap(data)
			}
			if !ok {
				break
			}
		}
		require.Equal(t, size, len(data))
		return total
	}
	plain := grown(nil, false)
	admitted := grown(admittedAll(size), false)
	t.Logf("buffers for a %d-byte body: %d without an admission, %d with", size, plain, admitted)
	require.Greater(t, plain, size+size/4, "doubling to a quarter of the body")
	require.LessOrEqual(t, admitted, size+1+size/8, "the size taken at a sixteenth")
	require.Equal(t, plain, grown(admittedAll(size-1), false), "an admission short of the body")
	require.Equal(t, plain, grown(admittedAll(size), true), "a window the decoder dropped from")
}
