package main

import (
	"fmt"
	"strings"
	"time"

	"github.com/dynamoemu/dynamoemu/emulator"
)

// -lag: eventual consistency on demand from the start.
// Comma-separated settings, each VIEW=MODE:
//
//	Orders/byStatus=250ms   the GSI byStatus of every table Orders sees writes 250 ms late
//	Orders/*=hold           every GSI of Orders, until released (POST /dynamoemu/lag)
//	Orders:reads=1s         Orders' eventually consistent reads answer writes 1 s late
//	Orders:stream=500ms     Orders' stream records come 500 ms after their writes
//
// Delays are on the emulator's clock.
const lagUsage = `lag tables from their creation: comma-separated TABLE/GSI=MODE (TABLE/*: every GSI), TABLE:reads=MODE (eventually consistent reads) or TABLE:stream=MODE, MODE a delay (250ms) or hold (until POST /dynamoemu/lag releases it)`

// parseLag parses -lag's value.
func parseLag(v string) ([]emulator.LagSetting, error) {
	var out []emulator.LagSetting
	for _, part := range strings.Split(v, ",") {
		part = strings.TrimSpace(part)
		if part == "" {
			continue
		}
		view, mode, ok := strings.Cut(part, "=")
		if !ok {
			return nil, fmt.Errorf("-lag: %q: want VIEW=MODE", part)
		}
		var l emulator.LagSetting
		switch {
		case strings.HasSuffix(view, ":reads"):
			l.Table, l.Reads = strings.TrimSuffix(view, ":reads"), true
		case strings.HasSuffix(view, ":stream"):
			l.Table, l.Stream = strings.TrimSuffix(view, ":stream"), true
		default:
			l.Table, l.Index, ok = strings.Cut(view, "/")
			if !ok || l.Index == "" {
				return nil, fmt.Errorf("-lag: %q: want TABLE/GSI, TABLE:reads or TABLE:stream", view)
			}
		}
		if l.Table == "" {
			return nil, fmt.Errorf("-lag: %q: no table", view)
		}
		if mode == "hold" {
			l.Hold = true
		} else {
			d, err := time.ParseDuration(mode)
			if err != nil || d < 0 {
				return nil, fmt.Errorf("-lag: %q: want a delay (250ms) or hold", mode)
			}
			l.Delay = d
		}
		out = append(out, l)
	}
	return out, nil
}
