package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"runtime/debug"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// crossBuild builds a small program for goos/goarch as .ci/release builds
// the server (cgo off, -trimpath, -s -w, the version set by -X: here of
// the program's own variable, which it prints) and returns its path.
func crossBuild(t *testing.T, goos, goarch, version string) string {
	t.Helper()
	dir := t.TempDir()
	src := filepath.Join(dir, "main.go")
	require.NoError(t, os.WriteFile(src, []byte("package main\n\nvar version string\n\nfunc main() { println(version) }\n"), 0o644))
	out := filepath.Join(dir, "hello-"+goos+"-"+goarch)
	cmd := exec.Command("go", "build", "-trimpath", "-ldflags", "-s -w -X main.version="+version, "-o", out, src)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "CGO_ENABLED=0", "GOOS="+goos, "GOARCH="+goarch, "GOFLAGS=")
	b, err := cmd.CombinedOutput()
	require.NoError(t, err, "go build for %s/%s: %s", goos, goarch, b)
	return out
}

// TestCheckPlatforms: each platform a release ships is read from its
// header and build information, and passes the check for its own
// platform and version, and no other.
func TestCheckPlatforms(t *testing.T) {
	if testing.Short() {
		t.Skip("cross-compiles three programs")
	}
	tests := []struct {
		goos, goarch, format, machine string
	}{
		{"linux", "arm64", "ELF", "EM_AARCH64"},
		{"darwin", "amd64", "Mach-O", "CpuAmd64"},
		{"windows", "amd64", "PE", "IMAGE_FILE_MACHINE_AMD64"},
	}
	for _, tt := range tests {
		t.Run(tt.goos+"-"+tt.goarch, func(t *testing.T) {
			file := crossBuild(t, tt.goos, tt.goarch, "v1.2.3")
			b, err := readBinary(file)
			require.NoError(t, err)
			require.Equal(t, tt.format, b.format)
			require.Equal(t, tt.machine, b.machine)
			require.Equal(t, tt.goarch, b.arch)
			require.Equal(t, tt.goos+"/"+tt.goarch, b.platform())
			require.Empty(t, b.version, "-trimpath: no link flags in the build information")
			require.NoError(t, b.check(tt.goos+"/"+tt.goarch, "v1.2.3"))
			require.Contains(t, b.version, "v1.2.3 (held by the file")

			b, err = readBinary(file)
			require.NoError(t, err)
			err = b.check("linux/amd64", "v1.2.4")
			require.Error(t, err)
			if tt.goos+"/"+tt.goarch != "linux/amd64" {
				require.ErrorContains(t, err, "built for "+tt.goos+"/"+tt.goarch+", want linux/amd64")
			}
			require.ErrorContains(t, err, `the file does not hold "v1.2.4"`)

			var stdout, stderr bytes.Buffer
			require.Equal(t, 0, run([]string{"check", "-platform", tt.goos + "/" + tt.goarch, "-version", "v1.2.3", file}, &stdout, &stderr), stderr.String())
			require.Contains(t, stdout.String(), tt.format+" "+tt.machine+" executable for "+tt.goos+"/"+tt.goarch)
			require.Equal(t, 1, run([]string{"check", "-platform", "linux/riscv64", "-version", "v1.2.3", file}, &stdout, &stderr))
		})
	}
}

// TestCheckTestBinary: the test binary itself (the host's format, no
// version linked in) fails the check for its version, and a file that is
// no executable is refused.
func TestCheckTestBinary(t *testing.T) {
	exe, err := os.Executable()
	require.NoError(t, err)
	b, err := readBinary(exe)
	require.NoError(t, err)
	require.Equal(t, runtime.GOOS+"/"+runtime.GOARCH, b.platform())
	require.Equal(t, runtime.GOARCH, b.arch)
	// A version made at run time: a literal would be in the test binary.
	absent := fmt.Sprintf("v%d.%d.%d-%s", 9, 8, 7, strings.ToUpper("absent"))
	require.ErrorContains(t, b.check(b.platform(), absent), "does not hold")

	// The build information's own version wins over the file's bytes.
	b.version = "v1.0.0"
	require.NoError(t, b.checkVersion("v1.0.0"))
	require.ErrorContains(t, b.checkVersion("v1.0.1"), `-version prints "v1.0.0", want "v1.0.1"`)

	text := filepath.Join(t.TempDir(), "notes.txt")
	require.NoError(t, os.WriteFile(text, []byte("not a program"), 0o644))
	_, err = readBinary(text)
	require.ErrorContains(t, err, "not an ELF, Mach-O or PE executable")
}

