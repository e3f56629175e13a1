import type { BlockHeader, MerkleProof, TransactionReport } from '@shop/chain'
import { targetOfBits, verifyMerkleProof } from '@shop/chain'

import type { ProofVerdict } from '../process-order'
import { countFollowAsk } from './follow'
import type { WorkerContext } from './state'

/**
 * A payment counts as confirmed only on a merkle proof the shop verifies itself: a path for its
 * txid (ARC's, from the report it follows the payment by or asked for now, else WhatsOnChain's
 * TSC proof) that
 * `MerklePath` leads to the merkle root of a block header whose hash and proof of work the shop
 * recomputed (chain/src/proof.ts), the block named for the transaction by a source. The header
 * comes from WhatsOnChain's API, else from the push stream's block headers, so a path from ARC
 * is checked against another source's header. Two sources naming different blocks for one
 * transaction is a finding, never a confirmation.
 */

/**
 * Difficulty 1: a mainnet header with an easier target proves no work. Testnet takes blocks of
 * whatever difficulty its rules allow, and the test-mode simulator mines at regtest's: there a
 * header's work is checked against its own bits only.
 */
const LOWEST_WORK_TARGET = targetOfBits(0x1d00ffff)!

/** Pushed block headers kept by height (the stream's, for when WhatsOnChain's API is down). */
const PUSHED_HEADERS_KEPT = 200

/** A block header the push stream carried, kept for the proofs of the blocks it announced. */
export function keepPushedHeader(ctx: WorkerContext, header: BlockHeader) {
  const { headers } = ctx.proofs
  headers.delete(header.height)
  headers.set(header.height, header)
  while (headers.size > PUSHED_HEADERS_KEPT) headers.delete(headers.keys().next().value!)
  ctx.proofs.highestHeader = Math.max(ctx.proofs.highestHeader, header.height)
}

type Path = { source: string; merklePath: string; blockHash: string; blockHeight: number }

/**
 * WhatsOnChain's header at a height is asked once for all the proofs of its block while the
 * tip stays where it was (up to this long): a rush's payments mined in one block asked for the
 * same header once each, a call per order at WhatsOnChain's 3 a second. A new tip asks again,
 * so a block replaced at that height is not proven against, and so does a proof the header
 * fails.
 */
const WOC_HEADER_REUSE_MS = 30_000

function wocHeaderAt(ctx: WorkerContext, height: number): Promise<BlockHeader | null> {
  const { wocHeaders } = ctx.proofs
  const tip = Math.max(ctx.tip.height, ctx.proofs.highestHeader)
  const now = ctx.clock()
  const kept = wocHeaders.get(height)
  if (kept && kept.tip === tip && now - kept.at < WOC_HEADER_REUSE_MS) return kept.header
  for (const [h, entry] of wocHeaders) if (entry.tip !== tip) wocHeaders.delete(h)
  const header = Promise.resolve(ctx.chain.getBlockHeader?.(height) ?? null)
  const entry = { tip, at: now, header }
  wocHeaders.set(height, entry)
  // A failed ask or no header yet is not kept: the next proof asks again.
  header.then(
    (found) => {
      if (!found && wocHeaders.get(height) === entry) wocHeaders.delete(height)
    },
    () => {
      if (wocHeaders.get(height) === entry) wocHeaders.delete(height)
    },
  )
  return header
}

/** The header of the block at `height`: WhatsOnChain's, else the push stream's. */
async function headerAt(
  ctx: WorkerContext,
  height: number,
): Promise<{ header: BlockHeader; source: string } | null> {
  try {
    const header = await wocHeaderAt(ctx, height)
    if (header) return { header, source: 'WhatsOnChain' }
  } catch (error) {
    ctx.logger.debug({ err: error, height }, 'no header from WhatsOnChain; the stream may have it')
  }
  const pushed = ctx.proofs.headers.get(height)
  return pushed ? { header: pushed, source: 'the push stream' } : null
}

/**
 * ARC's word on the transaction asked now, ahead of the follower's routine asks: one of the
 * asks its follower may make (follow.ts), so a payment costs ARC no more calls for its proof;
 * none for a payment ARC does not follow (not submitted to it yet) or whose asks are spent.
 */
