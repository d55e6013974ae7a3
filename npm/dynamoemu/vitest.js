'use strict'
// Vitest globalSetup: { test: { globalSetup: ['dynamoemu/vitest'],
// setupFiles: ['dynamoemu/vitest-setup'] } }. One server for the run,
// stopped by the teardown this returns.
const { startForTests } = require('./testing.js')

module.exports = async function setup() {
  const emu = await startForTests()
  return () => emu.stop()
}
