package tools

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestJavaServerArgs: DynamoDB Local's command lines as the server is
// started for them.
func TestJavaServerArgs(t *testing.T) {
	tests := []struct{ java, server []string }{
		{[]string{"-jar", "DynamoDBLocal.jar", "-inMemory"}, []string{"-jar", "DynamoDBLocal.jar", "-inMemory"}},
		{[]string{"-Djava.library.path=./DynamoDBLocal_lib", "-jar", "DynamoDBLocal.jar", "-sharedDb", "-dbPath", "./data"},
			[]string{"-Djava.library.path=./DynamoDBLocal_lib", "-jar", "DynamoDBLocal.jar", "-sharedDb", "-dbPath", "./data"}},
		{[]string{"-Xmx512m", "-server", "-cp", "lib/*", "-jar", "/opt/DynamoDBLocal.jar", "-port", "9000"},
			[]string{"-Xmx512m", "-jar", "/opt/DynamoDBLocal.jar", "-port", "9000"}},
		{[]string{"-Dfoo=bar", "-sharedDb"}, []string{"-Dfoo=bar", "-jar", "DynamoDBLocal.jar", "-sharedDb"}},
		{nil, []string{"-jar", "DynamoDBLocal.jar"}},
	}
	for _, tt := range tests {
		require.Equal(t, tt.server, javaServerArgs(tt.java), "java %v", tt.java)
	}
}

// TestStartsServer: java and dynamoemu-conventions, links to this binary
// as in the image, start the server beside them (here a stand-in that
// writes its arguments) in their place.
func TestStartsServer(t *testing.T) {
	self, err := os.Executable()
	require.NoError(t, err)
	bin := linkTools(t, "java", "dynamoemu-conventions")
	got := filepath.Join(t.TempDir(), "args.json")
	for _, tt := range []struct {
		tool string
		args []string
		want []string
	}{
		{"java", []string{"-Djava.library.path=./DynamoDBLocal_lib", "-jar", "DynamoDBLocal.jar"},
			[]string{"-Djava.library.path=./DynamoDBLocal_lib", "-jar", "DynamoDBLocal.jar"}},
		{"dynamoemu-conventions", []string{"check", "--endpoint", "http://x"}, []string{"conventions", "check", "--endpoint", "http://x"}},
	} {
		cmd := exec.Command(filepath.Join(bin, tt.tool), tt.args...)
		cmd.Env = append(os.Environ(), serverEnv+"="+self, fakeServerEnv+"="+got)
		out, err := cmd.CombinedOutput()
		require.NoError(t, err, "%s", out)
		var args []string
		b, err := os.ReadFile(got)
		require.NoError(t, err)
		require.NoError(t, json.Unmarshal(b, &args))
		require.Equal(t, tt.want, args, tt.tool)
	}

	// With no server beside it, on PATH or named: a clear failure.
	cmd := exec.Command(filepath.Join(bin, "java"), "-jar", "DynamoDBLocal.jar")
	cmd.Env = []string{"PATH=" + t.TempDir()}
	out, err := cmd.CombinedOutput()
	require.Error(t, err)
	require.Equal(t, 127, cmd.ProcessState.ExitCode())
	require.Contains(t, string(out), "java: the dynamoemu server is not beside this binary")
}

// TestServerBeside: the server's binary is found beside the tools' real
// path, through the links named as the tools.
func TestServerBeside(t *testing.T) {
	t.Setenv(serverEnv, "")
	dir := t.TempDir()
	self, err := os.Executable()
	require.NoError(t, err)
	b, err := os.ReadFile(self)
	require.NoError(t, err)
	tools := filepath.Join(dir, "dynamoemu-tools")
	require.NoError(t, os.WriteFile(tools, b, 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(dir, "dynamoemu"), []byte("#!/bin/sh\necho \"$@\" > \"$0.args\"\n"), 0o755))
	require.NoError(t, os.Symlink(tools, filepath.Join(dir, "java")))
	out, err := exec.Command(filepath.Join(dir, "java"), "-jar", "DynamoDBLocal.jar", "-inMemory").CombinedOutput()
	require.NoError(t, err, "%s", out)
	got, err := os.ReadFile(filepath.Join(dir, "dynamoemu.args"))
	require.NoError(t, err)
	require.Equal(t, "-jar DynamoDBLocal.jar -inMemory\n", string(got))
}
