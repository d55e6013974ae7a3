const startsEmpty = require('./reset.shared.js')
test('file e starts with the table empty', () => startsEmpty('e', expect))
