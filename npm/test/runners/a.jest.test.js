const commandRow = require('./worker.shared.js')
test('a command row in this worker\'s own namespace (a)', async () => {
  await new Promise((r) => setTimeout(r, 300)) // let the other file's worker write first
  await commandRow('a', process.env.JEST_WORKER_ID, expect)
})
