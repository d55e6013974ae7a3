'use strict'
// Vitest globalSetup: { test: { globalSetup: ['dynamoemu/vitest'],
// setupFiles: ['dynamoemu/vitest-setup'] } }. The run's server, or one per
// worker with DYNAMOEMU_RESET=1, stopped by the teardown this returns.
const os = require('node:os')
const { startForTests, stopForTests } = require('./testing.js')

module.exports = async function setup(project) {
  const c = project?.config ?? {}
  const workers = c.poolOptions?.forks?.maxForks ?? c.poolOptions?.threads?.maxThreads ?? c.maxWorkers ?? os.availableParallelism()
  const emus = await startForTests(workers, {}, c.root)
  return () => stopForTests(emus)
}
