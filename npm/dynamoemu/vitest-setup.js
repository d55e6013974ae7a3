'use strict'
// Vitest setupFiles: this worker's namespace and its tables.
const { isolateWorker, createTables } = require('./testing.js')

isolateWorker(process.env.VITEST_POOL_ID || process.env.VITEST_WORKER_ID)
module.exports = createTables()
