const startsEmpty = require('./reset.shared.js')
test('file g starts with the table empty', () => startsEmpty('g', expect))
