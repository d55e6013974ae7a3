// dynamoemu, the seed loaded once and forked per test.
process.env.DYNAMOEMU_TABLES = `${__dirname}/tables.json`
process.env.DYNAMOEMU_SEED_ITEMS = `${__dirname}/items`
module.exports = { preset: 'dynamoemu', maxWorkers: 2, testMatch: ['**/*.bench.test.js'], testTimeout: 600000 }
