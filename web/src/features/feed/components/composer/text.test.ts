import { describe, expect, it } from 'vitest'
import {
  convertEmoji,
  displayText,
  editDisplayed,
  inMention,
  replaceDisplayed,
  editorInput,
  findTrigger,
  matchesPerson,
  mentionMarkup,
  normalizeLink,
  textLength,
  truncate,
  viewerTypeOf,
} from './text'

describe('editor input (spec 001 §5 "Posts and comments")', () => {
  it('drops leading whitespace and cuts at the limit in code points', () => {
    expect(editorInput('  \n hello ', 400)).toBe('hello ')
    expect(editorInput('abcdef', 4)).toBe('abcd')
    // An emoji is one character, as the server counts them.
    expect(textLength('😀😀a')).toBe(3)
    expect(truncate('😀😀😀', 2)).toBe('😀😀')
    expect(truncate('short', 10)).toBe('short')
  })
})

describe('findTrigger', () => {
  it('finds a mention or hashtag being typed at the caret', () => {
    expect(findTrigger('hi @ad', 6)).toEqual({ kind: 'mention', start: 3, end: 6, query: 'ad' })
    expect(findTrigger('@', 1)).toEqual({ kind: 'mention', start: 0, end: 1, query: '' })
    expect(findTrigger('see #go_lang', 12)).toEqual({ kind: 'hashtag', start: 4, end: 12, query: 'go_lang' })
    expect(findTrigger('(#x', 3)).toEqual({ kind: 'hashtag', start: 1, end: 3, query: 'x' })
  })
  it('ignores triggers inside words, after spaces and with other characters', () => {
    expect(findTrigger('mail@host', 9)).toBeNull()
    expect(findTrigger('page/#frag', 10)).toBeNull()
    expect(findTrigger('@ada lovelace', 13)).toBeNull()
    expect(findTrigger('#a-b', 4)).toBeNull()
    expect(findTrigger('plain text', 10)).toBeNull()
    // The caret before the query's end: only what precedes it counts.
    expect(findTrigger('@adam', 3)).toEqual({ kind: 'mention', start: 0, end: 3, query: 'ad' })
  })
})

describe('mentions', () => {
  it('writes [Display Name](userId), without characters that would break it', () => {
    const id = '0190a8b2-7c1d-7e4f-8a9b-0c1d2e3f4a5b'
    expect(mentionMarkup('Ada', 'Lovelace', id)).toBe(`[Ada Lovelace](${id})`)
    expect(mentionMarkup('Ada [x]', '(Love)\nlace', id)).toBe(`[Ada x Lovelace](${id})`)
  })
  it('matches a query against the start of a name', () => {
    expect(matchesPerson('', 'Ada', 'Lovelace')).toBe(true)
    expect(matchesPerson('lov', 'Ada', 'Lovelace')).toBe(true)
    expect(matchesPerson('ADA', 'Ada', 'Lovelace')).toBe(true)
    expect(matchesPerson('ace', 'Ada', 'Lovelace')).toBe(false)
  })
})

describe('convertEmoji', () => {
  it('converts a known :shortcode: when its closing colon is typed', () => {
    expect(convertEmoji('hi :smile:', 10)).toEqual({ text: 'hi 😄', caret: 5 })
    expect(convertEmoji(':+1:', 4)).toEqual({ text: '👍', caret: 2 })
    expect(convertEmoji(':tada: after', 6)).toEqual({ text: '🎉 after', caret: 2 })
  })
  it('leaves unknown shortcodes, times and addresses alone', () => {
    expect(convertEmoji('hi :nope:', 9)).toBeNull()
    expect(convertEmoji('at 10:30:', 9)).toBeNull()
    expect(convertEmoji('https://x.io ', 13)).toBeNull()
  })
  it('converts an emoticon once a space follows it', () => {
    expect(convertEmoji('ok :) ', 6)).toEqual({ text: 'ok 🙂 ', caret: 6 })
    expect(convertEmoji('ok :)', 5)).toBeNull()
    expect(convertEmoji('a:) ', 4)).toBeNull()
  })
})

describe('normalizeLink (spec 001 §5 "Links")', () => {
  it.each([
    ['example.com', 'https://example.com/'],
    ['  www.example.com/a?b=1  ', 'https://www.example.com/a?b=1'],
    ['http://example.com/x', 'http://example.com/x'],
    ['localhost:8080/page', 'https://localhost:8080/page'],
    ['127.0.0.1:5000/p.html', 'https://127.0.0.1:5000/p.html'],
  ])('%s → %s', (input, want) => {
    expect(normalizeLink(input)).toBe(want)
  })
  it.each([
    '',
    'not a link',
    'example',
    'ftp://example.com',
    'javascript:alert(1)',
    'mailto:a@b.co',
    'https://',
    'https://user:pw@example.com',
  ])('refuses %j', (input) => {
    expect(normalizeLink(input)).toBeNull()
  })
})

describe('viewerTypeOf (spec 001 §9 "Recognised link types")', () => {
  it('plays YouTube, Vimeo and Kaltura in place and opens the rest', () => {
    expect(viewerTypeOf('https://www.youtube.com/watch?v=x')).toBe('embedded')
    expect(viewerTypeOf('https://youtu.be/x')).toBe('embedded')
    expect(viewerTypeOf('https://player.vimeo.com/video/1')).toBe('embedded')
    expect(viewerTypeOf('https://example.com/youtube')).toBe('external')
  })
})

describe('the displayed text (mentions as @Display Name)', () => {
  const ID = '0190a8b2-0000-7000-8000-0000000000a1'
  const stored = `Hi [Ada Lovelace](${ID}) there`

  it('shows each mention as @Display Name', () => {
    expect(displayText(stored)).toBe('Hi @Ada Lovelace there')
    expect(displayText('[not](a mention)')).toBe('[not](a mention)')
  })

  it('keeps the markup of a mention when text is typed around it', () => {
    expect(editDisplayed(stored, 'Hi @Ada Lovelace there!', 23)).toEqual({
      text: `${stored}!`,
      caret: 23,
    })
    expect(editDisplayed(stored, 'Oh Hi @Ada Lovelace there', 3)).toEqual({
      text: `Oh ${stored}`,
      caret: 3,
    })
    // An '@' typed just before the mention's own '@' is not inside it.
    expect(editDisplayed(stored, 'Hi @@Ada Lovelace there', 4).text).toBe(`Hi @[Ada Lovelace](${ID}) there`)
  })

  it('removes a mention whole when an edit cuts into it', () => {
    expect(editDisplayed(stored, 'Hi @Ada Lovelac there', 15)).toEqual({
      text: 'Hi  there',
      caret: 3,
    })
    expect(editDisplayed(stored, 'Hi @Ada XLovelace there', 9)).toEqual({
      text: 'Hi X there',
      caret: 4,
    })
  })

  it('inserts stored text in place of a displayed range', () => {
    expect(replaceDisplayed(stored, 17, 22, `[Adam Smith](${ID})`)).toEqual({
      text: `Hi [Ada Lovelace](${ID}) [Adam Smith](${ID})`,
      caret: 28,
    })
    expect(inMention(stored, 3)).toBe(true)
    expect(inMention(stored, 2)).toBe(false)
    expect(inMention(stored, 16)).toBe(false)
  })
})
