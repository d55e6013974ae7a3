package frameworktest

import (
	"encoding/json"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/dynamoemu/dynamoemu/conventions"
	"github.com/dynamoemu/dynamoemu/emulator"
	"github.com/dynamoemu/dynamoemu/emulator/emulatortest"
)

// rapidResult is framework.test.js's summary of its rapid-only run
// (FRAMEWORK_RAPID_ONLY): rounds (entities to write v1..v5), those begun
// (a stall ends its batch), those whose data row reached v5, those left
// waiting when nothing moved (the lost-resume signature), each wait left
// (Framework.lostResumes in harness.js) and any other error.
type rapidResult struct {
	Rounds        int `json:"rounds"`
	Begun         int `json:"begun"`
	ReachedLast   int `json:"reachedLast"`
	StalledRounds int `json:"stalledRounds"`
	Stalled       []struct {
		SK            string `json:"sk"`
		Waiting       int    `json:"waiting"`
		PrevLastState string `json:"prevLastState"`
		WhenReached   string `json:"whenReached"`
		LastState     string `json:"lastState"`
	} `json:"stalled"`
	Errors     []string `json:"errors"`
	Executions int      `json:"executions"`
	Waited     int      `json:"waited"`
	Overlapped int      `json:"overlapped"`
}

// TestRapidVersionsByMode runs the framework's rapid-versions flow against
// emulators with the conventions off (no configuration) and enforced
// (testdata/conventions.json), interleaved, and logs per mode the rounds
// that reached their last version and those that stalled. On demand only:
//
//	FRAMEWORK_TEST=1 FRAMEWORK_RAPID_RUNS=5 go test -count=1 -v -run TestRapidVersionsByMode -timeout 0 ./conventions/internal/frameworktest
//
// FRAMEWORK_RAPID_RUNS is the emulators started per mode, each running
// FRAMEWORK_RAPID_BATCHES (default 1) batches of 20 rounds (5 minutes
// each at most);
// FRAMEWORK_RAPID_MODES (default "off,enforce"; "warn" too) the modes, in
// turn, each run starting from the next mode. It fails when a mode stalls
// or misses a round.
func TestRapidVersionsByMode(t *testing.T) {
	runs, _ := strconv.Atoi(os.Getenv("FRAMEWORK_RAPID_RUNS"))
	if os.Getenv("FRAMEWORK_TEST") == "" || runs <= 0 {
		t.Skip("on demand: FRAMEWORK_TEST=1 FRAMEWORK_RAPID_RUNS=N (doc comment)")
	}
	nb, _ := strconv.Atoi(os.Getenv("FRAMEWORK_RAPID_BATCHES"))
	nb = max(nb, 1)
	modes := strings.Split(os.Getenv("FRAMEWORK_RAPID_MODES"), ",")
	if modes[0] == "" {
		modes = []string{"off", "enforce"}
	}
	node, dir, data := setup(t)
	totals := map[string]*rapidResult{}
	for _, m := range modes {
		totals[m] = &rapidResult{}
	}
	for i := 0; i < runs; i++ {
		for j := range modes {
			mode := modes[(i+j)%len(modes)]
			opts := emulator.Options{SharedDB: true, Conventions: modeConfig(t, data, mode)}
			t.Run(mode, func(t *testing.T) {
				url, _, _ := emulatortest.NewServerWith(t, opts)
				out := runScript(t, node, dir, url, time.Duration(nb)*5*time.Minute, "FRAMEWORK_RAPID_ONLY="+strconv.Itoa(nb))
				var r struct{ RapidOnly rapidResult }
				if err := json.Unmarshal([]byte(out[strings.LastIndex(strings.TrimSpace(out), "\n")+1:]), &r); err != nil {
					t.Fatalf("rapid-only summary: %v\n%s", err, out)
				}
				tot := totals[mode]
				tot.Rounds += r.RapidOnly.Rounds
				tot.Begun += r.RapidOnly.Begun
				tot.Errors = append(tot.Errors, r.RapidOnly.Errors...)
				tot.ReachedLast += r.RapidOnly.ReachedLast
				tot.StalledRounds += r.RapidOnly.StalledRounds
				tot.Stalled = append(tot.Stalled, r.RapidOnly.Stalled...)
				tot.Executions += r.RapidOnly.Executions
				tot.Waited += r.RapidOnly.Waited
				tot.Overlapped += r.RapidOnly.Overlapped
				t.Logf("run %d %s: %+v", i, mode, r.RapidOnly)
			})
		}
	}
	for _, m := range modes {
		r := totals[m]
		t.Logf("%-7s rounds %d, begun %d, reached v5 %d, stalled %d, errors %d (executions %d, waited %d, overlapped %d)",
			m, r.Rounds, r.Begun, r.ReachedLast, r.StalledRounds, len(r.Errors), r.Executions, r.Waited, r.Overlapped)
		for _, s := range r.Stalled {
			if s.WhenReached != "" {
				t.Logf("%-7s stalled: %s: the flow waits for %s; its last state: %s", m, s.SK, s.WhenReached, s.LastState)
				continue
			}
			t.Logf("%-7s stalled: %s: v%d waits at wait_prev_command for v%d, whose last state: %s", m, s.SK, s.Waiting, s.Waiting-1, s.PrevLastState)
		}
		for _, e := range r.Errors {
			t.Logf("%-7s error: %s", m, e)
		}
		if r.ReachedLast != r.Rounds {
			t.Errorf("%s: %d of %d rounds reached v5", m, r.ReachedLast, r.Rounds)
		}
	}
}

// modeConfig is the emulator's conventions configuration for mode: none
// (off), testdata/conventions.json as it is (enforce) or with every
// table's mode warn (warn).
func modeConfig(t *testing.T, data []byte, mode string) *conventions.Config {
	t.Helper()
	switch mode {
	case "off":
		return nil
	case "warn":
		var raw map[string]any
		if err := json.Unmarshal(data, &raw); err != nil {
			t.Fatal(err)
		}
		for _, tb := range raw["tables"].([]any) {
			tb.(map[string]any)["mode"] = "warn"
		}
		var err error
		if data, err = json.Marshal(raw); err != nil {
			t.Fatal(err)
		}
	case "enforce":
	default:
		t.Fatalf("FRAMEWORK_RAPID_MODES: unknown mode %q (off, warn, enforce)", mode)
	}
	cfg, err := conventions.ParseConfig(data)
	if err != nil {
		t.Fatal(err)
	}
	return &cfg
}
