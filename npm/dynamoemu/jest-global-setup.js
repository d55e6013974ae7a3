'use strict'
// Jest globalSetup: the run's server, or one per worker with
// DYNAMOEMU_RESET=1 (see testing.js and jest-preset.js).
const { startForTests } = require('./testing.js')

module.exports = async function globalSetup(globalConfig) {
  globalThis.__DYNAMOEMU__ = await startForTests(globalConfig?.maxWorkers)
}
