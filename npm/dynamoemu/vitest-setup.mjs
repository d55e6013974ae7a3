// Vitest setupFiles, run in each test file: this worker's namespace (or
// server), and before the file's tests its tables (or, with
// DYNAMOEMU_RESET=1, its server rewound to them, empty).
import { beforeAll } from 'vitest'
import testing from './testing.js'

beforeAll(testing.setUpWorker(process.env.VITEST_POOL_ID), testing.hookTimeout)
