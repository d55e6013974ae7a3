// The project's own setupFiles entry: Jest runs it beside the preset's.
process.env.OWN_SETUP_FILE = 'ran'
