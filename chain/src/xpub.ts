import { HD } from '@bsv/sdk'

/**
 * Why BSV_XPUB cannot be used, or null when it is an extended public key the shop can derive
 * its payment addresses from. A private key (xprv) is refused first, naming the risk: the
 * server must never hold the means to spend the shop's money.
 */
export function xpubProblem(value: string): string | null {
  const key = value.trim()
  if (/^[xt]prv/i.test(key))
    return "BSV_XPUB is an extended PRIVATE key (xprv): anyone who reads the server settings could spend every payment. Put the wallet's extended PUBLIC key (xpub) here, and keep the xprv in the wallet."
  if (!/^xpub/.test(key))
    return 'BSV_XPUB must be an extended public key starting with "xpub" (BIP32, as the wallet exports it for a watch-only wallet).'
  let root: HD
  try {
    root = HD.fromString(key)
  } catch (error) {
    return `BSV_XPUB is not a valid extended public key (${error instanceof Error ? error.message : 'unreadable'}): copy it again from the wallet.`
  }
  if (root.privKey)
    return 'BSV_XPUB holds a private key: use the extended public key (xpub) instead.'
  try {
    root.derive('m/0/0')
  } catch {
    return 'BSV_XPUB cannot derive the payment addresses m/0/n: export the account-level xpub from the wallet.'
  }
  return null
}
