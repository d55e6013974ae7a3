package main

import (
	"bytes"
	"crypto/sha256"
	"debug/buildinfo"
	"debug/elf"
	"debug/macho"
	"debug/pe"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"os"
	"runtime/debug"
	"strings"
)

// versionVar is the variable the link flags set to the version
// (emulator/version.go): -ldflags "-X versionVar=v1.2.3".
const versionVar = "github.com/dynamoemu/dynamoemu/emulator.version"

// binary is what a built binary says of itself, read from its file.
type binary struct {
	format    string // ELF, Mach-O or PE
	machine   string // the file header's machine, as the format names it (EM_AARCH64)
	arch      string // that machine as a GOARCH (arm64), "" if neither amd64 nor arm64
	goos      string // from the build information
	goarch    string
	cgo       string // CGO_ENABLED of the build
	version   string // what -version prints: the link flags' version, else the main module's; "" if not recorded
	goVersion string
	sha256    string
	info      *debug.BuildInfo
	file      string
}

// platform is the build information's GOOS/GOARCH.
func (b *binary) platform() string { return b.goos + "/" + b.goarch }

// readBinary reads the file's header and build information.
func readBinary(file string) (*binary, error) {
	f, err := os.Open(file)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	b := &binary{file: file}
	if err := b.readHeader(f); err != nil {
		return nil, fmt.Errorf("%s: %w", file, err)
	}
	info, err := buildinfo.Read(f)
	if err != nil {
		return nil, fmt.Errorf("%s: no Go build information: %w", file, err)
	}
	b.info, b.goVersion = info, info.GoVersion
	for _, s := range info.Settings {
		switch s.Key {
		case "GOOS":
			b.goos = s.Value
		case "GOARCH":
			b.goarch = s.Value
		case "CGO_ENABLED":
			b.cgo = s.Value
		case "-ldflags":
			if v, ok := linkedVersion(s.Value); ok {
				b.version = v
			}
		}
	}
	if b.version == "" && info.Main.Version != "" && info.Main.Version != "(devel)" {
		b.version = info.Main.Version
	}
	if _, err := f.Seek(0, io.SeekStart); err != nil {
		return nil, err
	}
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return nil, err
	}
	b.sha256 = hex.EncodeToString(h.Sum(nil))
	return b, nil
}

// readHeader sets the format, machine and arch from the file's header.
func (b *binary) readHeader(r io.ReaderAt) error {
	if f, err := elf.NewFile(r); err == nil {
		b.format, b.machine = "ELF", f.Machine.String()
		switch f.Machine {
		case elf.EM_X86_64:
			b.arch = "amd64"
		case elf.EM_AARCH64:
			b.arch = "arm64"
		}
		return nil
	}
	if f, err := macho.NewFile(r); err == nil {
		b.format, b.machine = "Mach-O", f.Cpu.String()
		switch f.Cpu {
		case macho.CpuAmd64:
			b.arch = "amd64"
		case macho.CpuArm64:
			b.arch = "arm64"
		}
		return nil
	}
	if f, err := pe.NewFile(r); err == nil {
		b.format = "PE"
		switch f.Machine {
		case pe.IMAGE_FILE_MACHINE_AMD64:
			b.machine, b.arch = "IMAGE_FILE_MACHINE_AMD64", "amd64"
		case pe.IMAGE_FILE_MACHINE_ARM64:
			b.machine, b.arch = "IMAGE_FILE_MACHINE_ARM64", "arm64"
		default:
			b.machine = fmt.Sprintf("machine %#x", f.Machine)
		}
		return nil
	}
	return errors.New("not an ELF, Mach-O or PE executable")
}

// formats is the executable format of each GOOS a release ships.
var formats = map[string]string{"linux": "ELF", "darwin": "Mach-O", "windows": "PE"}

// check reports what of the binary differs from a release's binary for
// platform (GOOS/GOARCH) printing version; platform "" checks only that
// the header and the build information agree.
func (b *binary) check(platform, version string) error {
	var errs []error
	if platform != "" && platform != b.platform() {
		errs = append(errs, fmt.Errorf("built for %s, want %s", b.platform(), platform))
	}
	if want, ok := formats[b.goos]; !ok || want != b.format {
		errs = append(errs, fmt.Errorf("a %s executable, but built for %s", b.format, b.goos))
	}
	if b.arch != b.goarch {
		errs = append(errs, fmt.Errorf("its header's machine is %s, but built for %s", b.machine, b.goarch))
	}
	if b.cgo != "0" {
		errs = append(errs, fmt.Errorf("built with CGO_ENABLED=%q, want 0 (a static binary)", b.cgo))
	}
	if err := b.checkVersion(version); err != nil {
		errs = append(errs, err)
	}
	return errors.Join(errs...)
}

// checkVersion reports whether the binary's -version prints version. A
// build with -trimpath records no link flags in its build information
// (go.dev/issue/52372), and a build of a checkout records the main
// module as "(devel)": the version set by -X is then looked for as a
// string in the file (the linker writes -X's value there). That is a
// weaker check; .ci/release also runs the host's binary.
func (b *binary) checkVersion(version string) error {
	if b.version != "" {
		if b.version != version {
			return fmt.Errorf("-version prints %q, want %q", b.version, version)
		}
		return nil
	}
	data, err := os.ReadFile(b.file)
	if err != nil {
		return err
	}
	if !bytes.Contains(data, []byte(version)) {
		return fmt.Errorf("-version: the build information records no version and the file does not hold %q", version)
	}
	b.version = version + " (held by the file; its build records no link flags)"
	return nil
}

// linkedVersion is the value -X gives versionVar in the link flags, the
// last one if several (as the linker takes it).
func linkedVersion(ldflags string) (string, bool) {
	var v string
	var found bool
	fields := strings.Fields(ldflags)
	for i, f := range fields {
		var arg string
		switch {
		case f == "-X" && i+1 < len(fields):
			arg = fields[i+1]
		case strings.HasPrefix(f, "-X="):
			arg = f[len("-X="):]
		default:
			continue
		}
		if val, ok := strings.CutPrefix(arg, versionVar+"="); ok {
			v, found = val, true
		}
	}
	return v, found
}
