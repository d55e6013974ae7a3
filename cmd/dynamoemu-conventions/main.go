package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"os"
)

func main() {
	if err := conventionsCommand(context.Background(), os.Args[1:], os.Stdout, os.Stderr); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			os.Exit(0)
		}
		if errors.Is(err, errViolations) {
			os.Exit(exitViolations) // the lines and the summary said which
		}
		fmt.Fprintln(os.Stderr, "dynamoemu-conventions:", err)
		os.Exit(exitError)
	}
}