func TestLinkedVersion(t *testing.T) {
	tests := []struct {
		ldflags, want string
		ok            bool
	}{
		{"-s -w -X " + versionVar + "=v1.2.3", "v1.2.3", true},
		{"-X=" + versionVar + "=v2.0.0-rc.1 -s", "v2.0.0-rc.1", true},
		{"-X " + versionVar + "=v1 -X " + versionVar + "=v2", "v2", true},
		{"-X other.version=v1 -s -w", "", false},
		{"-s -w", "", false},
		{"-X", "", false},
	}
	for _, tt := range tests {
		got, ok := linkedVersion(tt.ldflags)
		require.Equal(t, tt.want, got, tt.ldflags)
		require.Equal(t, tt.ok, ok, tt.ldflags)
	}
}

// buildInfoText is a binary's build information as go version -m prints
// it: a replaced module, a path with upper case, an +incompatible version.
const buildInfoText = `go	go1.26.8
path	github.com/dynamoemu/dynamoemu/cmd/dynamoemu
mod	github.com/dynamoemu/dynamoemu	(devel)	
dep	github.com/Azure/go-ansiterm	v0.0.0-20210617225240-d185dfc1b5a1	h1:UQHMgLO+TxOElx5B5HZ4hJQsoJ/PvUvKRhJHDQXO8P8=
dep	github.com/docker/docker	v28.0.1+incompatible	h1:FCHjSRdXhNRFjlHMTv4jUNlIBbTeRjrWfeFuJp7jpo0=
dep	example.com/old	v1.0.0
=>	example.com/new	v1.1.0	h1:abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQ=
build	-buildmode=exe
build	-compiler=gc
build	-trimpath=true
build	-ldflags="-s -w -X github.com/dynamoemu/dynamoemu/emulator.version=v1.2.3"
build	CGO_ENABLED=0
build	GOARCH=arm64
build	GOOS=linux
`

