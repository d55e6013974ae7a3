package conventions

import (
	"fmt"
	"strconv"
	"strings"
)

// The checked counterparts of the framework's helpers: where the framework
// cuts a key at the wrong '@', reads a loose version or returns undefined,
// these return an error wrapping one of the sentinels in errors.go.

// ParseSortKey splits a versioned sort key "<base>@<version>". It fails with
// ErrNoVersion when sk has no '@', ErrAtInBase when the base contains '@',
// ErrVersionSyntax when the suffix is not canonical decimal digits and
// ErrVersionRange when it is 0, negative or too large.
func ParseSortKey(sk string) (base string, version int, err error) {
	i := strings.LastIndex(sk, VerSeparator)
	if i < 0 {
		return "", 0, fmt.Errorf("%w: %q", ErrNoVersion, sk)
	}
	base = sk[:i]
	if strings.Contains(base, VerSeparator) {
		return "", 0, fmt.Errorf("%w: %q", ErrAtInBase, sk)
	}
	version, err = parseVersion(sk[i+len(VerSeparator):])
	if err != nil {
		return "", 0, fmt.Errorf("%w: %q", err, sk)
	}
	return base, version, nil
}

// BaseSortKey is RemoveSortKeyVersion for keys that are either a base
// without '@' (returned unchanged) or a well-formed versioned key; anything
// else fails as ParseSortKey does.
func BaseSortKey(sk string) (string, error) {
	if !strings.Contains(sk, VerSeparator) {
		return sk, nil
	}
	base, _, err := ParseSortKey(sk)
	return base, err
}

// VersionedSortKey returns "<base>@<version>". Unlike AddSortKeyVersion it
// never cuts base: a base containing '@' fails with ErrAtInBase, a version
// below 1 with ErrVersionRange.
func VersionedSortKey(base string, version int) (string, error) {
	if strings.Contains(base, VerSeparator) {
		return "", fmt.Errorf("%w: %q", ErrAtInBase, base)
	}
	if version < 1 {
		return "", fmt.Errorf("%w: %d", ErrVersionRange, version)
	}
	return base + VerSeparator + strconv.Itoa(version), nil
}

// NewID is GenerateID for sort keys that BaseSortKey accepts: the id of
// (pk, "a@b") is an error, not "pk#a".
func NewID(pk, sk string) (string, error) {
	base, err := BaseSortKey(sk)
	if err != nil {
		return "", err
	}
	return pk + KeySeparator + base, nil
}

// ParseTenant is TenantCode that fails with ErrNoTenant when pk has no '#'
// or ends with one. Like TenantCode it reads the last segment; TenantAt reads
// another.
func ParseTenant(pk string) (string, error) {
	t, ok := TenantCode(pk)
	if !ok || t == "" {
		return "", fmt.Errorf("%w: %q", ErrNoTenant, pk)
	}
	return t, nil
}

// TenantAt returns segment i (0-based) of pk split on '#', for layouts
// whose tenant is not the last segment ("LOG#<tenant>#<yyyy-mm>" has it at
// 1). It fails with ErrNoTenant when that segment is missing or empty.
func TenantAt(pk string, i int) (string, error) {
	if i < 0 {
		return "", fmt.Errorf("%w: segment %d of %q", ErrNoTenant, i, pk)
	}
	rest := pk
	for range i {
		_, after, ok := strings.Cut(rest, KeySeparator)
		if !ok {
			return "", fmt.Errorf("%w: segment %d of %q", ErrNoTenant, i, pk)
		}
		rest = after
	}
	seg, _, _ := strings.Cut(rest, KeySeparator)
	if seg == "" || (i == 0 && !strings.Contains(pk, KeySeparator)) {
		return "", fmt.Errorf("%w: segment %d of %q", ErrNoTenant, i, pk)
	}
	return seg, nil
}

// parseVersion reads a canonical version suffix: decimal digits without
// sign or leading zero, at least 1, fitting an int. Errors are the bare
// sentinels ErrVersionSyntax and ErrVersionRange.
func parseVersion(s string) (int, error) {
	body := strings.TrimPrefix(s, "-")
	if body == "" || strings.TrimLeft(body, "0123456789") != "" {
		return 0, ErrVersionSyntax
	}
	if body != s || body == "0" {
		if body[0] == '0' && body != "0" {
			return 0, ErrVersionSyntax // "-01", "00"
		}
		return 0, ErrVersionRange // "0", "-1", "-20"
	}
	if body[0] == '0' {
		return 0, ErrVersionSyntax // "007"
	}
	v, err := strconv.Atoi(body)
	if err != nil {
		return 0, ErrVersionRange
	}
	return v, nil
}
