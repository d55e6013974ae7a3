'use strict'
// The Jest preset: { "preset": "dynamoemu" } in jest.config. One server
// for the run, a namespace per worker, the tables of DYNAMOEMU_TABLES in
// each.
module.exports = {
  globalSetup: require.resolve('./jest-global-setup.js'),
  globalTeardown: require.resolve('./jest-global-teardown.js'),
  setupFilesAfterEnv: [require.resolve('./jest-setup.js')],
}