async function arcReportOf(ctx: WorkerContext, txid: string): Promise<TransactionReport | null> {
  if (!ctx.txSource || !countFollowAsk(ctx, txid)) return null
  try {
    const report = await ctx.txSource.getTransaction(txid, { urgent: true })
    ctx.follow.reports.set(txid, report)
    return report
  } catch (error) {
    ctx.logger.debug({ err: error, txid }, 'ARC gave no report for a proof')
    return null
  }
}

async function wocProofOf(ctx: WorkerContext, txid: string): Promise<MerkleProof | null> {
  try {
    return (await ctx.chain.getMerkleProof?.(txid)) ?? null
  } catch (error) {
    ctx.logger.debug({ err: error, txid }, 'WhatsOnChain gave no merkle proof')
    return null
  }
}

/**
 * The shop's verdict on a transaction's proof of inclusion: verified (with what it rests on), a
 * problem for the owner, or null when no source has a proof yet (asked again at the next look).
 */
export async function proveTransaction(
  ctx: WorkerContext,
  txid: string,
): Promise<ProofVerdict | null> {
  // ARC's report as the follower last had it, else ARC asked now (the proof's call is one of
  // the follower's), else WhatsOnChain's proof: with ARC on, WhatsOnChain's budget is left to
  // the looks.
  const followed = ctx.follow.reports.get(txid)
  let arc = followed?.state === 'mined' ? followed : await arcReportOf(ctx, txid)
  if (arc?.state !== 'mined') arc = null
  const paths: Path[] = []
  if (arc?.state === 'mined' && arc.merklePath && arc.blockHash && arc.blockHeight !== null)
    paths.push({
      source: 'ARC',
      merklePath: arc.merklePath,
      blockHash: arc.blockHash,
      blockHeight: arc.blockHeight,
    })
  const woc = paths.length === 0 ? await wocProofOf(ctx, txid) : null
  if (woc) paths.push({ source: 'WhatsOnChain', ...woc })
  if (paths.length === 0) return null
  const problems: string[] = []
  for (const path of paths) {
    const named = [
      ...(arc?.blockHash ? [{ source: 'ARC', blockHash: arc.blockHash }] : []),
      ...(woc ? [{ source: 'WhatsOnChain', blockHash: woc.blockHash }] : []),
    ]
    if (new Set(named.map((n) => n.blockHash.toLowerCase())).size > 1)
      return {
        ok: false,
        blockHeight: path.blockHeight,
        problem: `ARC and WhatsOnChain name different blocks for ${txid} (${named
          .map((n) => `${n.source}: ${n.blockHash}`)
          .join(', ')}).`,
      }
    const found = await headerAt(ctx, path.blockHeight)
    if (!found) return null
    const check = await verifyMerkleProof({
      txid,
      merklePath: path.merklePath,
      header: found.header,
      blockHashNamedBy: named,
      headerSource: found.source,
    })
    if (!check.ok) {
      // The header is asked again for the next proof: the fault may be the header's.
      ctx.proofs.wocHeaders.delete(path.blockHeight)
      problems.push(`${check.problem} (path from ${path.source})`)
      continue
    }
    const target = targetOfBits(found.header.bits)
    const mainnet =
      ctx.settings.chainSource === 'whatsonchain' && ctx.settings.bsvNetwork === 'main'
    if (mainnet && (target === null || target > LOWEST_WORK_TARGET)) {
      ctx.proofs.wocHeaders.delete(path.blockHeight)
      problems.push(
        `The header ${found.source} gave for block ${check.blockHeight} claims less work than any mainnet block (bits ${found.header.bits.toString(16)}).`,
      )
      continue
    }
    return {
      ok: true,
      blockHeight: check.blockHeight,
      blockHash: check.blockHash,
      merkleRoot: check.merkleRoot,
      merklePath: path.merklePath,
      sources: `path from ${path.source}; header from ${found.source}, its hash and proof of work recomputed; block named by ${check.sources.join(' and ')}`,
    }
  }
  return { ok: false, blockHeight: paths[0]!.blockHeight, problem: problems.join(' ') }
}
