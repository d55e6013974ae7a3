import { test, expect } from 'vitest'
import { createRequire } from 'node:module'
const commandRow = createRequire(import.meta.url)('./worker.shared.js')
test('a command row in this worker\'s own namespace (a)', async () => {
  await new Promise((r) => setTimeout(r, 300)) // let the other file's worker write first
  await commandRow('a', process.env.VITEST_POOL_ID, expect)
})
