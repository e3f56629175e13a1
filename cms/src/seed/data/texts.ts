/** The site texts editors can change in the CMS: FAQs, tools, wallets and legal texts. */
export const faqs = [
  {
    question: 'What is this framework?',
    answer:
      'A way for a community to decide together and to prove it: each person manages their own identity, every decision is voted twice (by people and by verified contribution), and the results and trust metrics are recorded on a public ledger where anyone can check them.',
  },
  {
    question: 'How does the dual vote work?',
    answer:
      'Every proposal gets two counts. The first is one person, one vote. The second weighs each vote by quanta of humanity, a measure of verified participation. A proposal passes when both counts agree, so neither a crowd nor a small group of heavy contributors can decide alone.',
  },
  {
    question: 'Why do you take payment in BSV?',
    answer:
      'The framework records its certificates on the BSV ledger, and paying there needs no account: you send the amount shown to a one-time address from any BSV wallet, and the order completes as soon as the network sees the payment.',
  },
  {
    question: 'What is an ordinal address and do I need one?',
    answer:
      'It is a BSV address in a wallet that supports 1Sat Ordinals. It is optional: if you give one at checkout, a certificate token for your copy of the book will be sent to it later. See the wallet guide for wallets that support it.',
  },
]

export const tools: {
  name: string
  description: string
  link: string
  manuals: { language: 'en' | 'it' | 'fr' | 'es'; link: string }[]
}[] = [
  {
    name: 'Blockchain explorer',
    description: 'Look up any transaction, address or timestamp certificate on the BSV ledger.',
    link: 'https://whatsonchain.com',
    manuals: [],
  },
  {
    name: 'Timestamp service',
    description: 'Certify that a document existed at a given time by writing its fingerprint to the ledger.',
    link: '#',
    manuals: [],
  },
  {
    name: 'Save files on chain',
    description: 'Store a document itself on the ledger so that it stays available and unchanged.',
    link: '#',
    manuals: [],
  },
  {
    name: 'Dual vote chat bot',
    description: 'Runs a dual vote inside a group chat: proposals, both counts and the certified result.',
    link: '#',
    manuals: [
      { language: 'en', link: '#' },
      { language: 'it', link: '#' },
      { language: 'fr', link: '#' },
      { language: 'es', link: '#' },
    ],
  },
  {
    name: 'Bot with wallet integration',
    description: 'The chat bot connected to your wallet, so votes and certificates are signed with your own keys.',
    link: '#',
    manuals: [],
  },
]

export const wallets = [
  {
    name: 'Yours Wallet',
    description: 'A browser-extension wallet for BSV with an ordinals tab: it shows the ordinal address to copy at checkout.',
    link: 'https://yours.org',
  },
  {
    name: 'HandCash',
    description: 'A phone wallet for BSV: scan the QR code on the payment screen and confirm.',
    link: 'https://handcash.io',
  },
  {
    name: 'ElectrumSV',
    description: 'A desktop wallet for BSV that keeps your keys on your computer; it opens the payment link from the QR code.',
    link: 'https://electrumsv.io',
  },
]

type Block = { heading?: string; text: string }

export const termsOfUse: Block[] = [
  { heading: 'Who we are', text: 'This site presents the framework and sells its book. By using it or buying from it you accept these terms.' },
  { heading: 'Orders and payment', text: 'Prices are set in euros and paid in BSV at the rate shown at checkout. An order is reserved for the time shown on the payment screen; a payment that arrives after that time is recorded and settled by us by hand.' },
  { heading: 'Delivery', text: 'A PDF is delivered as a download link that is personal, time-limited and usable a limited number of times. A printed book is shipped to the address you give; we e-mail the tracking number.' },
  { heading: 'Refunds', text: 'Purchases are final and non-refundable, except where the law requires otherwise or we fail to deliver. In that case write to us with your order id.' },
  { heading: 'Content', text: 'The papers and the book are the authors\' work. You may read and share the free papers unchanged with attribution; the book is for your personal use.' },
]

export const privacyPolicy: Block[] = [
  { heading: 'What we collect', text: 'Only what an order needs: your e-mail address, the ordinal address you choose to give, and for a printed book your shipping details. We have no accounts and no tracking cookies.' },
  { heading: 'Why', text: 'To deliver your order, send you its links and tracking number, and send a certificate token to your ordinal address when it is issued.' },
  { heading: 'Payments', text: 'Payments are made on a public ledger: the payment address and transaction of your order are public by nature, but they are not linked to your name by us.' },
  { heading: 'How long', text: 'Order records are kept as long as accounting law requires; you may ask us to delete anything we are not required to keep.' },
  { heading: 'Your rights', text: 'You may ask for a copy of your data, its correction or its deletion by writing to us with your order id.' },
]
