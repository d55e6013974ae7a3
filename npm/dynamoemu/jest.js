'use strict'
// The Jest set-up as functions, for a configuration whose own globalSetup
// or globalTeardown would replace the preset's (Jest keeps one of each):
//
//   // jest.global-setup.js
//   const dynamoemu = require('dynamoemu/jest')
//   module.exports = async (globalConfig, projectConfig) => {
//     await dynamoemu.globalSetup(globalConfig, projectConfig)
//     // ... the project's own set-up
//   }
//
// globalSetup's third argument, options, wins over the DYNAMOEMU_*
// variables and package.json's "dynamoemu" key (see testing.js).
// setupFile is the preset's setupFilesAfterEnv file, which Jest adds to a
// configuration's own.
const { startForTests, stopForTests, setUpWorker } = require('./testing.js')

// globalSetup starts the run's server (or, with reset, one per worker).
async function globalSetup(globalConfig, projectConfig, options) {
  const emus = await startForTests(globalConfig?.maxWorkers, options, globalConfig?.rootDir ?? projectConfig?.rootDir)
  globalThis.__DYNAMOEMU__ = (globalThis.__DYNAMOEMU__ ?? []).concat(emus)
}

// globalTeardown stops the servers globalSetup started.
async function globalTeardown() {
  const emus = globalThis.__DYNAMOEMU__
  globalThis.__DYNAMOEMU__ = []
  await stopForTests(emus)
}

module.exports = { globalSetup, globalTeardown, setUpWorker, setupFile: require.resolve('./jest-setup.js') }
