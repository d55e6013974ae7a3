'use strict'
// Jest globalTeardown: stops the run's server.
module.exports = async function globalTeardown() {
  if (globalThis.__DYNAMOEMU__) await globalThis.__DYNAMOEMU__.stop()
}
