/**
 * The ARC stand-in's error answers: RFC 7807 problem details with the titles and details of
 * doc/arc.json's error schemas (fixtures/arc-docs/error-*.json), the txid they concern and what
 * went wrong in `extraInfo`. ARC's docs print no body for 401 and no 429 at all: those follow the
 * same shape (fixtures/arc-docs/README.md says how).
 */

const PROBLEMS: Record<number, { title: string; detail: string; type?: string }> = {
  400: {
    title: 'Bad request',
    detail: 'The request seems to be malformed and cannot be processed',
  },
  401: {
    title: 'Unauthorized',
    detail: 'Security requirements failed',
    type: 'https://tools.ietf.org/html/rfc7235#section-3.1',
  },
  404: { title: 'Not found', detail: 'The requested resource could not be found' },
  409: { title: 'Generic error', detail: 'Transaction could not be processed' },
  429: {
    title: 'Too Many Requests',
    detail: 'Too many requests',
    type: 'https://tools.ietf.org/html/rfc6585#section-4',
  },
  460: {
    title: 'Not extended format',
    detail: 'Missing input scripts: Transaction could not be transformed to extended format',
  },
  461: {
    title: 'Malformed transaction',
    detail: 'Transaction is malformed and cannot be processed',
  },
  462: {
    title: 'Invalid inputs',
    detail: 'Transaction is invalid because the inputs are non-existent or spent',
  },
  463: {
    title: 'Malformed transaction',
    detail: 'Transaction is malformed and cannot be processed',
  },
  464: {
    title: 'Invalid outputs',
    detail: 'Transaction is invalid because the outputs are non-existent or invalid',
  },
  465: { title: 'Fee too low', detail: 'The fees are too low' },
}

export type ArcProblemBody = {
  type: string
  title: string
  status: number
  detail: string
  instance: null
  txid?: string
  extraInfo?: string
}

/** The body ARC answers with `status`; `txid` and `extraInfo` when there is one to say. */
export function problemBody(
  status: number,
  { txid, extraInfo }: { txid?: string; extraInfo?: string } = {},
): ArcProblemBody {
  const known = PROBLEMS[status] ?? PROBLEMS[409]!
  return {
    type: known.type ?? `https://bitcoin-sv.github.io/arc/#/errors?id=_${status}`,
    title: known.title,
    status,
    detail: known.detail,
    instance: null,
    ...(txid !== undefined ? { txid } : {}),
    ...(extraInfo !== undefined ? { extraInfo: `arc error ${status}: ${extraInfo}` } : {}),
  }
}

/** A submission ARC refuses, with the code and words of its answer. */
export class ArcRefusal extends Error {
  constructor(
    readonly status: number,
    readonly extraInfo: string,
    readonly txid?: string,
  ) {
    super(extraInfo)
    this.name = 'ArcRefusal'
  }

  body(): ArcProblemBody {
    return problemBody(this.status, { txid: this.txid, extraInfo: this.extraInfo })
  }
}
