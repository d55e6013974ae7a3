import { test, expect } from 'vitest'
import { createRequire } from 'node:module'
const startsEmpty = createRequire(import.meta.url)('./reset.shared.js')
test('file c starts with the table empty', () => startsEmpty('c', expect))
