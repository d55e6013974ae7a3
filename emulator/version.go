package emulator

import (
	"runtime/debug"
	"sync"
	"time"

	"github.com/dynamoemu/dynamoemu/emulator/internal/httploop"
)

// The emulator's version: what dynamoemu -version prints, the start-up log
// shows, the console's footer says and every answer of the edge carries in
// its Dynamoemu-Version header.
//
// The header is one of our own rather than Server: the emulator answers
// "Server: Server" as DynamoDB does (server.go), so that a client or a test
// comparing answers with AWS's sees no difference there. Its name has no
// "X-" (RFC 6648) and starts with the product's name, so it cannot meet a
// header of AWS (x-amz-*, x-amzn-*) or of a proxy.

// versionHeaderName is the response header that carries Version().
const versionHeaderName = httploop.HeaderVersion

// modulePath is the module whose version is looked up in the build
// information.
const modulePath = "github.com/dynamoemu/dynamoemu"

// version, when set at link time, is the version:
//
//	go build -ldflags "-X github.com/dynamoemu/dynamoemu/emulator.version=v1.2.3" ./cmd/dynamoemu
var version string

// Version returns the emulator's version: the one set at link time; else
// the module's version in the binary's build information (a release tag
// or pseudo-version when built by go build from a clone with its git
// history, or when the module is a dependency of the binary); else "devel",
// followed by the commit's time and hash and "+dirty" when the build
// information has them (vcs.time, vcs.revision, vcs.modified: a go build
// whose go command did not derive the version itself); else "devel" alone
// (go run and go test stamp no VCS information, nor -buildvcs=false, nor a
// build of a replaced module).
func Version() string { return versionOnce() }

var versionOnce = sync.OnceValue(func() string {
	if version != "" {
		return version
	}
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		return "devel"
	}
	return versionOf(bi)
})

// versionOf is Version's answer for the build information bi.
func versionOf(bi *debug.BuildInfo) string {
	mod := &bi.Main
	if mod.Path != modulePath {
		mod = nil
		for _, d := range bi.Deps {
			if d.Path == modulePath {
				mod = d
				if d.Replace != nil {
					mod = d.Replace
				}
				break
			}
		}
	}
	if mod != nil && mod.Version != "" && mod.Version != "(devel)" {
		return mod.Version
	}
	v := "devel"
	if mod == &bi.Main {
		var revision, at, modified string
		for _, s := range bi.Settings {
			switch s.Key {
			case "vcs.revision":
				revision = s.Value
			case "vcs.time":
				at = s.Value
			case "vcs.modified":
				modified = s.Value
			}
		}
		if revision != "" {
			// As a pseudo-version: the commit's time (UTC), then its
			// hash, so that two source builds sort by their commits.
			if t, err := time.Parse(time.RFC3339, at); err == nil {
				v += "-" + t.UTC().Format("20060102150405")
			}
			v += "-" + revision[:min(12, len(revision))]
			if modified == "true" {
				v += "+dirty"
			}
		}
	}
	return v
}

// versionHeader is the value of every answer's Dynamoemu-Version header;
// nothing modifies it.
var versionHeader = sync.OnceValue(func() []string {
	return []string{Version()}
})
