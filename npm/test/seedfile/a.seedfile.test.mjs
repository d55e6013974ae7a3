import fileTests from './shared.mjs'
fileTests('a')
