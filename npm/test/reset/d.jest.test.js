const startsEmpty = require('./reset.shared.js')
test('file d starts with the table empty', () => startsEmpty('d', expect))
