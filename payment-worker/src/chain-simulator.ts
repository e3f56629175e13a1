/**
 * The local chain simulator process (test mode only; `npm start` runs it on SIMULATOR_PORT).
 * Its state is kept under DATA_DIR so a restart keeps the chain.
 */
import path from 'node:path'

import { EnvError, loadEnv } from '@shop/cms/process'
import { createLogger } from '@shop/cms/process'
import { startChainSimulator } from '@shop/chain/simulator'

async function main() {
  let env
  try {
    env = loadEnv()
  } catch (error) {
    if (error instanceof EnvError) {
      console.error(`The chain simulator cannot start.\n${error.message}`)
      process.exit(1)
    }
    throw error
  }
  if (env.isProduction) {
    console.error('The chain simulator is for test mode only.')
    process.exit(1)
  }
  const logger = createLogger(env.logLevel, 'chain-simulator')
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

main().catch((error) => {
  console.error('The chain simulator failed to start:', error)
  process.exit(1)
})