// TestSBOM: the SPDX document of a build information: the binary with
// its checksum and purl, the standard library, each module (the
// replacement where replaced) with its purl and the proxy's URL, a
// DEPENDS_ON from the binary to each, valid identifiers, the same bytes
// for the same input.
func TestSBOM(t *testing.T) {
	bi, err := debug.ParseBuildInfo(buildInfoText)
	require.NoError(t, err)
	bi.Deps = append(bi.Deps, &debug.Module{Path: "example.com/local", Version: "v0.1.0", Replace: &debug.Module{Path: "../local"}})
	b := &binary{format: "ELF", machine: "EM_AARCH64", arch: "arm64", goos: "linux", goarch: "arm64", cgo: "0",
		version: "v1.2.3", goVersion: "go1.26.8", sha256: strings.Repeat("ab", 32), info: bi}
	created := time.Date(2026, 11, 26, 12, 0, 0, 0, time.UTC)
	out, err := sbom(b, "dynamoemu-v1.2.3-linux-arm64", "v1.2.3", created)
	require.NoError(t, err)
	again, err := sbom(b, "dynamoemu-v1.2.3-linux-arm64", "v1.2.3", created)
	require.NoError(t, err)
	require.Equal(t, out, again)

	var doc spdxDoc
	require.NoError(t, json.Unmarshal(out, &doc))
	require.Equal(t, "SPDX-2.3", doc.SPDXVersion)
	require.Equal(t, "CC0-1.0", doc.DataLicense)
	require.Equal(t, "2026-11-26T12:00:00Z", doc.CreationInfo.Created)
	require.Equal(t, "https://github.com/dynamoemu/dynamoemu/spdx/dynamoemu-v1.2.3-linux-arm64-"+b.sha256, doc.DocumentNamespace)

	byName := map[string]spdxPackage{}
	idRE := regexp.MustCompile(`^SPDXRef-[A-Za-z0-9.-]+$`)
	ids := map[string]bool{}
	for _, p := range doc.Packages {
		byName[p.Name] = p
		require.Regexp(t, idRE, p.SPDXID)
		require.False(t, ids[p.SPDXID], "duplicate SPDXID %s", p.SPDXID)
		ids[p.SPDXID] = true
		require.Equal(t, noAssertion, p.LicenseConcluded)
	}
	require.Len(t, doc.Packages, 6) // the binary, stdlib, four modules

	bin := byName["dynamoemu"]
	require.Equal(t, "v1.2.3", bin.VersionInfo)
	require.Equal(t, "APPLICATION", bin.PrimaryPackagePurpose)
	require.Equal(t, []spdxChecksum{{Algorithm: "SHA256", ChecksumValue: b.sha256}}, bin.Checksums)
	require.Equal(t, "pkg:golang/github.com/dynamoemu/dynamoemu@v1.2.3?goos=linux&goarch=arm64", bin.ExternalRefs[0].ReferenceLocator)
	require.Contains(t, bin.Comment, "GOARCH=arm64")
	require.Contains(t, string(out), "?goos=linux&goarch=arm64", "no HTML escaping")

	require.Equal(t, "pkg:golang/stdlib@go1.26.8", byName["stdlib"].ExternalRefs[0].ReferenceLocator)

	azure := byName["github.com/Azure/go-ansiterm"]
	require.Equal(t, "https://proxy.golang.org/github.com/!azure/go-ansiterm/@v/v0.0.0-20210617225240-d185dfc1b5a1.zip", azure.DownloadLocation)
	require.Equal(t, "pkg:golang/github.com/Azure/go-ansiterm@v0.0.0-20210617225240-d185dfc1b5a1", azure.ExternalRefs[0].ReferenceLocator)
	require.Contains(t, azure.Comment, "h1:UQHMgLO+")

	docker := byName["github.com/docker/docker"]
	require.Equal(t, "pkg:golang/github.com/docker/docker@v28.0.1%2Bincompatible", docker.ExternalRefs[0].ReferenceLocator)

	require.NotContains(t, byName, "example.com/old")
	repl := byName["example.com/new"]
	require.Equal(t, "v1.1.0", repl.VersionInfo)
	require.Contains(t, repl.Comment, "Replaces example.com/old v1.0.0")

	local := byName["../local"]
	require.Equal(t, noAssertion, local.DownloadLocation)
	require.Empty(t, local.ExternalRefs)

	require.Contains(t, doc.Relationships, spdxRelationship{Element: "SPDXRef-DOCUMENT", Type: "DESCRIBES", Related: "SPDXRef-Binary"})
	deps := 0
	for _, r := range doc.Relationships {
		if r.Type == "DEPENDS_ON" {
			require.Equal(t, "SPDXRef-Binary", r.Element)
			require.True(t, ids[r.Related], "a relationship to an unknown package %s", r.Related)
			deps++
		}
	}
	require.Equal(t, 5, deps)
}

func TestCreationTime(t *testing.T) {
	got, err := creationTime("2026-01-02T03:04:05Z", "")
	require.NoError(t, err)
	require.Equal(t, time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC), got)
	got, err = creationTime("", "1700000000")
	require.NoError(t, err)
	require.Equal(t, time.Unix(1700000000, 0).UTC(), got)
	_, err = creationTime("", "soon")
	require.Error(t, err)
}

