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
		fmt.Fprintln(os.Stderr, "dynamoemu-conventions:", err)
		os.Exit(2)
	}
}
