require('./seed.shared.js')('b', 10)
