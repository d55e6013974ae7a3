package main

import (
	"io"
	"reflect"
	"strings"
	"testing"
	"time"
)

func TestSplitJavaArgs(t *testing.T) {
	tests := []struct {
		name             string
		args             string
		wantJava, wantFl string
	}{
		{"no java", "-port 8000 -sharedDb", "", "-port 8000 -sharedDb"},
		{"empty", "", "", ""},
		{"jar", "-jar DynamoDBLocal.jar -sharedDb -dbPath ./data", "-jar DynamoDBLocal.jar", "-sharedDb -dbPath ./data"},
		{"jar only", "-jar DynamoDBLocal.jar", "-jar DynamoDBLocal.jar", ""},
		{"jvm options", "-Djava.library.path=./DynamoDBLocal_lib -Xmx1g -jar DynamoDBLocal.jar -inMemory -port 8001",
			"-Djava.library.path=./DynamoDBLocal_lib -Xmx1g -jar DynamoDBLocal.jar", "-inMemory -port 8001"},
		{"jar without a jar file", "-jar -sharedDb", "", "-jar -sharedDb"},
		{"after the image's entrypoint", "-host 0.0.0.0 -Xmx1g -jar DynamoDBLocal.jar -sharedDb",
			"-Xmx1g -jar DynamoDBLocal.jar", "-host 0.0.0.0 -sharedDb"},
		{"jar last", "-sharedDb -jar DynamoDBLocal.jar", "-jar DynamoDBLocal.jar", "-sharedDb"},
		{"jvm option without jar", "-Xmx1g -sharedDb", "", "-Xmx1g -sharedDb"},
		{"jar as a flag's value", "-dbPath -jar", "", "-dbPath -jar"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			java, flags := splitJavaArgs(strings.Fields(tt.args))
			if got, want := java, strings.Fields(tt.wantJava); len(got)+len(want) > 0 && !reflect.DeepEqual(got, want) {
				t.Errorf("java: got %q, want %q", got, want)
			}
			if got, want := flags, strings.Fields(tt.wantFl); len(got)+len(want) > 0 && !reflect.DeepEqual(got, want) {
				t.Errorf("flags: got %q, want %q", got, want)
			}
		})
	}
}

// TestDynamoDBLocalCommandLine: DynamoDB Local's image arguments, after
// this image's ENTRYPOINT flags, parse as dynamoemu flags with DynamoDB
// Local's meaning: no -inMemory, so the data is in the working directory.
func TestDynamoDBLocalCommandLine(t *testing.T) {
	args := []string{"-host", "127.0.0.1", "-Djava.library.path=./DynamoDBLocal_lib", "-jar", "DynamoDBLocal.jar", "-sharedDb", "-port", "0"}
	_, flags := splitJavaArgs(args)
	c, err := parseFlagsAs(flags, io.Discard, true, nil)
	if err != nil {
		t.Fatalf("got %v, want the flags to parse", err)
	}
	if want := (config{port: 0, portSet: true, ddbLocal: true, ddbLocalCwd: true, dbPath: ".", host: "127.0.0.1", hostSet: true, inMemory: true, console: true, sharedDB: true, logLevel: "info", shutdownGrace: 5 * time.Second, limits: defaultLimits(), store: defaultStoreFlags(), ttlSweepInterval: time.Minute, httpLoop: "own", mcp: defaultMCPFlags(), localstack: localstackFlags{initTimeout: localstackDefaultInitTimeout}}); !reflect.DeepEqual(c, want) {
		t.Fatalf("got %+v, want %+v", c, want)
	}
}
