require('./seed.shared.js')('a', 10)
