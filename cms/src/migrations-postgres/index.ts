import * as migration_20261129_052201_initial from './20261129_052201_initial'

export const migrations = [
  {
    up: migration_20261129_052201_initial.up,
    down: migration_20261129_052201_initial.down,
    name: '20261129_052201_initial',
  },
]
