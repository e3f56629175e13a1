import * as migration_20261121_122408_initial from './20261121_122408_initial';

export const migrations = [
  {
    up: migration_20261121_122408_initial.up,
    down: migration_20261121_122408_initial.down,
    name: '20261121_122408_initial'
  },
];
