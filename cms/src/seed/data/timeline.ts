/** The six milestones on /updates: the first two completed, 2025 to Q3 2027. */
export const timeline = [
  {
    date: 'Q1 2025',
    title: 'White papers published',
    description: 'The framework is described in nine papers, in English and Italian, each certified with a timestamp on the public ledger.',
    status: 'completed',
  },
  {
    date: 'Q4 2025',
    title: 'Proof tools online',
    description: 'The block explorer, timestamp and file-storage tools used to verify the papers are listed with their guides.',
    status: 'completed',
  },
  {
    date: 'Q2 2026',
    title: 'The book',
    description: 'The complete framework in one book, as a PDF and in print, sold in this store for BSV.',
    status: 'upcoming',
  },
  {
    date: 'Q4 2026',
    title: 'Dual vote chat bot beta',
    description: 'A chat bot that runs a dual vote inside a group chat, with manuals in English, Italian, French and Spanish.',
    status: 'upcoming',
  },
  {
    date: 'Q1 2027',
    title: 'Wallet integration and certificate tokens',
    description: 'The bot connects to wallets; buyers of the book receive a certificate token at the ordinal address they gave.',
    status: 'upcoming',
  },
  {
    date: 'Q3 2027',
    title: 'First community pilot',
    description: 'A community runs its decisions through the framework for a season, with trust metrics published on the ledger.',
    status: 'upcoming',
  },
] as const
