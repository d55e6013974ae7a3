const orderRow = require('./worker.shared.js')
test('the project\'s set-up and the preset\'s, composed (b)', () => orderRow('b'))
