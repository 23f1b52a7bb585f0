// How a mention is written in the text of a post, comment or message (spec
// 001 §4 "Reading text", as the server's internal/richtext reads it):
// `[Display Name](userId)` with a canonical UUID. The message editor writes
// it and the feed's reader parses it, so both take it from here.

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i
const NIL_UUID = '00000000-0000-0000-0000-000000000000'

/** mentionAt reads the mention markup that s starts with (its caller has seen the '['), or answers undefined when there is none. */
export function mentionAt(s: string): { display: string; userId: string; length: number } | undefined {
  const end = s.indexOf(']')
  if (end < 2) return undefined
  const display = s.slice(1, end)
  if (display.includes('[') || display.includes('\n')) return undefined
  if (s[end + 1] !== '(') return undefined
  const close = s.indexOf(')', end + 2)
  if (close < 0) return undefined
  const userId = s.slice(end + 2, close)
  if (userId.length !== 36 || !UUID.test(userId) || userId === NIL_UUID) return undefined
  return { display, userId: userId.toLowerCase(), length: close + 1 }
}

/**
 * mentionMarkup is how a mention is written in the text: the display name in
 * brackets, then the user id in parentheses. Brackets, parentheses and line
 * breaks would end the markup early, so they are left out of the name.
 */
export function mentionMarkup(firstName: string, lastName: string, userId: string) {
  const name =
    `${firstName} ${lastName}`
      .replace(/[[\]()\n\r]/g, '')
      .replace(/\s+/g, ' ')
      .trim() || '?'
  return `[${name}](${userId})`
}
