'use strict'
// The Jest preset: { "preset": "dynamoemu" } in jest.config. One server
// for the run, a namespace per worker, the tables of the tables option in
// each. Jest adds a configuration's own setupFiles and setupFilesAfterEnv
// to the preset's; its own globalSetup replaces the preset's: then the
// workers start a server each (testing.js, setUpWorker), or that
// globalSetup calls require('dynamoemu/jest').globalSetup for one server.
module.exports = {
  globalSetup: require.resolve('./jest-global-setup.js'),
  globalTeardown: require.resolve('./jest-global-teardown.js'),
  setupFilesAfterEnv: [require.resolve('./jest-setup.js')],
}
