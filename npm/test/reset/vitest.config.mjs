// Reset between test files: a server per worker, rewound before each file.
process.env.DYNAMOEMU_RESET = '1'
export default {
  test: {
    include: ['**/*.vitest.test.mjs'],
    globalSetup: ['dynamoemu/vitest'],
    setupFiles: ['dynamoemu/vitest-setup'],
    pool: 'forks',
    poolOptions: { forks: { maxForks: 2, minForks: 2 } },
  },
}
