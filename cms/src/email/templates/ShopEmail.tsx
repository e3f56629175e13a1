import {
  Body,
  Container,
  Head,
  Hr,
  Html,
  Img,
  Link,
  Preview,
  Section,
  Text,
} from '@react-email/components'
import type { ReactNode } from 'react'

import type { ShopInfo } from './types'

const colors = { ink: '#13213d', muted: '#4a5568', line: '#d5d9e2', accent: '#f5c04a' }

export const styles = {
  body: {
    backgroundColor: '#f4f5f8',
    fontFamily: 'Helvetica, Arial, sans-serif',
    color: colors.ink,
  },
  container: {
    backgroundColor: '#ffffff',
    border: `1px solid ${colors.line}`,
    borderRadius: '8px',
    margin: '24px auto',
    maxWidth: '560px',
    padding: '24px',
  },
  heading: { fontSize: '20px', fontWeight: 700, margin: '16px 0 8px' },
  text: { fontSize: '15px', lineHeight: '22px', margin: '8px 0' },
  muted: { fontSize: '13px', lineHeight: '20px', color: colors.muted, margin: '4px 0' },
  label: { fontSize: '13px', color: colors.muted, margin: '0' },
  value: { fontSize: '15px', margin: '0 0 8px', wordBreak: 'break-all' as const },
  button: {
    backgroundColor: colors.ink,
    borderRadius: '6px',
    color: '#ffffff',
    display: 'inline-block',
    fontSize: '15px',
    fontWeight: 700,
    padding: '12px 20px',
    textDecoration: 'none',
  },
  hr: { borderColor: colors.line, margin: '20px 0' },
}

/** The frame of every e-mail the shop sends: its name and logo, the message, how to get help. */
export function ShopEmail({
  shop,
  preview,
  children,
}: {
  shop: ShopInfo
  preview: string
  children: ReactNode
}) {
  return (
    <Html lang="en">
      <Head />
      <Preview>{preview}</Preview>
      <Body style={styles.body}>
        <Container style={styles.container}>
          <Section>
            <Img
              src={`${shop.publicUrl}/email-logo.png`}
              width="40"
              height="40"
              alt=""
              style={{ display: 'inline-block', verticalAlign: 'middle', borderRadius: '8px' }}
            />
            <Text
              style={{
                display: 'inline-block',
                verticalAlign: 'middle',
                fontSize: '17px',
                fontWeight: 700,
                margin: '0 0 0 12px',
              }}
            >
              {shop.name}
            </Text>
          </Section>
          {children}
          <Hr style={styles.hr} />
          <Text style={styles.muted}>
            Questions about your order? Write to{' '}
            <Link href={`mailto:${shop.supportEmail}`}>{shop.supportEmail}</Link> with your order
            id.
          </Text>
          <Text style={styles.muted}>
            {shop.name} ·{' '}
            <Link href={shop.publicUrl}>{shop.publicUrl.replace(/^https?:\/\//, '')}</Link>
          </Text>
        </Container>
      </Body>
    </Html>
  )
}
