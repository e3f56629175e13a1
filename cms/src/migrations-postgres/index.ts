import * as migration_20261129_052201_initial from './20261129_052201_initial'
import * as migration_20261129_075236_email_outbox_recent_index from './20261129_075236_email_outbox_recent_index'
import * as migration_20261129_081147_query_plan_indexes from './20261129_081147_query_plan_indexes'
import * as migration_20261129_081724_rush_settling from './20261129_081724_rush_settling'
import * as migration_20261129_111000_rate_limits_unlogged from './20261129_111000_rate_limits_unlogged'
import * as migration_20261207_040238_payment_proofs from './20261207_040238_payment_proofs'
import * as migration_20261207_124428_arc_callbacks from './20261207_124428_arc_callbacks'

export const migrations = [
  {
    up: migration_20261129_052201_initial.up,
    down: migration_20261129_052201_initial.down,
    name: '20261129_052201_initial',
  },
  {
    up: migration_20261129_075236_email_outbox_recent_index.up,
    down: migration_20261129_075236_email_outbox_recent_index.down,
    name: '20261129_075236_email_outbox_recent_index',
  },
  {
    up: migration_20261129_081147_query_plan_indexes.up,
    down: migration_20261129_081147_query_plan_indexes.down,
    name: '20261129_081147_query_plan_indexes',
  },
  {
    up: migration_20261129_081724_rush_settling.up,
    down: migration_20261129_081724_rush_settling.down,
    name: '20261129_081724_rush_settling',
  },
  {
    up: migration_20261129_111000_rate_limits_unlogged.up,
    down: migration_20261129_111000_rate_limits_unlogged.down,
    name: '20261129_111000_rate_limits_unlogged',
  },
  {
    up: migration_20261207_040238_payment_proofs.up,
    down: migration_20261207_040238_payment_proofs.down,
    name: '20261207_040238_payment_proofs',
  },
  {
    up: migration_20261207_124428_arc_callbacks.up,
    down: migration_20261207_124428_arc_callbacks.down,
    name: '20261207_124428_arc_callbacks',
  },
]
