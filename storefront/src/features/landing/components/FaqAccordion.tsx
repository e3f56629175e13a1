import type { Faq } from '@shop/domain'
import { useId, useState } from 'react'

/**
 * The FAQs as a disclosure accordion (WAI-ARIA pattern): each question is a button in a
 * heading that controls its answer; any number can be open at once.
 */
export function FaqAccordion({ faqs }: { faqs: Faq[] }) {
  const baseId = useId()
  const [open, setOpen] = useState<ReadonlySet<number>>(() => new Set())
  const toggle = (index: number) =>
    setOpen((current) => {
      const next = new Set(current)
      if (next.has(index)) next.delete(index)
      else next.add(index)
      return next
    })

  return (
    <div className="faq">
      {faqs.map((faq, index) => {
        const expanded = open.has(index)
        const buttonId = `${baseId}-q${index}`
        const panelId = `${baseId}-a${index}`
        return (
          <div className={expanded ? 'faq__item faq__item--open' : 'faq__item'} key={faq.question}>
            <h3 className="faq__question">
              <button
                type="button"
                id={buttonId}
                aria-expanded={expanded}
                aria-controls={panelId}
                onClick={() => toggle(index)}
              >
                <span>{faq.question}</span>
                <span className="faq__icon" aria-hidden="true" />
              </button>
            </h3>
            <div
              id={panelId}
              role="region"
              aria-labelledby={buttonId}
              className="faq__answer"
              hidden={!expanded}
            >
              <p>{faq.answer}</p>
            </div>
          </div>
        )
      })}
    </div>
  )
}
