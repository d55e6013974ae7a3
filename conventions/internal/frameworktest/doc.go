// Package frameworktest runs the mbc-cqrs-serverless framework's published
// npm package, @mbc-cqrs-serverless/core, against the emulator with the
// conventions rules enforced (docs/conventions.md, "The framework test"). It has no
// Go API; its test starts an emulator with testdata/conventions.json and
// runs testdata/framework.test.js with Node.js.
//
// The Node.js project lives in testdata/ (so that the go tool never walks
// its node_modules): package.json and package-lock.json pin the framework
// (0.1.48-beta.0, the registry's latest), its CLI (0.1.12-beta.0, whose
// template creates the tables) and the AWS SDK clients it loads.
// harness.js builds the framework's services by hand with in-process
// stand-ins for SNS, S3, Step Functions and the stream trigger;
// framework.test.js runs the flows and the deliberate violations.
//
// The test runs only with FRAMEWORK_TEST=1 (.ci/run sets it after npm ci):
//
//	cd conventions/internal/frameworktest/testdata && npm ci
//	FRAMEWORK_TEST=1 go test -count=1 -v ./conventions/internal/frameworktest
//
// TestRapidVersionsByMode, on demand only (FRAMEWORK_RAPID_RUNS=N as
// well), runs the rapid-versions flow alone against emulators with the
// conventions off and enforced in turn and logs the stalls per mode.
package frameworktest
