package service

import (
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// TestTokensExpireWhenTheClockMoves: moving the emulator's clock past a
// token's window forgets it at once, without another request, also with
// a clock of the test's own (which the emulator never calls from a
// goroutine of its own).
func TestTokensExpireWhenTheClockMoves(t *testing.T) {
	env, now := newTxEnv(t)
	e := env.emu
	put := func(tok string) {
		env.mustOK("TransactWriteItems", `{"ClientRequestToken":"`+tok+`","TransactItems":[{"Put":{"TableName":"txh","Item":{"pk":{"S":"`+tok+`"}}}}]}`)
	}
	put("a")
	*now = now.Add(5 * time.Minute)
	put("b")
	// The clock moves as the Emulator's Advance and SetNow move it: the
	// service hears of each move (clockMoved).
	base := *now
	moveTo := func(at time.Time) { *now = at; e.ClockMoved(at) }
	steps := []struct {
		name string
		move func()
		want int
	}{
		{"both kept", func() { moveTo(base.Add(4 * time.Minute)) }, 2},
		{"first window ends", func() { moveTo(base.Add(5 * time.Minute)) }, 1},
		{"back in time keeps the rest", func() { moveTo(base.Add(-55 * time.Minute)) }, 1},
		{"second window ends", func() { moveTo(base.Add(10 * time.Minute)) }, 0},
	}
	for _, s := range steps {
		s.move()
		got, _ := e.tokens.Stats()
		require.Equal(t, s.want, got, "%s: tokens kept", s.name)
	}
}

// BenchmarkTransactWithToken: a TransactWriteItems of two items with a
// ClientRequestToken, through the handler, a new token each time (so
// each one writes): what a user pays for the request's fingerprint
// beside the write itself. blob is each item's string attribute's size.
func BenchmarkTransactWithToken(b *testing.B) {
	for _, blob := range []int{1 << 10, 64 << 10} {
		b.Run(fmt.Sprint("blob=", blob), func(b *testing.B) {
			env, _ := newTxEnv(b)
			x := strings.Repeat("x", blob)
			b.ReportAllocs()
			i := 0
			for b.Loop() {
				i++
				body := fmt.Sprintf(`{"ClientRequestToken":"t%d","TransactItems":[`+
					`{"Put":{"TableName":"txh","Item":{"pk":{"S":"a%d"},"blob":{"S":"%s"}}}},`+
					`{"Put":{"TableName":"txh","Item":{"pk":{"S":"b%d"},"blob":{"S":"%s"}}}}]}`, i, i%100, x, i%100, x)
				if status, out := env.call("TransactWriteItems", body); status != http.StatusOK {
					b.Fatal(out)
				}
			}
		})
	}
}
