package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"os"

	"github.com/dynamoemu/dynamoemu/internal/conventionscheck"
)

func main() {
	if err := conventionscheck.Run(context.Background(), os.Args[1:], os.Stdout, os.Stderr); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			os.Exit(0)
		}
		if errors.Is(err, conventionscheck.ErrViolations) {
			os.Exit(conventionscheck.ExitViolations) // the lines and the summary said which
		}
		fmt.Fprintln(os.Stderr, "dynamoemu-conventions:", err)
		os.Exit(conventionscheck.ExitError)
	}
}
