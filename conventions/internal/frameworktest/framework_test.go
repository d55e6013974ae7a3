package frameworktest

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/dynamoemu/dynamoemu/conventions"
	"github.com/dynamoemu/dynamoemu/emulator"
	"github.com/dynamoemu/dynamoemu/emulator/emulatortest"
)

// TestFramework starts an emulator with the framework test's conventions
// configuration and runs testdata/framework.test.js against it: the
// framework's flows must make no violation, and each deliberate violation
// must be refused. The script prints its counts; this test logs them and
// checks the emulator's own report of the last case.
func TestFramework(t *testing.T) {
	if os.Getenv("FRAMEWORK_TEST") == "" {
		t.Skip("set FRAMEWORK_TEST=1 after npm ci in conventions/internal/frameworktest/testdata (doc.go)")
	}
	node, dir, data := setup(t)
	cfg, err := conventions.ParseConfig(data)
	if err != nil {
		t.Fatal(err)
	}
	url, e, _ := emulatortest.NewServerWith(t, emulator.Options{Conventions: &cfg, SharedDB: true})

	stdout := runScript(t, node, dir, url, 5*time.Minute)
	t.Logf("framework.test.js:\n%s", stdout)
	summary, _, _ := strings.Cut(stdout, "\n")
	if !strings.HasPrefix(summary, `{"framework":"@mbc-cqrs-serverless/core@`) {
		t.Fatalf("first line is not the summary: %q", summary)
	}

	// The emulator's own view: the script's last step is a refused task row
	// (B11), the only violation since its last reset.
	rep := e.Reports().Conventions()
	if rep.Violations != 1 || rep.Refused != 1 || len(rep.Tables) != 1 || rep.Tables[0].Counts["B11"] != 1 {
		t.Errorf("emulator report after the script: got %+v, want the one refused B11", rep)
	}
}

// setup finds node, the Node.js project (testdata) with its npm
// dependencies, and reads its conventions configuration; it fails t when
// FRAMEWORK_TEST is set and one is missing.
func setup(t *testing.T) (node, dir string, config []byte) {
	t.Helper()
	node, err := exec.LookPath("node")
	if err != nil {
		t.Fatalf("FRAMEWORK_TEST is set but node is not on PATH: %v", err)
	}
	dir, err = filepath.Abs("testdata")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(dir, "node_modules", "@mbc-cqrs-serverless", "core")); err != nil {
		t.Fatalf("FRAMEWORK_TEST is set but the npm dependencies are missing (npm ci in %s): %v", dir, err)
	}
	config, err = os.ReadFile(filepath.Join(dir, "conventions.json"))
	if err != nil {
		t.Fatal(err)
	}
	return node, dir, config
}

// runScript runs framework.test.js against the emulator at url with the
// extra environment env, for timeout at most, and returns its standard
// output.
func runScript(t *testing.T, node, dir, url string, timeout time.Duration, env ...string) string {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, node, "framework.test.js")
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "DYNAMODB_ENDPOINT="+url, "AWS_ACCESS_KEY_ID=local", "AWS_SECRET_ACCESS_KEY=local")
	cmd.Env = append(cmd.Env, env...)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("framework.test.js: %v\n%s\n%s", err, stdout.String(), stderr.String())
	}
	return stdout.String()
}
