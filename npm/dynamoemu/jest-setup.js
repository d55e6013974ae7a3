'use strict'
// Jest setupFilesAfterEnv, run in each test file: this worker's
// namespace (or server), and before the file's first test its tables
// (or, with DYNAMOEMU_RESET=1, its server rewound to them, empty); with
// the branch option (DYNAMOEMU_BRANCH, or a seed), the seeded base
// forked before each test (or file) and dropped after.
const { setUpWorker, branchHooks, hookTimeout } = require('./testing.js')

beforeAll(setUpWorker(process.env.JEST_WORKER_ID), hookTimeout)
const branch = branchHooks(process.env.JEST_WORKER_ID)
if (branch?.each) {
  beforeEach(branch.fork, hookTimeout)
  afterEach(branch.drop, hookTimeout)
} else if (branch) {
  beforeAll(branch.fork, hookTimeout)
  afterAll(branch.drop, hookTimeout)
}
