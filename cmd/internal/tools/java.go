package tools

import (
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"syscall"
)

// java and dynamoemu-conventions start the server's binary in their place
// (exec: the same process, so the server is the container's PID 1 and
// gets its signals).

// serverEnv names the server's binary when it is neither beside this one
// nor on PATH as dynamoemu.
const serverEnv = "DYNAMOEMU_SERVER"

// serverPath is the server's binary: $DYNAMOEMU_SERVER, else dynamoemu
// beside this binary (the image's /dynamoemu beside /dynamoemu-tools),
// else dynamoemu on PATH.
func serverPath() (string, error) {
	if p := os.Getenv(serverEnv); p != "" {
		return p, nil
	}
	if self, err := os.Executable(); err == nil {
		if real, err := filepath.EvalSymlinks(self); err == nil {
			self = real
		}
		p := filepath.Join(filepath.Dir(self), "dynamoemu")
		if st, err := os.Stat(p); err == nil && !st.IsDir() {
			return p, nil
		}
	}
	p, err := lookPath("dynamoemu")
	if err != nil {
		return "", errors.New("the dynamoemu server is not beside this binary, nor on PATH (or set " + serverEnv + ")")
	}
	return p, nil
}

// execServer replaces this process with the server run with args; it
// returns only when it cannot (an exit status).
func execServer(tool string, args []string, stderr io.Writer) int {
	server, err := serverPath()
	if err == nil {
		err = syscall.Exec(server, append([]string{server}, args...), os.Environ())
	}
	fprintf(stderr, "%s: %v\n", tool, err)
	return 127
}

// runJava is DynamoDB Local's command line: "java [JVM options] -jar
// DynamoDBLocal.jar [flags]", as amazon/dynamodb-local's image runs it
// (its entrypoint is java) and testcontainers-go's module starts it
// (entrypoint java -Djava.library.path=./DynamoDBLocal_lib). It starts
// the server with the same flags and "-jar FILE.jar", by which the server
// takes them with DynamoDB Local's meaning (cmd/dynamoemu/ddblocal_mode.go).
func runJava(args []string, _, stderr io.Writer) int {
	return execServer("java", javaServerArgs(args), stderr)
}

// javaServerArgs is the server's command line for java's args: the JVM
// options -D... and -X... (which the server reads as Java's and ignores),
// then "-jar FILE.jar" (DynamoDBLocal.jar when the command line names
// none), then DynamoDB Local's flags. Other JVM options before -jar (-cp
// DIR, -server) are dropped.
func javaServerArgs(args []string) []string {
	var jvm, flags []string
	jar := "DynamoDBLocal.jar"
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case a == "-jar" && i+1 < len(args):
			jar, flags = args[i+1], append(flags, args[i+2:]...)
			i = len(args)
		case strings.HasPrefix(a, "-D") || strings.HasPrefix(a, "-X"):
			jvm = append(jvm, a)
		case a == "-cp" || a == "-classpath" || a == "--class-path":
			i++ // and its value
		case a == "-server" || a == "-client":
		default:
			flags = append(flags, a)
		}
	}
	return append(append(jvm, "-jar", jar), flags...)
}

// runConventions is the conventions check's old command name:
// "dynamoemu-conventions check ..." is "dynamoemu conventions check ...".
func runConventions(args []string, _, stderr io.Writer) int {
	return execServer("dynamoemu-conventions", append([]string{"conventions"}, args...), stderr)
}
