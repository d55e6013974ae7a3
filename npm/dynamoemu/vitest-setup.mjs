// Vitest setupFiles, run in each test file: this worker's namespace (or
// server), and before the file's tests its tables (or, with
// DYNAMOEMU_RESET=1, its server rewound to them, empty); with the branch
// option (DYNAMOEMU_BRANCH, or a seed), the seeded base forked before
// each test (or file) and dropped after.
import { afterAll, afterEach, beforeAll, beforeEach } from 'vitest'
import testing from './testing.js'

beforeAll(testing.setUpWorker(process.env.VITEST_POOL_ID), testing.hookTimeout)
const branch = testing.branchHooks(process.env.VITEST_POOL_ID)
if (branch?.each) {
  beforeEach(branch.fork, testing.hookTimeout)
  afterEach(branch.drop, testing.hookTimeout)
} else if (branch) {
  beforeAll(branch.fork, testing.hookTimeout)
  afterAll(branch.drop, testing.hookTimeout)
}
