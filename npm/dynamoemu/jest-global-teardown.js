'use strict'
// Jest globalTeardown: stops the run's servers.
module.exports = async function globalTeardown() {
  await Promise.all((globalThis.__DYNAMOEMU__ ?? []).map((emu) => emu.stop()))
}
