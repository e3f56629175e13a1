import { render, screen } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { describe, expect, it } from 'vitest'

import { FaqAccordion } from './FaqAccordion'

const faqs = [
  { question: 'What is this framework?', answer: 'A way to decide together.' },
  { question: 'How does the dual vote work?', answer: 'Every proposal gets two counts.' },
]

describe('the FAQ accordion', () => {
  it('starts closed and opens and closes an answer with its button', async () => {
    render(<FaqAccordion faqs={faqs} />)
    const question = screen.getByRole('button', { name: 'What is this framework?' })
    expect(question).toHaveAttribute('aria-expanded', 'false')
    const panel = document.getElementById(question.getAttribute('aria-controls')!)!
    expect(panel).not.toBeVisible()

    await userEvent.click(question)
    expect(question).toHaveAttribute('aria-expanded', 'true')
    expect(screen.getByRole('region', { name: 'What is this framework?' })).toHaveTextContent(
      'A way to decide together.',
    )
    expect(screen.getByRole('button', { name: 'How does the dual vote work?' })).toHaveAttribute(
      'aria-expanded',
      'false',
    )

    await userEvent.click(question)
    expect(question).toHaveAttribute('aria-expanded', 'false')
    expect(panel).not.toBeVisible()
  })

  it('works from the keyboard', async () => {
    render(<FaqAccordion faqs={faqs} />)
    await userEvent.tab()
    await userEvent.tab()
    expect(screen.getByRole('button', { name: 'How does the dual vote work?' })).toHaveFocus()
    await userEvent.keyboard('{Enter}')
    expect(screen.getByText('Every proposal gets two counts.')).toBeVisible()
  })
})
