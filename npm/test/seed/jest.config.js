// The seed loaded once into a base, forked per test by the preset: the
// table file, the items directory and the seed script.
process.env.DYNAMOEMU_TABLES = `${__dirname}/tables.json`
process.env.DYNAMOEMU_SEED_ITEMS = `${__dirname}/items`
process.env.DYNAMOEMU_SEED_SCRIPT = `${__dirname}/seed.js`
module.exports = { preset: 'dynamoemu', maxWorkers: 2, testMatch: ['**/*.seed.test.js'] }
