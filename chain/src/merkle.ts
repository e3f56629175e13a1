import { Hash, MerklePath, Utils } from '@bsv/sdk'

/**
 * A block's merkle tree, as Bitcoin builds it: each level pairs its nodes and hashes each pair
 * with double SHA-256 (the last node of an odd level is paired with itself), up to one root.
 * Hashes are hex in display order (a txid as explorers show it); they are hashed in internal
 * order, the bytes reversed. Pure: no I/O.
 */

/** One node of a merkle path level, as `MerklePath` takes it. */
type MerklePathLeaf = { offset: number; hash?: string; txid?: boolean; duplicate?: boolean }

/** The bytes of a display-order hash in internal order. */
export const internalBytes = (displayHex: string): number[] =>
  Utils.toArray(displayHex, 'hex').reverse()

/** The display-order hex of internal-order bytes. */
export const displayHex = (internal: number[]): string => Utils.toHex([...internal].reverse())

/** The parent of two nodes: double SHA-256 of left then right, in internal order. */
export function parentOf(left: string, right: string): string {
  return displayHex(Hash.hash256([...internalBytes(left), ...internalBytes(right)]))
}

/**
 * Every level of the tree over these txids, leaves first and the root last (one level for a
 * block of one transaction, whose root is its txid).
 */
export function merkleLevels(txids: readonly string[]): string[][] {
  if (txids.length === 0) throw new RangeError('A block has at least one transaction')
  const levels: string[][] = [txids.map((t) => t.toLowerCase())]
  for (let level = levels[0]!; level.length > 1;) {
    const next: string[] = []
    for (let i = 0; i < level.length; i += 2)
      next.push(parentOf(level[i]!, level[i + 1] ?? level[i]!))
    levels.push(next)
    level = next
  }
  return levels
}

/** The merkle root of a block holding these txids, in this order (display order). */
export const merkleRootOf = (txids: readonly string[]): string => merkleLevels(txids).at(-1)![0]!

/**
 * The BRC-74 merkle path (BUMP) proving the transaction at `index` is in the block whose tree
 * `levels` are: the txid and its sibling at the bottom, then one sibling a level, each marked
 * `duplicate` where the level was odd and the node is paired with itself.
 */
export function merklePathOf({
  levels,
  index,
  blockHeight,
}: {
  levels: readonly (readonly string[])[]
  index: number
  blockHeight: number
}): MerklePath {
  const leaves = levels[0]!
  if (!Number.isSafeInteger(index) || index < 0 || index >= leaves.length)
    throw new RangeError(`No transaction at index ${index} of a block of ${leaves.length}`)
  if (leaves.length === 1)
    return new MerklePath(blockHeight, [[{ offset: 0, hash: leaves[0], txid: true }]])
  const path: MerklePathLeaf[][] = []
  for (let height = 0; height < levels.length - 1; height += 1) {
    const nodes = levels[height]!
    const offset = (index >> height) ^ 1
    const sibling: MerklePathLeaf =
      offset < nodes.length ? { offset, hash: nodes[offset] } : { offset, duplicate: true }
    path.push(
      height === 0
        ? [{ offset: index, hash: leaves[index], txid: true }, sibling].sort(
            (a, b) => a.offset - b.offset,
          )
        : [sibling],
    )
  }
  return new MerklePath(blockHeight, path)
}

/**
 * The BRC-74 merkle path for a TSC proof (BRC-10): `nodes` holds one sibling a level from the
 * bottom up, `*` for a node paired with itself; the bits of `index` say on which side each
 * sibling sits. A proof without nodes is a block of one transaction.
 */
export function merklePathFromTsc({
  txid,
  index,
  nodes,
  blockHeight,
}: {
  txid: string
  index: number
  nodes: readonly string[]
  blockHeight: number
}): MerklePath {
  const id = txid.toLowerCase()
  if (!Number.isSafeInteger(index) || index < 0 || index >= 2 ** nodes.length)
    throw new RangeError(`Index ${index} does not fit a tree of ${nodes.length} levels`)
  if (nodes.length === 0)
    return new MerklePath(blockHeight, [[{ offset: 0, hash: id, txid: true }]])
  const path: MerklePathLeaf[][] = nodes.map((node, height) => {
    const offset = (index >> height) ^ 1
    const sibling: MerklePathLeaf =
      node === '*' ? { offset, duplicate: true } : { offset, hash: node.toLowerCase() }
    return height === 0
      ? [{ offset: index, hash: id, txid: true }, sibling].sort((a, b) => a.offset - b.offset)
      : [sibling]
  })
  return new MerklePath(blockHeight, path)
}
