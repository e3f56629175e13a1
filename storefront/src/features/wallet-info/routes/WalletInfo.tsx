import type { Wallet } from '@shop/domain'
import { useLocation, useNavigate } from 'react-router-dom'
import useSWR from 'swr'

import { AvailableLink } from '@/components/ui/AvailableLink'
import { PageData } from '@/components/ui/PageData'
import { PageHeader } from '@/components/ui/PageHeader'
import { LoadingState } from '@/components/ui/StatusMessage'
import { paths } from '@/config/paths'

import { getWallets, walletsKey } from '../api/get-wallets'
import '../wallet-info.css'

/** Back where the visitor came from (often the checkout form), or home on a fresh tab. */
function GoBackButton() {
  const navigate = useNavigate()
  // The router gives the first entry of a session the key 'default': nothing of ours to go back to.
  const isFirstPage = useLocation().key === 'default'
  const goBack = () => {
    if (isFirstPage) void navigate(paths.home)
    else void navigate(-1)
  }
  return (
    <button type="button" className="button button--primary" onClick={goBack}>
      <span aria-hidden="true">←</span> Go Back
    </button>
  )
}

/** The recommended wallets, each with a link to its website. */
function WalletList({ wallets }: { wallets: Wallet[] }) {
  return (
    <ul className="wallet-list">
      {wallets.map((wallet) => (
        <li key={wallet.name} className="card wallet-card">
          <h3>{wallet.name}</h3>
          <p className="muted">{wallet.description}</p>
          <AvailableLink
            href={wallet.link}
            className="button button--ghost button--small"
            srContext={`of ${wallet.name}`}
            disabledLabel="Link Coming Soon"
          >
            Visit website
          </AvailableLink>
        </li>
      ))}
    </ul>
  )
}

/** /wallet-info: which wallets to use, and how to give an ordinal address for the certificate. */
export function WalletInfoRoute() {
  const wallets = useSWR(walletsKey, getWallets)

  return (
    <>
      <title>Wallet Guide · Dual Vote</title>
      <PageHeader eyebrow="Wallet guide" title="Wallets and Your Ordinal Address">
        <p>
          You pay for the book in BSV from any wallet. To receive the certificate token that comes
          with your copy, you also need an ordinal address.
        </p>
      </PageHeader>
      <div className="container page narrow">
        <p>
          <GoBackButton />
        </p>

        <section className="wallet-section" aria-labelledby="wallets-title">
          <h2 id="wallets-title">Recommended wallets</h2>
          <PageData
            result={wallets}
            loading={
              <div className="wallet-list-loading">
                <LoadingState label="Loading wallets…" />
              </div>
            }
          >
            {(list) => <WalletList wallets={list} />}
          </PageData>
        </section>

        <section className="wallet-section" aria-labelledby="ordinal-title">
          <h2 id="ordinal-title">Giving an ordinal address</h2>
          <p>
            An ordinal address is an ordinary BSV address that your wallet keeps for 1Sat Ordinals
            tokens. Giving one at checkout is optional; if you do, a certificate token for your copy
            of the book will be sent to it when it is issued.
          </p>
          <ol className="wallet-steps">
            <li>Open a wallet that supports ordinals and find its ordinals (or tokens) section.</li>
            <li>
              Copy the receiving address shown there. It starts with <strong>1</strong>; a paymail
              such as <strong>name@wallet.com</strong> also works.
            </li>
            <li>
              Paste it into the optional ordinal address field at checkout, and check it twice.
            </li>
          </ol>
          <div className="wallet-warning" role="note">
            <strong>Use an address you control.</strong> Do not give an exchange deposit address: a
            token sent there may never reach you, and a token sent to a wrong address cannot be
            recovered.
          </div>
        </section>
      </div>
    </>
  )
}

export const Component = WalletInfoRoute
