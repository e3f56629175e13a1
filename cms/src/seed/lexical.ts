/** Builds Lexical rich text (Payload's editor format) from headings and paragraphs. */
type Block = { heading?: string; text: string }

const textNode = (text: string) => ({
  type: 'text',
  text,
  version: 1,
  format: 0,
  style: '',
  mode: 'normal',
  detail: 0,
})

export function toLexical(blocks: Block[]) {
  const children = blocks.flatMap(({ heading, text }) => [
    ...(heading
      ? [
          {
            type: 'heading',
            tag: 'h3',
            version: 1,
            direction: 'ltr',
            format: '',
            indent: 0,
            children: [textNode(heading)],
          },
        ]
      : []),
    {
      type: 'paragraph',
      version: 1,
      direction: 'ltr',
      format: '',
      indent: 0,
      textFormat: 0,
      textStyle: '',
      children: [textNode(text)],
    },
  ])
  return {
    root: {
      type: 'root',
      version: 1,
      direction: 'ltr' as const,
      format: '' as const,
      indent: 0,
      children,
    },
  }
}
