import { test, expect } from 'vitest'
import { createRequire } from 'node:module'
const startsEmpty = createRequire(import.meta.url)('./reset.shared.js')
test('file g starts with the table empty', () => startsEmpty('g', expect))
