'use strict'
// Jest setupFiles: this worker's namespace, and (setupFilesAfterEnv)
// its tables before its first test.
const { isolateWorker, createTables } = require('./testing.js')

isolateWorker(process.env.JEST_WORKER_ID)
if (typeof beforeAll === 'function') beforeAll(() => createTables())
