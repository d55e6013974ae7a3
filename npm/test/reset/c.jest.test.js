const startsEmpty = require('./reset.shared.js')
test('file c starts with the table empty', () => startsEmpty('c', expect))
