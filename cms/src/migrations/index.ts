import * as migration_20261121_123800_initial from './20261121_123800_initial'
import * as migration_20261124_004554_payment_invalidation from './20261124_004554_payment_invalidation'

export const migrations = [
  {
    up: migration_20261121_123800_initial.up,
    down: migration_20261121_123800_initial.down,
    name: '20261121_123800_initial',
  },
  {
    up: migration_20261124_004554_payment_invalidation.up,
    down: migration_20261124_004554_payment_invalidation.down,
    name: '20261124_004554_payment_invalidation',
  },
]
