import { describe, expect, it } from 'vitest'
import { tokenize } from './tokenize'

const ada = '0190a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5b'

describe('tokenize', () => {
  it('keeps plain text whole', () => {
    expect(tokenize('Hello there.\nSecond line')).toEqual([{ type: 'text', text: 'Hello there.\nSecond line' }])
  })

  it('reads a mention of a display name and a user id', () => {
    expect(tokenize(`Thanks [Ada Lovelace](${ada}) for this`)).toEqual([
      { type: 'text', text: 'Thanks ' },
      { type: 'mention', display: 'Ada Lovelace', userId: ada },
      { type: 'text', text: ' for this' },
    ])
  })

  it.each([
    ['no id', '[Ada]()'],
    ['not a uuid', '[Ada](not-a-uuid-at-all-but-36-chars-long!)'],
    ['the nil uuid', '[Ada](00000000-0000-0000-0000-000000000000)'],
    ['empty name', `[](${ada})`],
    ['a line break in the name', `[Ada\nL](${ada})`],
    ['space before the id', `[Ada] (${ada})`],
  ])('is not a mention with %s', (_, raw) => {
    expect(tokenize(raw).some((t) => t.type === 'mention')).toBe(false)
  })

  it('reads hashtags at the start of words only', () => {
    expect(tokenize('#go and (#rust_lang) but not a#b, #ünïcode1 #')).toEqual([
      { type: 'hashtag', name: 'go' },
      { type: 'text', text: ' and (' },
      { type: 'hashtag', name: 'rust_lang' },
      { type: 'text', text: ') but not a#b, ' },
      { type: 'hashtag', name: 'ünïcode1' },
      { type: 'text', text: ' #' },
    ])
  })

  it('cuts a hashtag at 100 characters but consumes the run', () => {
    const long = 'a'.repeat(120)
    expect(tokenize(`#${long} x`)).toEqual([
      { type: 'hashtag', name: 'a'.repeat(100) },
      { type: 'text', text: ' x' },
    ])
  })

  it('reads links, leaving sentence punctuation out', () => {
    expect(tokenize('See https://example.com/a?b=1#frag, and www.example.org.')).toEqual([
      { type: 'text', text: 'See ' },
      { type: 'link', text: 'https://example.com/a?b=1#frag', href: 'https://example.com/a?b=1#frag' },
      { type: 'text', text: ', and ' },
      { type: 'link', text: 'www.example.org', href: 'https://www.example.org' },
      { type: 'text', text: '.' },
    ])
  })

  it('keeps a parenthesis that belongs to the address', () => {
    expect(tokenize('(see https://en.wikipedia.org/wiki/Foo_(bar)).')).toEqual([
      { type: 'text', text: '(see ' },
      { type: 'link', text: 'https://en.wikipedia.org/wiki/Foo_(bar)', href: 'https://en.wikipedia.org/wiki/Foo_(bar)' },
      { type: 'text', text: ').' },
    ])
  })

  it('does not take a fragment inside a link for a hashtag', () => {
    const tokens = tokenize('https://example.com/#section')
    expect(tokens).toEqual([{ type: 'link', text: 'https://example.com/#section', href: 'https://example.com/#section' }])
  })

  it('never makes a link of a script address or markup', () => {
    const raw = 'javascript:alert(1) <img src=x onerror=alert(1)> data:text/html,<script>alert(1)</script> [x](javascript:alert(1))'
    const tokens = tokenize(raw)
    expect(tokens).toEqual([{ type: 'text', text: raw }])
  })

  it('does not start a link inside a word', () => {
    expect(tokenize('xhttps://a.example')).toEqual([{ type: 'text', text: 'xhttps://a.example' }])
  })

  it('joins back into the original text', () => {
    const raw = `Hi [Ada](${ada}), #tag see https://a.example/x.`
    const back = tokenize(raw)
      .map((t) => (t.type === 'text' || t.type === 'link' ? t.text : t.type === 'hashtag' ? `#${t.name}` : `[${t.display}](${t.userId})`))
      .join('')
    expect(back).toBe(raw)
  })
})
