'use strict'
// Jest globalSetup: one server for the test run (see jest-preset.js).
const { startForTests } = require('./testing.js')

module.exports = async function globalSetup() {
  globalThis.__DYNAMOEMU__ = await startForTests()
}
