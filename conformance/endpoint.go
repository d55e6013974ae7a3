package conformance

import (
	"cmp"
	"fmt"
	"os"
	"sync"
)

// Environment variables that select the endpoint under test.
const (
	// EnvEndpoint is the URL of the endpoint under test; unset starts the emulator.
	EnvEndpoint = "DYNAMODB_ENDPOINT"
	// EnvOracle names what the endpoint is: "", OracleDynamoDBLocal or OracleAWS.
	EnvOracle = "DYNAMODB_ORACLE"
)

// Values of DYNAMODB_ORACLE.
const (
	OracleDynamoDBLocal = "dynamodb-local"
	OracleAWS           = "aws"
)

// Target is the endpoint the suite runs against.
type Target struct {
	URL       string // "" only for OracleAWS without DYNAMODB_ENDPOINT: the SDK's default
	Oracle    string // "", OracleDynamoDBLocal or OracleAWS
	InProcess bool   // the emulator started by this process
}

// Name describes the target for logs and reports.
func (t Target) Name() string {
	switch {
	case t.InProcess:
		return "emulator (in-process at " + t.URL + ")"
	case t.Oracle == OracleDynamoDBLocal:
		return "DynamoDB Local at " + t.URL
	case t.Oracle == OracleAWS && t.URL == "":
		return "AWS DynamoDB (default endpoint)"
	case t.Oracle == OracleAWS:
		return "AWS DynamoDB at " + t.URL
	}
	return "endpoint " + t.URL
}

// FakeCredentials reports whether the target accepts made-up static credentials, so
// each test may use its own access key (a namespace of its own on DynamoDB Local and
// the emulator).
func (t Target) FakeCredentials() bool { return t.Oracle != OracleAWS }

var current struct {
	once   sync.Once
	target Target
	err    error
	stop   func() error
}

// CurrentTarget returns the endpoint under test, starting the in-process emulator on
// first use when DYNAMODB_ENDPOINT is unset.
func CurrentTarget() (Target, error) {
	current.once.Do(func() {
		url := os.Getenv(EnvEndpoint)
		oracle := os.Getenv(EnvOracle)
		switch oracle {
		case "", OracleDynamoDBLocal, OracleAWS:
		default:
			current.err = fmt.Errorf("%s=%q: want %q, %q or unset", EnvOracle, oracle, OracleDynamoDBLocal, OracleAWS)
			return
		}
		if url != "" || oracle == OracleAWS {
			current.target = Target{URL: url, Oracle: oracle}
			return
		}
		if oracle != "" {
			current.err = fmt.Errorf("%s=%s needs %s", EnvOracle, oracle, EnvEndpoint)
			return
		}
		url, stop, err := startEmulator()
		if err != nil {
			current.err = fmt.Errorf("start in-process emulator: %w", err)
			return
		}
		current.target = Target{URL: url, InProcess: true}
		current.stop = stop
	})
	return current.target, current.err
}

// transient is the in-process emulator whose tables pass through CREATING
// and DELETING, started by the first table status test that needs it
// (tables_transient_test.go).
var transient struct {
	once sync.Once
	url  string
	err  error
	stop func() error
}

// transientEmulator returns the URL of the in-process emulator started
// as with -delayTransientStatuses (its clock: transientEmu.Advance).
func transientEmulator() (string, error) {
	transient.once.Do(func() { transient.url, transient.stop, transient.err = startTransientEmulator() })
	return transient.url, transient.err
}

// Shutdown stops the in-process emulators if this process started them.
func Shutdown() error {
	var err error
	if signing.stop != nil {
		err = signing.stop()
	}
	if transient.stop != nil {
		err = cmp.Or(err, transient.stop())
	}
	if current.stop == nil {
		return err
	}
	if serr := current.stop(); serr != nil {
		return serr
	}
	return err
}

// signing is the in-process emulator that verifies signatures, started by
// the first signature test that needs it (signatures_test.go).
var signing struct {
	once sync.Once
	url  string
	err  error
	stop func() error
}

// signingEmulator returns the URL of the in-process emulator that verifies
// signatures, with the one key it accepts and its secret.
func signingEmulator() (url, key, secret string, err error) {
	signing.once.Do(func() { signing.url, signing.stop, signing.err = startSigningEmulator() })
	return signing.url, signingKeyID, signingSecret, signing.err
}
