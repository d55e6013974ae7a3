// Package testkit is what the emulator's tests share: fixtures, and the
// helpers that send requests and read answers.
package testkit
