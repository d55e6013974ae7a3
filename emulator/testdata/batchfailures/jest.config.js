// The ReportBatchItemFailures suite (emulator/stream_handlers_jest_test.go
// runs it against an emulator at DYNAMODB_ENDPOINT).
module.exports = { testMatch: ['**/batch-item-failures.test.js'], testTimeout: 60000 }
