// The project's own global set-up, as the framework's e2e configuration
// has one: it loads what a .env would (APP_NAME, for the framework's
// table names) and starts dynamoemu's server through the exported
// function, the one the preset's globalSetup would have run.
const dynamoemu = require('dynamoemu/jest')

module.exports = async (globalConfig, projectConfig) => {
  process.env.APP_NAME = 'demo'
  process.env.OWN_GLOBAL_SETUP = 'ran'
  await dynamoemu.globalSetup(globalConfig, projectConfig)
}
