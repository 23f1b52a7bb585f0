// Reading the text of posts and comments (spec 001 §4 "Reading text"), as
// the server's internal/richtext does: a mention is `[Display Name](userId)`
// with a canonical UUID, a hashtag is `#` then letters, digits or
// underscores at the start of a word, and web addresses are links. The
// result is a list of tokens that components turn into React elements, so
// no text is ever parsed as HTML.

import { mentionAt } from '@/lib/mention-markup'

export type Token =
  | { type: 'text'; text: string }
  | { type: 'link'; text: string; href: string }
  | { type: 'hashtag'; name: string }
  | { type: 'mention'; display: string; userId: string }

/** MAX_HASHTAG_LENGTH bounds a hashtag name, as the server does. */
export const MAX_HASHTAG_LENGTH = 100

const TAG_RUNE = /[\p{L}\p{Nd}_]/u
const SPACE = /\s/u
// A web address: http(s):// or www., up to whitespace or a character that
// cannot be in one unescaped.
const LINK = /^(?:https?:\/\/|www\.)[^\s<>"'`]+/i
// Punctuation that ends a sentence rather than the address.
const TRAILING = /[.,;:!?'")\]}]+$/

function linkAt(s: string): { text: string; href: string } | undefined {
  const m = LINK.exec(s)
  if (!m) return undefined
  let text = m[0]
  // Keep a closing parenthesis that closes one inside the address
  // (Wikipedia's "Foo_(bar)"), drop sentence punctuation after it.
  for (;;) {
    const trimmed = text.replace(TRAILING, '')
    if (trimmed === text) break
    const cut = text.slice(trimmed.length)
    if (cut.startsWith(')') && (trimmed.match(/\(/g)?.length ?? 0) > (trimmed.match(/\)/g)?.length ?? 0)) {
      text = trimmed + ')'
      const rest = cut.slice(1).replace(TRAILING, '')
      if (rest === '') break
      text += rest
      continue
    }
    text = trimmed
    break
  }
  if (/^www\.$/i.test(text) || /^https?:\/\/$/i.test(text)) return undefined
  const href = /^www\./i.test(text) ? `https://${text}` : text
  return { text, href }
}

function startsWord(prev: string): boolean {
  return SPACE.test(prev) || '([{"\''.includes(prev)
}

/** tokenize splits raw into text, links, hashtags and mentions. */
export function tokenize(raw: string): Token[] {
  const out: Token[] = []
  let text = ''
  const flush = () => {
    if (text) out.push({ type: 'text', text })
    text = ''
  }
  const chars = Array.from(raw)
  // Work on code points, so that a hashtag of astral letters stays whole.
  for (let i = 0; i < chars.length; ) {
    const c = chars[i]!
    const prev = i > 0 ? chars[i - 1]! : ''
    if (c === '[') {
      const m = mentionAt(chars.slice(i, i + 2000).join(''))
      if (m) {
        flush()
        out.push({ type: 'mention', display: m.display, userId: m.userId })
        i += Array.from(chars.slice(i, i + 2000).join('').slice(0, m.length)).length
        continue
      }
    } else if (c === '#' && (i === 0 || startsWord(prev))) {
      let j = i + 1
      while (j < chars.length && TAG_RUNE.test(chars[j]!)) j++
      if (j > i + 1) {
        flush()
        out.push({ type: 'hashtag', name: chars.slice(i + 1, Math.min(j, i + 1 + MAX_HASHTAG_LENGTH)).join('') })
        i = j
        continue
      }
    } else if ((c === 'h' || c === 'H' || c === 'w' || c === 'W') && (i === 0 || !/[\p{L}\p{Nd}_]/u.test(prev))) {
      const l = linkAt(chars.slice(i, i + 4000).join(''))
      if (l) {
        flush()
        out.push({ type: 'link', ...l })
        i += Array.from(l.text).length
        continue
      }
    }
    text += c
    i++
  }
  flush()
  return out
}
