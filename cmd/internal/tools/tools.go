package tools

import (
	"io"
	"path/filepath"
	"sort"
	"strings"
)

// tool is one program: it runs with its arguments (argv without argv[0])
// and returns its exit status.
type tool func(args []string, stdout, stderr io.Writer) int

// byName is every tool by the name the binary is started as. Built at a
// call, so that a start builds nothing it does not run.
func byName() map[string]tool {
	return map[string]tool{
		"sh":                    runShell,
		"bash":                  runShell, // ready.d scripts start with #!/bin/bash
		"curl":                  runCurl,
		"wget":                  runWget,
		"awslocal":              runAwslocal,
		"java":                  runJava,
		"dynamoemu-conventions": runConventions,
	}
}

// binaryName is the binary's own name: started by it, the first argument
// names the tool ("dynamoemu-tools awslocal dynamodb list-tables").
const binaryName = "dynamoemu-tools"

// Main runs the tool argv names (argv[0]'s base name, or the first
// argument when started as dynamoemu-tools) and returns its exit status.
func Main(argv []string, stdout, stderr io.Writer) int {
	name, args := commandName(argv[0]), argv[1:]
	if name == binaryName {
		if len(args) == 0 || strings.HasPrefix(args[0], "-") {
			fprintf(stderr, "usage: %s TOOL [ARGS]  (or a link named TOOL)\ntools: %s\n", binaryName, strings.Join(names(), ", "))
			return 2
		}
		name, args = args[0], args[1:]
	}
	run, ok := byName()[name]
	if !ok {
		fprintf(stderr, "%s: no tool %q (tools: %s)\n", binaryName, name, strings.Join(names(), ", "))
		return 127
	}
	return run(args, stdout, stderr)
}

// names lists the tools, sorted.
func names() []string {
	var out []string
	for n := range byName() {
		out = append(out, n)
	}
	sort.Strings(out)
	return out
}

// commandName is the name a program was started by (argv[0]'s base),
// without a Windows ".exe".
func commandName(argv0 string) string {
	return strings.TrimSuffix(filepath.Base(argv0), ".exe")
}
