//go:build !linux

package storage

func populateSlice[T any]([]T) {}
