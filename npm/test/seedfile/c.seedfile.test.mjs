import fileTests from './shared.mjs'
fileTests('c')
