/**
 * The local chain simulator process (test mode only; `npm start` runs it on SIMULATOR_PORT).
 * Its state is kept under DATA_DIR so a restart keeps the chain.
 */
import path from 'node:path'

import { createLogger, runProcess, settingsOrExit } from '@shop/cms/process'
import { startChainSimulator } from '@shop/chain/simulator'

async function main() {
  const env = settingsOrExit('The chain simulator')
  if (env.isProduction) {
    console.error('The chain simulator is for test mode only.')
    process.exit(1)
  }
  const logger = createLogger(env.logLevel, 'chain-simulator')
  if (env.chainSource !== 'simulator') {
    // `npm start` starts it in every test-mode shop; one that watches WhatsOnChain needs none.
    logger.info({ chain: env.chainSource }, 'chain simulator not needed')
    process.exit(0)
  }
  const simulator = await startChainSimulator({
    network: env.bsvNetwork,
    port: env.simulatorPort,
    stateFile: path.join(env.dataDir, 'chain-simulator.json'),
  })
  logger.info(
    { url: simulator.wocUrl, height: simulator.state.height },
    'chain simulator ready (WhatsOnChain API subset)',
  )
  const stop = () => void simulator.close().then(() => process.exit(0))
  process.on('SIGTERM', stop)
  process.on('SIGINT', stop)
}

runProcess('The chain simulator', main)
