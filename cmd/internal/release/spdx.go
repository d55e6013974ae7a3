package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"path/filepath"
	"runtime/debug"
	"strings"
	"time"
)

// An SPDX 2.3 document (spdx.github.io/spdx-spec/v2.3) in its JSON form:
// the members a tool reading SBOMs of Go binaries looks for.
type spdxDoc struct {
	SPDXVersion       string             `json:"spdxVersion"`
	DataLicense       string             `json:"dataLicense"`
	SPDXID            string             `json:"SPDXID"`
	Name              string             `json:"name"`
	DocumentNamespace string             `json:"documentNamespace"`
	CreationInfo      spdxCreation       `json:"creationInfo"`
	Packages          []spdxPackage      `json:"packages"`
	Relationships     []spdxRelationship `json:"relationships"`
}

type spdxCreation struct {
	Created  string   `json:"created"`
	Creators []string `json:"creators"`
	Comment  string   `json:"comment,omitempty"`
}

type spdxPackage struct {
	SPDXID                string         `json:"SPDXID"`
	Name                  string         `json:"name"`
	VersionInfo           string         `json:"versionInfo"`
	DownloadLocation      string         `json:"downloadLocation"`
	FilesAnalyzed         bool           `json:"filesAnalyzed"`
	PrimaryPackagePurpose string         `json:"primaryPackagePurpose"`
	Checksums             []spdxChecksum `json:"checksums,omitempty"`
	LicenseConcluded      string         `json:"licenseConcluded"`
	LicenseDeclared       string         `json:"licenseDeclared"`
	CopyrightText         string         `json:"copyrightText"`
	ExternalRefs          []spdxRef      `json:"externalRefs"`
	Comment               string         `json:"comment,omitempty"`
}

type spdxChecksum struct {
	Algorithm     string `json:"algorithm"`
	ChecksumValue string `json:"checksumValue"`
}

type spdxRef struct {
	ReferenceCategory string `json:"referenceCategory"`
	ReferenceType     string `json:"referenceType"`
	ReferenceLocator  string `json:"referenceLocator"`
}

type spdxRelationship struct {
	Element string `json:"spdxElementId"`
	Type    string `json:"relationshipType"`
	Related string `json:"relatedSpdxElement"`
}

// noAssertion is SPDX's "not stated": the build information carries no
// licenses, and a module's h1: sum is no checksum SPDX names.
const noAssertion = "NOASSERTION"

// sbomFile is the SPDX document of the binary in file.
func sbomFile(file, name, version string, created time.Time) ([]byte, error) {
	b, err := readBinary(file)
	if err != nil {
		return nil, err
	}
	if name == "" {
		name = filepath.Base(file)
	}
	return sbom(b, name, version, created)
}

