import fileTests from './shared.mjs'
fileTests('b')
