//go:build !wasip1

package main

import (
	"fmt"
	"os"
)

// main says how to build the command: it is of use only in WebAssembly.
func main() {
	fmt.Fprintln(os.Stderr, "dynamoemu-wasm: build it with GOOS=wasip1 GOARCH=wasm go build -buildmode=c-shared (npm/build.sh does)")
	os.Exit(2)
}
