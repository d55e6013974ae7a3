package lambdaesm

import (
	"encoding/json"
	"fmt"
	"os"
)

// File is a mappings file (cmd/dynamoemu's -eventSourceMappings): the
// Lambda endpoint the functions are invoked at, and the mappings, each
// as CreateEventSourceMapping's request (with TableName instead of
// EventSourceArn when the table does not exist yet).
//
//	{"lambdaEndpoint": "http://localhost:3002",
//	 "mappings": [{"TableName": "tasks-command", "FunctionName": "sync",
//	               "StartingPosition": "LATEST", "MaximumRetryAttempts": 10,
//	               "FilterCriteria": {"Filters": [{"Pattern": "{\"eventName\":[\"INSERT\"]}"}]}}]}
type File struct {
	LambdaEndpoint string `json:"lambdaEndpoint"`
	Mappings       []Spec `json:"mappings"`
}

// LoadFile reads a mappings file and creates its mappings.
func (m *Manager) LoadFile(path string) error {
	b, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	var f File
	if err := json.Unmarshal(b, &f); err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	if f.LambdaEndpoint != "" {
		m.SetEndpoint(f.LambdaEndpoint)
	}
	seen := map[string]int{}
	for i := range f.Mappings {
		if _, err := m.createFrom("file", &f.Mappings[i], seen); err != nil {
			return fmt.Errorf("%s: mapping %d: %w", path, i+1, err)
		}
	}
	return nil
}
