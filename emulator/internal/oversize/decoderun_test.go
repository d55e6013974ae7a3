package oversize

import (
	"bytes"
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/dynamoemu/dynamoemu/emulator/internal/wire"
)

// decodedPuts is what a run of write requests decodes to, for
// comparing: each item's JSON as the wire encodes it.
type decodedPuts struct {
	RequestItems map[string][]struct {
		PutRequest *struct{ Item wire.WireItem }
	}
}

// TestDecodeRunInPlace: a run past twice maxRunBytes is decoded where it
// is in the body, and gets what the copy gets (decoded, fault or none),
// with the body's bytes, those past its length too, as they were.
func TestDecodeRunInPlace(t *testing.T) {
	const pre, post = `{"RequestItems":{"t":[`, `]}}`
	big := func(last string) string {
		var b strings.Builder
		b.WriteString(`{"PutRequest":{"Item":{"pk":{"S":"b"},"l":{"L":[`)
		for i := range 6000 {
			fmt.Fprintf(&b, `{"N":"%07d"},`, i)
		}
		b.WriteString(last + `]}}}}`)
		return b.String()
	}
	tests := []struct {
		name      string
		elem      string
		ok, clean bool
	}{
		{"clean", big(`{"S":"x"}`), true, true},
		{"a value fault", big(`{"N":"x1"}`), true, false},
		{"a syntax fault", big(`{"N":5}`), false, false},
		{"not closed", big(`{"S":"x"`), false, false},
	}
	for _, tc := range tests {
		for _, room := range []int{0, 1, 2, 8} { // bytes past the run within len: the rest only in cap
			t.Run(fmt.Sprintf("%s/%d", tc.name, room), func(t *testing.T) {
				head, tail := `{"RequestItems":{"tab":[`, `]},"ReturnConsumedCapacity":"TOTAL"}`
				body := make([]byte, 0, len(head)+len(tc.elem)+len(tail))
				body = append(body, head...)
				body = append(body, tc.elem...)
				body = append(body, tail[:room]...)
				full := body[:cap(body)]
				copy(full[len(body):], "past the length")
				was := bytes.Clone(full)
				run := wire.Span{Start: len(head), End: len(head) + len(tc.elem)}
				require.Greater(t, run.End-run.Start, 2*maxRunBytes)

				var inPlace, copied decodedPuts
				ok, clean := DecodeRun(body, run, pre, post, &inPlace)
				require.Equal(t, was, full, "the body's bytes are put back")
				dOK, dClean := func() (bool, bool) {
					deferred, err := decodeAlone(body, run, pre, post, &copied)
					return err == nil, err == nil && deferred == nil
				}()
				require.Equal(t, tc.ok, ok)
				require.Equal(t, tc.clean, clean)
				require.Equal(t, dOK, ok)
				require.Equal(t, dClean, clean)
				if ok {
					require.Equal(t, copied, inPlace)
				}
			})
		}
	}
}
