// A NoSQL Workbench model as the seed (its table and three sample
// items), forked once per test file (DYNAMOEMU_BRANCH=file): a file's
// tests share its fork, no file sees another's.
process.env.DYNAMOEMU_SEED_MODEL = new URL('./model.json', import.meta.url).pathname
process.env.DYNAMOEMU_BRANCH = 'file'
export default {
  test: {
    globalSetup: ['dynamoemu/vitest'], setupFiles: ['dynamoemu/vitest-setup'],
    include: ['*.seedfile.test.mjs'], pool: 'forks', poolOptions: { forks: { maxForks: 2, minForks: 1 } }, hookTimeout: 120000,
  },
}
