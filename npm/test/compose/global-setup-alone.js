// A global set-up of the project's own that knows nothing of dynamoemu:
// it replaces the preset's, so each worker starts a server of its own.
module.exports = async () => {
  process.env.APP_NAME = 'demo'
  process.env.OWN_GLOBAL_SETUP = 'ran'
}
