// Package faults is the fault rules' stage of the request pipeline: it
// plugs into the service core through the stage seam
// (emulator/internal/service/stage.go), wired in emulator/features.go,
// and the core names nothing of it.
//
// Each use of a table or index by a data-plane operation (each item of
// a batch, each action of a transaction, each partition of a PartiQL IN
// list) is put to the service's injector (internal/faults) in Begin,
// after the request is validated and before storage is touched: a delay
// is slept there, a fault refuses the use with its error (a throughput
// error with the ThrottlingReason that names the table or index). Every
// other operation (the control plane, the Streams API) gets one
// decision per call, with the table it names by name or ARN
// (target.go), in CheckCall, before the operation validates its input.
// faults/WIRING.md is the design.
//
// The stage keeps no state and takes no lock: the injector's own mutex
// is a leaf.
package faults
