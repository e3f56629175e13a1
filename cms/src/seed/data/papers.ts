/** The nine white papers. `files: false` marks a paper whose files are not published yet ('#'). */
export const papers = [
  {
    title: 'Self-Managed Identity on a Public Ledger',
    description:
      'How a person holds and proves their own identity with keys they control, without a central registry, and how attestations are anchored on a public ledger.',
    files: { en: true, it: true },
  },
  {
    title: 'The Dual Vote: Method and Rationale',
    description:
      'Every decision is voted twice: once by people, once weighted by verified contribution. The paper defines both votes, how they are counted and why the two must agree.',
    files: { en: true, it: true },
  },
  {
    title: 'Quanta of Humanity',
    description:
      'A unit that measures verified human participation instead of capital, so that influence cannot be bought and one person cannot pose as many.',
    files: { en: true, it: true },
  },
  {
    title: 'Dual Certification of Documents and Decisions',
    description:
      'Each document and each outcome is certified twice: a timestamp on the public ledger and a signature by the people responsible. Anyone can verify both.',
    files: { en: true, it: true },
  },
  {
    title: 'Trust Metrics: Definitions and Computation',
    description:
      'Trust as a number anyone can recompute from public records: inputs, formulas, decay over time and resistance to manipulation.',
    files: { en: true, it: true },
  },
  {
    title: 'Architecture of the Framework',
    description:
      'The components (identity wallets, vote registry, certification service and metrics engine) and the data each writes to the ledger.',
    files: { en: true, it: false },
  },
  {
    title: 'Operational Procedure for Communities',
    description:
      'Step by step, how a community adopts the framework: enrolment, proposals, the two votes, certification of the result and review.',
    files: { en: true, it: false },
  },
  {
    title: 'Impact and Case Studies',
    description:
      'What changes when decisions are transparent and verifiable: cooperatives, associations and local councils, with the metrics observed.',
    files: { en: false, it: false },
  },
  {
    title: 'Governance, Security and Threat Model',
    description:
      'Who can change the rules and how; attacks on identity, votes and metrics, and the defences built into each layer.',
    files: { en: false, it: false },
  },
] as const
