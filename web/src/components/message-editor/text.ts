// The pure text rules of the message editor (spec 001 §4 "Reading text",
// §5 "Posts and comments", "Mentions and hashtags"; spec 002 "Chat"): limits
// counted as the server counts them, the '@' and '#' being typed, and the
// displayed text in which a mention shows as "@Display Name" while its
// markup is kept. They live apart from the component so that they are
// tested without a DOM.
import { mentionAt } from '@/lib/mention-markup'

/** EDITOR_DEFAULT_MAX is the message editor's limit when none is given (spec 001 §9). */
export const EDITOR_DEFAULT_MAX = 400

// The server counts Unicode code points (utf8.RuneCountInString), so the
// editor does too: an emoji is one character, not two UTF-16 units.
export const textLength = (s: string) => Array.from(s).length

/** truncate cuts s to at most max code points. */
export function truncate(s: string, max: number) {
  if (s.length <= max) return s // a UTF-16 length under max is also a code-point length under max
  const points = Array.from(s)
  return points.length <= max ? s : points.slice(0, max).join('')
}

/** editorInput is what the editor keeps of a typed value: leading whitespace trimmed, at most max characters. */
export const editorInput = (s: string, max: number) => truncate(s.replace(/^\s+/u, ''), max)

/** Trigger is an '@' mention or '#' hashtag being typed, from start (the trigger character) to the caret. */
export type Trigger = { kind: 'mention' | 'hashtag'; start: number; end: number; query: string }

// A hashtag is '#' then letters, digits or underscores (internal/richtext);
// a mention query may also hold the characters of names (O'Neil, Jean-Luc).
const tagChar = /[\p{L}\p{Nd}_]/u
const nameChar = /[\p{L}\p{N}_.'-]/u
// A trigger starts a word, as the server's parser requires of hashtags:
// "a#b" and "mail@host" are not triggers.
const wordStart = /[\s([{"']/u

/** findTrigger finds the mention or hashtag being typed just before caret. */
export function findTrigger(text: string, caret: number): Trigger | null {
  let i = caret
  while (i > 0) {
    const c = text[i - 1]!
    if (c === '@' || c === '#') {
      const start = i - 1
      if (start > 0 && !wordStart.test(text[start - 1]!)) return null
      const query = text.slice(i, caret)
      const kind = c === '@' ? 'mention' : 'hashtag'
      const allowed = kind === 'mention' ? nameChar : tagChar
      if (!Array.from(query).every((ch) => allowed.test(ch))) return null
      return { kind, start, end: caret, query }
    }
    if (!nameChar.test(c)) return null
    i--
  }
  return null
}

/**
 * Segment is a piece of the editor's text as the member sees it: plain
 * text, or a mention shown as "@Display Name" whose stored form (the markup
 * sent to the server) is kept apart.
 */
export type Segment = { text: string; markup?: string }

/** toDisplay splits a stored text into what the member sees: each mention's markup becomes "@Display Name". */
export function toDisplay(stored: string): Segment[] {
  const out: Segment[] = []
  let plain = ''
  for (let i = 0; i < stored.length;) {
    const m = stored[i] === '[' ? mentionAt(stored.slice(i)) : undefined
    if (m) {
      if (plain) out.push({ text: plain })
      plain = ''
      out.push({
        text: `@${m.display}`,
        markup: stored.slice(i, i + m.length),
      })
      i += m.length
      continue
    }
    plain += stored[i]
    i++
  }
  if (plain) out.push({ text: plain })
  return out
}

/** displayText is the text the member sees of a stored text. */
export const displayText = (stored: string) =>
  toDisplay(stored)
    .map((s) => s.text)
    .join('')

/**
 * inMention tells whether a position of the displayed text is a character
 * of a mention ("@Name" itself), where no '@' suggestion may start.
 */
export function inMention(stored: string, at: number) {
  let pos = 0
  for (const s of toDisplay(stored)) {
    if (s.markup && at >= pos && at < pos + s.text.length) return true
    pos += s.text.length
  }
  return false
}

/**
 * replaceDisplayed puts insertion (in stored form) in place of the displayed
 * text's [start, end) and answers the stored text and the caret in the
 * displayed one. A mention the range cuts into goes whole: a mention is one
 * piece, like a chip, never a half name pointing at someone.
 */
export function replaceDisplayed(stored: string, start: number, end: number, insertion: string) {
  let before = ''
  let after = ''
  let pos = 0
  for (const s of toDisplay(stored)) {
    const from = pos
    const to = pos + s.text.length
    pos = to
    const piece = s.markup ?? s.text
    if (to <= start) before += piece
    else if (from >= end) after += piece
    else if (!s.markup) {
      before += s.text.slice(0, Math.max(0, start - from))
      after += s.text.slice(Math.max(0, end - from))
    }
    // A mention the range touches inside is left out.
  }
  const head = before + insertion
  return { text: head + after, caret: displayText(head).length }
}

/**
 * editDisplayed turns an edit of the displayed text (the text box's new
 * value and its caret) into the stored text: the change is what lies
 * between the common start and the common end, the end not reaching before
 * the caret, so that typing next to a mention never splits it.
 */
export function editDisplayed(stored: string, next: string, caret: number) {
  const prev = displayText(stored)
  let suffix = 0
  const maxSuffix = Math.min(prev.length, next.length - caret)
  while (suffix < maxSuffix && prev[prev.length - 1 - suffix] === next[next.length - 1 - suffix]) suffix++
  let prefix = 0
  const maxPrefix = Math.min(prev.length, next.length) - suffix
  while (prefix < maxPrefix && prev[prefix] === next[prefix]) prefix++
  return replaceDisplayed(stored, prefix, prev.length - suffix, next.slice(prefix, next.length - suffix))
}

/** matchesPerson tells whether a mention query matches a person's name (a word prefix, case-insensitive). */
export function matchesPerson(query: string, firstName: string, lastName: string) {
  const q = query.toLocaleLowerCase()
  if (!q) return true
  const full = `${firstName} ${lastName}`.toLocaleLowerCase()
  return full.startsWith(q) || full.split(/\s+/).some((w) => w.startsWith(q))
}
