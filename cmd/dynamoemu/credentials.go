package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"

	"github.com/dynamoemu/dynamoemu/emulator"
)

// The -credentials file: the only access keys the server accepts, whose
// signatures it then verifies as AWS does (emulator.Options.Credentials),
// and optional bearer tokens for the admin endpoints. JSON:
//
//	{
//	  "credentials": [
//	    {"accessKeyId": "AKIAEXAMPLE1", "secretAccessKey": "...", "namespace": "team"},
//	    {"accessKeyId": "AKIAEXAMPLE2", "secretAccessKey": "..."}
//	  ],
//	  "adminTokens": ["a-long-random-string"]
//	}
//
// namespace is optional: keys with the same namespace (and region) share
// tables; without it a key's access key id names its database. Unknown
// fields are refused, so a misspelt one is not silently ignored.

// credentialsFile is the -credentials file's JSON.
type credentialsFile struct {
	Credentials []struct {
		AccessKeyID     string `json:"accessKeyId"`
		SecretAccessKey string `json:"secretAccessKey"`
		Namespace       string `json:"namespace"`
	} `json:"credentials"`
	AdminTokens []string `json:"adminTokens"`
}

// maxCredentialsFile bounds the file read: a list of keys, not data.
const maxCredentialsFile = 1 << 20

// parseCredentials decodes a -credentials file and checks it as
// emulator.New would.
func parseCredentials(data []byte) ([]emulator.Credential, []string, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	var f credentialsFile
	if err := dec.Decode(&f); err != nil {
		return nil, nil, fmt.Errorf("not the JSON of a credentials file: %w", err)
	}
	if _, err := dec.Token(); !errors.Is(err, io.EOF) {
		return nil, nil, errors.New("not the JSON of a credentials file: more after its object")
	}
	if len(f.Credentials) == 0 {
		return nil, nil, errors.New(`no "credentials": list at least one access key`)
	}
	creds := make([]emulator.Credential, len(f.Credentials))
	for i, c := range f.Credentials {
		creds[i] = emulator.Credential{AccessKeyID: c.AccessKeyID, SecretAccessKey: c.SecretAccessKey, Namespace: c.Namespace}
	}
	if err := (emulator.Options{Credentials: creds, AdminTokens: f.AdminTokens}).Validate(); err != nil {
		return nil, nil, err
	}
	return creds, f.AdminTokens, nil
}

// loadCredentials reads the -credentials file into opts; "" leaves opts
// as they are (any credentials work).
func loadCredentials(file string, opts *emulator.Options) error {
	if file == "" {
		return nil
	}
	f, err := os.Open(file)
	if err != nil {
		return fmt.Errorf("-credentials: %w", err)
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, maxCredentialsFile+1))
	if err != nil {
		return fmt.Errorf("-credentials: %w", err)
	}
	if len(data) > maxCredentialsFile {
		return fmt.Errorf("-credentials %s: larger than %d bytes", file, maxCredentialsFile)
	}
	opts.Credentials, opts.AdminTokens, err = parseCredentials(data)
	if err != nil {
		return fmt.Errorf("-credentials %s: %w", file, err)
	}
	return nil
}

// loadIAMPolicies reads the -iamPolicies file into opts (with the
// credentials already there: the file names their keys); "" leaves the
// IAM policy mode off.
func loadIAMPolicies(file string, opts *emulator.Options) error {
	if file == "" {
		return nil
	}
	if len(opts.Credentials) == 0 {
		return errors.New("-iamPolicies needs -credentials: only signed requests have an identity")
	}
	f, err := os.Open(file)
	if err != nil {
		return fmt.Errorf("-iamPolicies: %w", err)
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, maxCredentialsFile+1))
	if err != nil {
		return fmt.Errorf("-iamPolicies: %w", err)
	}
	if len(data) > maxCredentialsFile {
		return fmt.Errorf("-iamPolicies %s: larger than %d bytes", file, maxCredentialsFile)
	}
	if opts.IAM, err = emulator.ParseIAMPolicies(data); err != nil {
		return fmt.Errorf("-iamPolicies %s: %w", file, err)
	}
	if err := opts.Validate(); err != nil {
		return fmt.Errorf("-iamPolicies %s: %w", file, err)
	}
	return nil
}