// sbom is the SPDX document of binary b, released as version under name:
// the binary, which DEPENDS_ON the Go standard library and each module
// of its build information (the replacement where a module is replaced).
// The same binary, name, version and time give the same bytes.
func sbom(b *binary, name, version string, created time.Time) ([]byte, error) {
	bi := b.info
	var settings []string
	for _, s := range bi.Settings {
		settings = append(settings, s.Key+"="+s.Value)
	}
	main := spdxPackage{
		SPDXID:                "SPDXRef-Binary",
		Name:                  "dynamoemu",
		VersionInfo:           version,
		DownloadLocation:      noAssertion,
		PrimaryPackagePurpose: "APPLICATION",
		Checksums:             []spdxChecksum{{Algorithm: "SHA256", ChecksumValue: b.sha256}},
		ExternalRefs: []spdxRef{purlRef(fmt.Sprintf("pkg:golang/%s@%s?goos=%s&goarch=%s",
			bi.Main.Path, purlVersion(version), b.goos, b.goarch))},
		Comment: fmt.Sprintf("The %s executable %s (%s, %s), main package %s; built with %s, settings: %s.",
			b.format, name, b.machine, b.platform(), bi.Path, b.goVersion, strings.Join(settings, " ")),
	}
	pkgs := []spdxPackage{main, {
		SPDXID:                "SPDXRef-Go-stdlib",
		Name:                  "stdlib",
		VersionInfo:           b.goVersion,
		DownloadLocation:      "https://go.dev/dl/",
		PrimaryPackagePurpose: "LIBRARY",
		ExternalRefs:          []spdxRef{purlRef("pkg:golang/stdlib@" + purlVersion(b.goVersion))},
		Comment:               "The Go standard library and runtime, linked into the executable.",
	}}
	for i, d := range bi.Deps {
		pkgs = append(pkgs, modulePackage(i+1, d))
	}
	rels := []spdxRelationship{{Element: "SPDXRef-DOCUMENT", Type: "DESCRIBES", Related: main.SPDXID}}
	for i := range pkgs {
		pkgs[i].LicenseConcluded, pkgs[i].LicenseDeclared, pkgs[i].CopyrightText = noAssertion, noAssertion, noAssertion
		if i > 0 {
			rels = append(rels, spdxRelationship{Element: main.SPDXID, Type: "DEPENDS_ON", Related: pkgs[i].SPDXID})
		}
	}
	doc := spdxDoc{
		SPDXVersion:       "SPDX-2.3",
		DataLicense:       "CC0-1.0",
		SPDXID:            "SPDXRef-DOCUMENT",
		Name:              name,
		DocumentNamespace: "https://github.com/dynamoemu/dynamoemu/spdx/" + name + "-" + b.sha256,
		CreationInfo: spdxCreation{
			Created:  created.UTC().Format(time.RFC3339),
			Creators: []string{"Tool: dynamoemu-release-" + version},
			Comment:  "Derived from the executable's Go build information (debug/buildinfo).",
		},
		Packages:      pkgs,
		Relationships: rels,
	}
	// Without HTML escaping: a purl's "&" stays "&".
	var out bytes.Buffer
	enc := json.NewEncoder(&out)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(doc); err != nil {
		return nil, err
	}
	return out.Bytes(), nil
}

// modulePackage is the package of the i-th module of the build
// information: the replacement's path and version where d is replaced.
func modulePackage(i int, d *debug.Module) spdxPackage {
	m, comment := d, ""
	if d.Replace != nil {
		m = d.Replace
		comment = fmt.Sprintf("Replaces %s %s. ", d.Path, d.Version)
	}
	p := spdxPackage{
		SPDXID:                fmt.Sprintf("SPDXRef-Module-%d-%s", i, spdxIDPart(m.Path)),
		Name:                  m.Path,
		VersionInfo:           m.Version,
		DownloadLocation:      noAssertion,
		PrimaryPackagePurpose: "LIBRARY",
		ExternalRefs:          []spdxRef{purlRef("pkg:golang/" + m.Path + "@" + purlVersion(m.Version))},
	}
	if m.Version != "" {
		p.DownloadLocation = "https://proxy.golang.org/" + proxyEscape(m.Path) + "/@v/" + proxyEscape(m.Version) + ".zip"
	} else {
		comment += "A directory replacement: not from the module proxy. "
		p.ExternalRefs = nil
	}
	if m.Sum != "" {
		comment += "go.sum hash " + m.Sum + "."
	}
	p.Comment = strings.TrimSpace(comment)
	return p
}

func purlRef(locator string) spdxRef {
	return spdxRef{ReferenceCategory: "PACKAGE-MANAGER", ReferenceType: "purl", ReferenceLocator: locator}
}

// purlVersion percent-encodes the characters of a Go version a purl's
// version may not hold as they are (+incompatible).
func purlVersion(v string) string { return strings.ReplaceAll(v, "+", "%2B") }

// proxyEscape is a module path or version as the module proxy's URLs
// write it: each upper-case letter as "!" and its lower case.
func proxyEscape(s string) string {
	var b strings.Builder
	for _, r := range s {
		if 'A' <= r && r <= 'Z' {
			b.WriteByte('!')
			r += 'a' - 'A'
		}
		b.WriteRune(r)
	}
	return b.String()
}

// spdxIDPart is s with every character an SPDX identifier may not hold
// (letters, digits, "." and "-" only) made "-".
func spdxIDPart(s string) string {
	return strings.Map(func(r rune) rune {
		if 'a' <= r && r <= 'z' || 'A' <= r && r <= 'Z' || '0' <= r && r <= '9' || r == '.' || r == '-' {
			return r
		}
		return '-'
	}, s)
}
