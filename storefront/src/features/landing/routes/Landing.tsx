import type { ReactNode } from 'react'
import { Link } from 'react-router-dom'
import useSWR from 'swr'

import { PageData } from '@/components/ui/PageData'
import { ErrorState, LoadingState } from '@/components/ui/StatusMessage'
import { paths } from '@/config/paths'

import { faqsKey, getFaqs } from '../api/get-faqs'
import { getLandingHero, landingHeroKey } from '../api/get-landing-hero'
import { FaqAccordion } from '../components/FaqAccordion'
import '../landing.css'

const pillars = [
  {
    title: 'Self-managed identity',
    text: 'You hold your identity with keys you control. Attestations about you are anchored on a public ledger, so you can prove who you are without a central registry keeping your file.',
  },
  {
    title: 'Dual vote',
    text: 'Every decision is counted twice: once as one person, one vote, and once weighted by verified contribution. A proposal passes only when both counts agree.',
  },
  {
    title: 'Quanta of humanity',
    text: 'A unit of verified human participation, not of money. Influence grows with what people actually do, cannot be bought, and one person cannot pose as many.',
  },
  {
    title: 'Dual certification',
    text: 'Each document and each outcome is certified twice: a timestamp on the public ledger and the signatures of the people responsible. Anyone can check both.',
  },
]

const layers = [
  {
    name: 'Identity wallets',
    text: 'Keys and attestations held by each member, on their own device.',
  },
  {
    name: 'Vote registry',
    text: 'Proposals and both counts of every dual vote, recorded as they happen.',
  },
  {
    name: 'Certification service',
    text: 'Timestamps and signatures that seal documents and results.',
  },
  {
    name: 'Metrics engine',
    text: 'Trust metrics recomputed from public records, by anyone, at any time.',
  },
]

const impacts = [
  {
    title: 'Decisions you can audit',
    text: 'Every vote and every result can be verified by members and outsiders alike, long after the meeting is over.',
  },
  {
    title: 'Trust as a number',
    text: 'Reputation stops being a matter of opinion: trust metrics have public inputs and formulas, and decay when people stop taking part.',
  },
  {
    title: 'Power that cannot be bought',
    text: 'Because weight comes from verified participation, capital alone cannot tip the second count, and a crowd alone cannot override the first.',
  },
]

const steps = [
  {
    title: 'Enrol',
    text: 'Each member creates a self-managed identity and receives the attestations of the community.',
  },
  {
    title: 'Propose',
    text: 'A proposal is written, timestamped on the ledger and opened for discussion.',
  },
  {
    title: 'Vote twice',
    text: 'Members vote once; the registry produces the head count and the weighted count.',
  },
  {
    title: 'Certify',
    text: 'The result is certified with a ledger timestamp and the signatures of those responsible.',
  },
  {
    title: 'Review',
    text: 'Trust metrics are recomputed from the public record and published for everyone to check.',
  },
]

const resources = [
  {
    to: paths.store,
    title: 'The book',
    text: 'The complete framework in one volume, as a PDF or in print, paid in BSV.',
    action: 'Visit the store',
  },
  {
    to: paths.papers,
    title: 'White papers',
    text: 'Nine papers in English and Italian, each with its timestamp certificate.',
    action: 'Read the papers',
  },
  {
    to: paths.walletInfo,
    title: 'Wallet guide',
    text: 'Which wallets to use, and how to give an ordinal address for your certificate token.',
    action: 'Choose a wallet',
  },
]

/** One count of the example result: its share of yes votes, as a bar and in words. */
function ExampleCount({ name, yes }: { name: string; yes: number }) {
  return (
    <div>
      <dt>{name}</dt>
      <dd>
        <span className="hero__track">
          <span className="hero__bar" style={{ width: `${yes}%` }} />
        </span>
        {`${yes}% yes`}
      </dd>
    </div>
  )
}

/** An illustration of a certified dual-vote result, as anyone could read it from the ledger. */
function ExampleResult() {
  return (
    <figure className="hero__example" aria-label="Example of a certified dual vote result">
      <figcaption className="hero__example-caption">Example · certified result</figcaption>
      <p className="hero__example-title">Proposal 12: adopt the yearly budget</p>
      <dl className="hero__example-counts">
        <ExampleCount name="Head count" yes={64} />
        <ExampleCount name="Weighted count" yes={71} />
      </dl>
      <p className="hero__example-status">
        <span aria-hidden="true">✓</span> Both counts agree: passed, timestamped on the public
        ledger
      </p>
    </figure>
  )
}

/**
 * The hero's words and button labels come from the CMS. While they load, placeholders of their
 * size hold the place, so nothing below moves when they arrive.
 */
