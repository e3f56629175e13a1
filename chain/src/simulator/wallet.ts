import { P2PKH, PrivateKey, SatoshisPerKilobyte, Transaction } from '@bsv/sdk'

import type { ChainSource } from '../types'

/**
 * The test-mode wallet: a deterministic key (published, worthless) that the simulator funds
 * with a coinbase-style output for each payment, then a real P2PKH transaction built and
 * signed with @bsv/sdk and broadcast through the WhatsOnChain client. Funding per payment keeps
 * concurrent payers (the pay button, the CLI) from spending the same output twice.
 */

export const TEST_WALLET_KEY = PrivateKey.fromString('1'.repeat(63) + '7', 'hex')

const FEE_ALLOWANCE = 1_000

function simulatorBaseOf(wocUrl: string): string {
  return wocUrl.replace(/\/v1\/bsv\/(main|test)\/?$/, '')
}

export async function payFromTestWallet({
  chain,
  wocUrl,
  network,
  address,
  satoshis,
}: {
  chain: ChainSource
  wocUrl: string
  network: 'main' | 'test'
  address: string
  satoshis: number
}): Promise<string> {
  if (!Number.isSafeInteger(satoshis) || satoshis <= 0) throw new RangeError('Nothing to pay.')
  const walletAddress = TEST_WALLET_KEY.toAddress(network === 'main' ? 'mainnet' : 'testnet')
  const funding = await fetch(`${simulatorBaseOf(wocUrl)}/simulator/faucet`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ address: walletAddress, satoshis: satoshis + FEE_ALLOWANCE }),
    signal: AbortSignal.timeout(10_000),
  })
  if (!funding.ok)
    throw new Error(`The chain simulator did not fund the test wallet (${funding.status}).`)
  const { txid: fundingTxid } = (await funding.json()) as { txid: string }
  const source = Transaction.fromHex(await chain.getTransactionHex(fundingTxid))

  const tx = new Transaction()
  tx.addInput({
    sourceTransaction: source,
    sourceOutputIndex: 0,
    unlockingScriptTemplate: new P2PKH().unlock(TEST_WALLET_KEY),
  })
  tx.addOutput({ lockingScript: new P2PKH().lock(address), satoshis })
  tx.addOutput({ lockingScript: new P2PKH().lock(walletAddress), change: true })
  await tx.fee(new SatoshisPerKilobyte(100))
  await tx.sign()
  return chain.broadcast(tx.toHex())
}

/** Mines blocks on the simulator; returns the new height. */
export async function mineOnSimulator({
  wocUrl,
  blocks = 1,
}: {
  wocUrl: string
  blocks?: number
}): Promise<number> {
  const response = await fetch(`${simulatorBaseOf(wocUrl)}/simulator/mine`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ blocks }),
    signal: AbortSignal.timeout(10_000),
  })
  if (!response.ok) throw new Error(`The chain simulator did not mine (${response.status}).`)
  return ((await response.json()) as { height: number }).height
}
