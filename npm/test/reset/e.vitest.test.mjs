import { test, expect } from 'vitest'
import { createRequire } from 'node:module'
const startsEmpty = createRequire(import.meta.url)('./reset.shared.js')
test('file e starts with the table empty', () => startsEmpty('e', expect))