function Hero() {
  const { data, error, isLoading, isValidating, mutate } = useSWR(landingHeroKey, getLandingHero)
  const loading = !data && (isLoading || isValidating)

  let text
  if (loading) {
    text = (
      <div className="hero__text" role="status" aria-live="polite">
        <span className="visually-hidden">Loading…</span>
        <div aria-hidden="true" data-testid="hero-placeholder">
          <div className="hero__placeholder hero__placeholder--eyebrow" />
          <div className="hero__placeholder hero__placeholder--title" />
          <div className="hero__placeholder hero__placeholder--lead" />
          <div className="hero__actions">
            <div className="hero__placeholder hero__placeholder--button" />
            <div className="hero__placeholder hero__placeholder--button" />
          </div>
        </div>
      </div>
    )
  } else if (error || !data) {
    text = (
      <div className="hero__text">
        <ErrorState message="Failed to load page data." onRetry={() => void mutate()} />
      </div>
    )
  } else {
    text = (
      <div className="hero__text">
        <p className="hero__eyebrow">{data.eyebrow}</p>
        <h1 id="hero-title">{data.title}</h1>
        <p className="hero__lead">{data.text}</p>
        <div className="hero__actions">
          <Link to={paths.store} className="button button--accent">
            {data.storeButtonLabel}
          </Link>
          <a href="#resources" className="button button--ghost hero__ghost">
            {data.resourcesButtonLabel}
          </a>
        </div>
      </div>
    )
  }

  return (
    <section
      className="hero"
      aria-labelledby={data ? 'hero-title' : undefined}
      aria-label={data ? undefined : 'Introduction'}
    >
      <div className="container hero__inner">
        {text}
        <ExampleResult />
      </div>
    </section>
  )
}

function Faqs() {
  const faqs = useSWR(faqsKey, getFaqs)
  return (
    <PageData result={faqs} loading={<LoadingState label="Loading questions…" />}>
      {(list) => <FaqAccordion faqs={list} />}
    </PageData>
  )
}

/** A section of the page under its eyebrow and title; `id` is its anchor and names its title. */
function LandingSection({
  id,
  tone,
  narrow = false,
  eyebrow,
  title,
  children,
}: {
  id: string
  tone?: 'tint' | 'navy'
  narrow?: boolean
  eyebrow: string
  title: string
  children: ReactNode
}) {
  return (
    <section
      id={id}
      className={tone ? `landing-section landing-section--${tone}` : 'landing-section'}
      aria-labelledby={`${id}-title`}
    >
      <div className={narrow ? 'container narrow' : 'container'}>
        <p className="section-eyebrow">{eyebrow}</p>
        <h2 id={`${id}-title`}>{title}</h2>
        {children}
      </div>
    </section>
  )
}

/** /: what the framework is, its four pillars, how it works, the FAQs and where to go next. */
export function LandingRoute() {
  return (
    <div className="landing">
      <Hero />

      <section id="overview" className="landing-section" aria-labelledby="overview-title">
        <div className="container landing-split">
          <div>
            <p className="section-eyebrow">Overview</p>
            <h2 id="overview-title">Decide together, and prove it</h2>
          </div>
          <div className="landing-prose">
            <p>
              Most communities decide by a show of hands or by whoever holds the most shares, and
              keep the result in minutes nobody can verify. This framework changes three things.
            </p>
            <p>
              Each person manages their own <strong>identity</strong>. Each decision is taken with a{' '}
              <strong>dual vote</strong>, counted by people and by verified contribution. And every
              result, with the <strong>trust metrics</strong> of those who took part, is written to
              a <strong>public ledger</strong>, so that anyone can check it without trusting us.
            </p>
          </div>
        </div>
      </section>

      <LandingSection id="concepts" tone="tint" eyebrow="Core concepts" title="Four pillars">
        <ol className="pillars">
          {pillars.map((pillar, index) => (
            <li key={pillar.title} className="card pillar">
              <span className="pillar__number" aria-hidden="true">
                {index + 1}
              </span>
              <h3>{pillar.title}</h3>
              <p>{pillar.text}</p>
            </li>
          ))}
        </ol>
      </LandingSection>

      <LandingSection
        id="architecture"
        eyebrow="Architecture"
        title="Four components, one public ledger"
      >
        <p className="landing-prose">
          The framework is built from small parts with one job each. They share no private database:
          what must be verifiable is written to the BSV public ledger, and everything else stays
          with its owner.
        </p>
        <ul className="layers">
          {layers.map((layer) => (
            <li key={layer.name} className="layer">
              <h3>{layer.name}</h3>
              <p>{layer.text}</p>
            </li>
          ))}
        </ul>
        <p className="ledger-bar">Public ledger: timestamps, certificates, vote results, metrics</p>
      </LandingSection>

      <LandingSection id="impact" tone="navy" eyebrow="Impact" title="What changes for a community">
        <ul className="impacts">
          {impacts.map((impact) => (
            <li key={impact.title}>
              <h3>{impact.title}</h3>
              <p>{impact.text}</p>
            </li>
          ))}
        </ul>
      </LandingSection>

      <LandingSection
        id="procedure"
        eyebrow="Operational procedure"
        title="From proposal to certified result"
      >
        <ol className="steps">
          {steps.map((step) => (
            <li key={step.title} className="step">
              <h3>{step.title}</h3>
              <p>{step.text}</p>
            </li>
          ))}
        </ol>
      </LandingSection>

      <LandingSection
        id="faqs"
        tone="tint"
        narrow
        eyebrow="FAQs"
        title="Frequently asked questions"
      >
        <Faqs />
      </LandingSection>

      <LandingSection id="resources" eyebrow="Resources" title="Where to go next">
        <ul className="resources">
          {resources.map((resource) => (
            <li key={resource.to}>
              <Link to={resource.to} className="card resource-card">
                <h3>{resource.title}</h3>
                <p>{resource.text}</p>
                <span className="resource-card__action">
                  {resource.action} <span aria-hidden="true">→</span>
                </span>
              </Link>
            </li>
          ))}
        </ul>
      </LandingSection>
    </div>
  )
}

export const Component = LandingRoute
