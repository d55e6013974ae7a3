'use strict'
// Jest setupFilesAfterEnv, run in each test file: this worker's
// namespace (or server), and before the file's first test its tables
// (or, with DYNAMOEMU_RESET=1, its server rewound to them, empty).
const { setUpWorker, hookTimeout } = require('./testing.js')

beforeAll(setUpWorker(process.env.JEST_WORKER_ID), hookTimeout)
