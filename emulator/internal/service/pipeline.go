package service

// The request pipeline of the data plane. An operation that reads or
// writes a table's items registers as a data-plane one (register's data;
// a feature's with DataOp: SearchVectors, through Call.Search). Its
// handler validates the request in AWS's order and then reaches storage
// only inside a managed scope (pipeline_item.go: useItem, useRead, useTx,
// useTxGets, useSearch), which runs the stages in one order for every
// such operation:
//
//  1. the key guards: each key the request touches is put to the
//     KeyGuard stages; useItem runs them, and the reads and the batches
//     run them where their validation order puts them (guardKey,
//     guardRead, guardQuery, guardScan, guardPage: stage_check.go);
//  2. Begin: each use of a table or index (per item of a batch, per action
//     of a transaction, per partition of a PartiQL IN list) is put to the
//     stages watching its table, in the order they were installed, before
//     storage is touched; a stage may refuse the use or delay it here;
//  3. the read view: an eventually consistent read takes the table's
//     eventual view, put first to the ReadViewer stages (view,
//     stage_read.go);
//  4. the write checks: a write to a table a WriteChecker stage checks
//     runs inside one storage transaction with its checks (itemUse.storeItem
//     and updateStored, stage_check.go);
//  5. End: the use the scope hands the handler's function reports what it
//     did (itemUse.storeItem, updateStored, fetchItem; readUse.answerPage;
//     txUse.commitTx; txGetUse.readAll; a batch's item through its
//     TableUse), and the stages that began it are told, with its units;
//  6. capacity accounting and item-collection metrics: the answer's
//     ConsumedCapacity and ItemCollectionMetrics are computed from what the
//     use reported (itemUse.answerCapacity, answerCollection, capacity.go);
//  7. the end: when the function returns, or panics, without a report,
//     the scope's deferred end charges a write refused by its condition,
//     or a cancelled transaction, as AWS charges it
//     (pipeline_condfail.go), and ends any other use as refused.
//
// Stages 1 and 4 are the checks of the stage seam (stage_check.go);
// stages 2 and 5 are the installed stages of the stage seam (stage.go):
// the scopes put each use to the stages watching its table (beginUse),
// and report what it did to their End. The scopes are the only way in:
// TestPipeline walks every operation registered here through every
// stage, and fails on a registered operation it cannot classify;
// TestPipelineEntryPoints fails on a handler that names the pipeline's
// hooks or the call's scope.
//
// Any other operation is put once per call, with the table it names, to
// the CheckCall hooks before its handler runs.
