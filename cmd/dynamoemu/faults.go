package main

import (
	"flag"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/dynamoemu/dynamoemu/emulator"
)

// faultFlags are the flags of fault injection, capacity throttling and
// the access-pattern report.
type faultFlags struct {
	file     string // -faults: a rules file (emulator.ParseFaultRules's JSON)
	throttle string // -throttle: provisioned,hotkeys
	report   bool   // -report: collect from the start, print at shutdown
	design   string // -design: a design file (insights.ParseDesign)
	lag      string // -lag: lag_flag.go
}

func addFaultFlags(fs *flag.FlagSet, f *faultFlags) {
	fs.StringVar(&f.file, "faults", "", `inject faults by the rules of this JSON file ({"seed":1,"rules":[{"table":"Orders","fault":"ProvisionedThroughputExceeded","probability":0.1}]}; see docs/faults.md); PUT /dynamoemu/faults replaces them`)
	fs.StringVar(&f.throttle, "throttle", "", "enforce capacity: provisioned (PROVISIONED tables' and GSIs' read and write capacity, with 300 s of burst) and/or hotkeys (3,000 RCU / 1,000 WCU per partition key per second), comma-separated")
	fs.BoolVar(&f.report, "report", false, "collect the access-pattern report from the start (GET /dynamoemu/report) and print it at shutdown")
	fs.StringVar(&f.lag, "lag", "", lagUsage)
	fs.StringVar(&f.design, "design", "", "check the traffic against the single-table design in this file (see docs/faults.md); the report shows each pattern's requests and what fits none")
}

// apply puts the flags into opts, reading the files.
func (f faultFlags) apply(opts *emulator.Options) error {
	if f.file != "" {
		src, err := os.ReadFile(f.file)
		if err != nil {
			return fmt.Errorf("-faults: %w", err)
		}
		seed, rules, err := emulator.ParseFaultRules(src)
		if err != nil {
			return fmt.Errorf("-faults %s: %w", f.file, err)
		}
		opts.Faults.Rules, opts.Faults.Seed = rules, seed
	}
	for _, w := range strings.Split(f.throttle, ",") {
		switch strings.TrimSpace(w) {
		case "":
		case "provisioned":
			opts.Faults.Throttle.Provisioned = true
		case "hotkeys":
			opts.Faults.Throttle.HotKeys = true
		default:
			return fmt.Errorf("-throttle: %q is not provisioned or hotkeys", w)
		}
	}
	if f.design != "" {
		src, err := os.ReadFile(f.design)
		if err != nil {
			return fmt.Errorf("-design: %w", err)
		}
		opts.Faults.Design = src
	}
	opts.Faults.Report = f.report
	lags, err := parseLag(f.lag)
	if err != nil {
		return err
	}
	opts.Faults.Lags = lags
	return nil
}

// printReport writes the report at shutdown with -report.
func (f faultFlags) printReport(emu *emulator.Emulator, w io.Writer) {
	if f.report {
		_ = emu.Reports().WriteAccess(w)
	}
}
