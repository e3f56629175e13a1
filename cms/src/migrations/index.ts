import * as migration_20261121_123800_initial from './20261121_123800_initial'
import * as migration_20261124_004554_payment_invalidation from './20261124_004554_payment_invalidation'
import * as migration_20261124_010955_editors_lock_only_content from './20261124_010955_editors_lock_only_content'
import * as migration_20261124_012625_orders_client_key from './20261124_012625_orders_client_key'
import * as migration_20261124_081052_staff_no_lockout from './20261124_081052_staff_no_lockout'
import * as migration_20261124_081757_owner_actions from './20261124_081757_owner_actions'
import * as migration_20261124_084335_webhook_deliveries from './20261124_084335_webhook_deliveries'
import * as migration_20261124_110618_worker_lease from './20261124_110618_worker_lease'
import * as migration_20261124_112642_shared_rate_limits from './20261124_112642_shared_rate_limits'
import * as migration_20261124_202923_jobs_queue from './20261124_202923_jobs_queue'
import * as migration_20261124_215449_shipping_cost from './20261124_215449_shipping_cost'
import * as migration_20261124_220018_site_texts from './20261124_220018_site_texts'
import * as migration_20261127_123359_order_attention from './20261127_123359_order_attention'
import * as migration_20261127_130233_payment_evidence from './20261127_130233_payment_evidence'
import * as migration_20261127_130656_chain_health from './20261127_130656_chain_health'
import * as migration_20261129_045824_download_links from './20261129_045824_download_links'
import * as migration_20261129_050127_lease_epoch from './20261129_050127_lease_epoch'
import * as migration_20261129_075220_email_outbox_recent_index from './20261129_075220_email_outbox_recent_index'
import * as migration_20261129_081124_query_plan_indexes from './20261129_081124_query_plan_indexes'
import * as migration_20261129_081732_rush_settling from './20261129_081732_rush_settling'
import * as migration_20261207_040124_payment_proofs from './20261207_040124_payment_proofs'
import * as migration_20261207_124413_arc_callbacks from './20261207_124413_arc_callbacks'

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
  {
    up: migration_20261124_010955_editors_lock_only_content.up,
    down: migration_20261124_010955_editors_lock_only_content.down,
    name: '20261124_010955_editors_lock_only_content',
  },
  {
    up: migration_20261124_012625_orders_client_key.up,
    down: migration_20261124_012625_orders_client_key.down,
    name: '20261124_012625_orders_client_key',
  },
  {
    up: migration_20261124_081052_staff_no_lockout.up,
    down: migration_20261124_081052_staff_no_lockout.down,
    name: '20261124_081052_staff_no_lockout',
  },
  {
    up: migration_20261124_081757_owner_actions.up,
    down: migration_20261124_081757_owner_actions.down,
    name: '20261124_081757_owner_actions',
  },
  {
    up: migration_20261124_084335_webhook_deliveries.up,
    down: migration_20261124_084335_webhook_deliveries.down,
    name: '20261124_084335_webhook_deliveries',
  },
  {
    up: migration_20261124_110618_worker_lease.up,
    down: migration_20261124_110618_worker_lease.down,
    name: '20261124_110618_worker_lease',
  },
  {
    up: migration_20261124_112642_shared_rate_limits.up,
    down: migration_20261124_112642_shared_rate_limits.down,
    name: '20261124_112642_shared_rate_limits',
  },
  {
    up: migration_20261124_202923_jobs_queue.up,
    down: migration_20261124_202923_jobs_queue.down,
    name: '20261124_202923_jobs_queue',
  },
  {
    up: migration_20261124_215449_shipping_cost.up,
    down: migration_20261124_215449_shipping_cost.down,
    name: '20261124_215449_shipping_cost',
  },
  {
    up: migration_20261124_220018_site_texts.up,
    down: migration_20261124_220018_site_texts.down,
    name: '20261124_220018_site_texts',
  },
  {
    up: migration_20261127_123359_order_attention.up,
    down: migration_20261127_123359_order_attention.down,
    name: '20261127_123359_order_attention',
  },
  {
    up: migration_20261127_130233_payment_evidence.up,
    down: migration_20261127_130233_payment_evidence.down,
    name: '20261127_130233_payment_evidence',
  },
  {
    up: migration_20261127_130656_chain_health.up,
    down: migration_20261127_130656_chain_health.down,
    name: '20261127_130656_chain_health',
  },
  {
    up: migration_20261129_045824_download_links.up,
    down: migration_20261129_045824_download_links.down,
    name: '20261129_045824_download_links',
  },
  {
    up: migration_20261129_050127_lease_epoch.up,
    down: migration_20261129_050127_lease_epoch.down,
    name: '20261129_050127_lease_epoch',
  },
  {
    up: migration_20261129_075220_email_outbox_recent_index.up,
    down: migration_20261129_075220_email_outbox_recent_index.down,
    name: '20261129_075220_email_outbox_recent_index',
  },
  {
    up: migration_20261129_081124_query_plan_indexes.up,
    down: migration_20261129_081124_query_plan_indexes.down,
    name: '20261129_081124_query_plan_indexes',
  },
  {
    up: migration_20261129_081732_rush_settling.up,
    down: migration_20261129_081732_rush_settling.down,
    name: '20261129_081732_rush_settling',
  },
  {
    up: migration_20261207_040124_payment_proofs.up,
    down: migration_20261207_040124_payment_proofs.down,
    name: '20261207_040124_payment_proofs',
  },
  {
    up: migration_20261207_124413_arc_callbacks.up,
    down: migration_20261207_124413_arc_callbacks.down,
    name: '20261207_124413_arc_callbacks',
  },
]
