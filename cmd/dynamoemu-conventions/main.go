package main

import (
	"context"
	"errors"
	"fmt"
	"os"

	"github.com/dynamoemu/dynamoemu/internal/conventionscheck"
)

func main() {
	err := conventionscheck.Run(context.Background(), os.Args[1:], os.Stdout, os.Stderr)
	if code := conventionscheck.ExitCode(err); code != 0 {
		if !errors.Is(err, conventionscheck.ErrViolations) { // the lines and the summary said which
			fmt.Fprintln(os.Stderr, "dynamoemu-conventions:", err)
		}
		os.Exit(code)
	}
}