func TestUsage(t *testing.T) {
	var stdout, stderr bytes.Buffer
	require.Equal(t, 2, run(nil, &stdout, &stderr))
	require.Equal(t, 2, run([]string{"check", "file"}, &stdout, &stderr), "no -version")
	require.Equal(t, 1, run([]string{"publish", "-version", "v1", "file"}, &stdout, &stderr))
	require.Contains(t, stderr.String(), `unknown command "publish"`)
}

// FuzzLinkedVersion: any link flags give no panic, and a version found
// is one the flags set with -X.
func FuzzLinkedVersion(f *testing.F) {
	f.Add("-s -w -X " + versionVar + "=v1.2.3")
	f.Add("-X=" + versionVar + "=v1 -X")
	f.Add("-X " + versionVar + "=")
	f.Fuzz(func(t *testing.T, ldflags string) {
		v, ok := linkedVersion(ldflags)
		if !ok {
			require.Empty(t, v)
			return
		}
		require.True(t, strings.Contains(ldflags, versionVar+"="+v), "%q from %q", v, ldflags)
	})
}

// FuzzReadHeader: any bytes are read as an executable's header or
// refused, never a panic; a header read names its format.
func FuzzReadHeader(f *testing.F) {
	f.Add([]byte("\x7fELF\x02\x01\x01"))
	f.Add([]byte("MZ"))
	f.Add([]byte("\xcf\xfa\xed\xfe"))
	f.Fuzz(func(t *testing.T, data []byte) {
		var b binary
		if err := b.readHeader(bytes.NewReader(data)); err == nil {
			require.Contains(t, []string{"ELF", "Mach-O", "PE"}, b.format)
		}
	})
}

// TestCheckoutVersion: the version of a checkout read from its .git alone,
// against git's own answer for the same repository (a tag on the commit,
// packed or loose, lightweight or annotated; else devel and the commit).
func TestCheckoutVersion(t *testing.T) {
	_, err := exec.LookPath("git")
	require.NoError(t, err, "git makes the repository the test reads")
	dir := t.TempDir()
	git := func(args ...string) string {
		cmd := exec.Command("git", append([]string{"-c", "user.name=t", "-c", "user.email=t@example.com", "-c", "init.defaultBranch=main", "-c", "tag.gpgSign=false", "-c", "commit.gpgSign=false"}, args...)...)
		cmd.Dir = dir
		out, err := cmd.CombinedOutput()
		require.NoError(t, err, "git %v: %s", args, out)
		return strings.TrimSpace(string(out))
	}
	git("init", "-q")
	git("commit", "-q", "--allow-empty", "-m", "one")
	first := git("rev-parse", "HEAD")
	got, err := checkoutVersion(dir)
	require.NoError(t, err)
	require.Equal(t, "devel-"+first[:12], got)

	git("tag", "v1.0.0") // lightweight, loose
	got, err = checkoutVersion(dir)
	require.NoError(t, err)
	require.Equal(t, "v1.0.0", got)

	git("commit", "-q", "--allow-empty", "-m", "two")
	git("tag", "-a", "-m", "rel", "v1.1.0") // annotated
	git("pack-refs", "--all")               // as a clone has them: packed, peeled
	got, err = checkoutVersion(dir)
	require.NoError(t, err)
	require.Equal(t, "v1.1.0", got)
	git("checkout", "-q", "--detach", "v1.0.0") // HEAD a commit, not a ref
	got, err = checkoutVersion(dir)
	require.NoError(t, err)
	require.Equal(t, "v1.0.0", got)

	var out, errb bytes.Buffer
	require.Equal(t, 0, run([]string{"version", dir}, &out, &errb))
	require.Equal(t, "v1.0.0\n", out.String())
	out.Reset()
	require.Equal(t, 0, run([]string{"version", t.TempDir()}, &out, &errb))
	require.Equal(t, "devel\n", out.String(), "no .git: devel, and why")
	require.Contains(t, errb.String(), "--build-arg VERSION")
}
