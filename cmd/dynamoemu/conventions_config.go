package main

import (
	"errors"
	"fmt"
	"os"

	"github.com/dynamoemu/dynamoemu/conventions"
)

// errConventionsMoved answers "dynamoemu conventions ...": the check is a
// command of its own (cmd/dynamoemu-conventions), so that the server does
// not link the AWS SDK it needs.
var errConventionsMoved = errors.New("the conventions check is now its own command: dynamoemu-conventions check --endpoint URL --config FILE [table ...] (go install github.com/dynamoemu/dynamoemu/cmd/dynamoemu-conventions@latest)")

// loadConventions reads the -conventions file; "" means none.
func loadConventions(file string) (*conventions.Config, error) {
	if file == "" {
		return nil, nil
	}
	data, err := os.ReadFile(file)
	if err != nil {
		return nil, fmt.Errorf("-conventions: %w", err)
	}
	cfg, err := conventions.ParseConfig(data)
	if err != nil {
		return nil, fmt.Errorf("-conventions %s: %w", file, err)
	}
	return &cfg, nil
}
