// Command release holds the checks and the SBOM of a release's binaries,
// for .ci/release (docs/release.md). It reads a built binary as it is on
// disk, without running it, so that the binaries of other platforms are
// checked too:
//
//	go run ./cmd/internal/release check -platform linux/arm64 -version v1.2.3 FILE
//	go run ./cmd/internal/release sbom -version v1.2.3 FILE > FILE.spdx.json
//	go run ./cmd/internal/release version DIR
//
// check exits 1 unless FILE is an executable of the platform's format and
// machine (ELF, Mach-O or PE), its build information names the same
// GOOS/GOARCH with cgo off, and its link flags set the emulator's version
// to -version (so that FILE -version prints it). sbom prints an SPDX 2.3
// JSON document of what FILE links, derived from its build information
// (debug/buildinfo): the binary, the Go standard library and every module,
// each with its purl. version prints the version of the checkout in DIR
// (a tag on its commit, else devel- and the commit), read from its .git
// without git: the Dockerfile's default for VERSION; "devel" (and why, on
// stderr) when DIR has no .git to read.
//
// # Files
//
//   - main.go: the command line.
//   - binary.go: a binary's format, machine and build information; the check.
//   - spdx.go: the SPDX document.
//   - gitversion.go: a checkout's version from its .git.
package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"time"
)

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

// run is the command with its arguments; it returns the exit status.
func run(args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		fmt.Fprintln(stderr, "usage: release check|sbom [flags] FILE, or release version DIR")
		return 2
	}
	if args[0] == "version" {
		if len(args) != 2 {
			fmt.Fprintln(stderr, "usage: release version DIR")
			return 2
		}
		v, err := checkoutVersion(args[1])
		if err != nil {
			fmt.Fprintf(stderr, "release version: %v: the version is \"devel\" (give the build --build-arg VERSION=...)\n", err)
			v = "devel"
		}
		fmt.Fprintln(stdout, v)
		return 0
	}
	fs := flag.NewFlagSet("release "+args[0], flag.ContinueOnError)
	fs.SetOutput(stderr)
	version := fs.String("version", "", "the version the binary's -version must print (the tag)")
	platform := fs.String("platform", "", "check: GOOS/GOARCH the binary must be built for")
	name := fs.String("name", "", "sbom: the document's name (default: the file's base name)")
	created := fs.String("created", "", "sbom: the document's creation time, RFC 3339 (default: now; SOURCE_DATE_EPOCH if set)")
	if err := fs.Parse(args[1:]); err != nil {
		return 2
	}
	if fs.NArg() != 1 || *version == "" {
		fmt.Fprintf(stderr, "usage: release %s -version VERSION [flags] FILE\n", args[0])
		return 2
	}
	file := fs.Arg(0)
	var err error
	switch args[0] {
	case "check":
		var b *binary
		if b, err = readBinary(file); err == nil {
			err = b.check(*platform, *version)
		}
		if err == nil {
			fmt.Fprintf(stdout, "%s: %s %s executable for %s, cgo off, -version %s, %s\n",
				file, b.format, b.machine, b.platform(), b.version, b.goVersion)
		}
	case "sbom":
		var t time.Time
		if t, err = creationTime(*created, os.Getenv("SOURCE_DATE_EPOCH")); err == nil {
			var doc []byte
			if doc, err = sbomFile(file, *name, *version, t); err == nil {
				_, err = stdout.Write(doc)
			}
		}
	default:
		err = fmt.Errorf("unknown command %q (check or sbom)", args[0])
	}
	if err != nil {
		fmt.Fprintf(stderr, "release %s: %v\n", args[0], err)
		return 1
	}
	return 0
}

// creationTime is -created, else SOURCE_DATE_EPOCH (seconds since 1970,
// as reproducible builds set it), else now.
func creationTime(flagValue, epoch string) (time.Time, error) {
	switch {
	case flagValue != "":
		return time.Parse(time.RFC3339, flagValue)
	case epoch != "":
		var s int64
		if _, err := fmt.Sscan(epoch, &s); err != nil || s < 0 {
			return time.Time{}, errors.New("SOURCE_DATE_EPOCH is not a number of seconds")
		}
		return time.Unix(s, 0).UTC(), nil
	}
	return time.Now().UTC(), nil
}
