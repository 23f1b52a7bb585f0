// The composer's own text rules (spec 001 §5 "Posts and comments",
// "Links"): the post limit and what a typed web link is. The rules every
// message editor shares are in @/components/message-editor/text.

/** MAX_POST_TEXT is the longest post, question or comment (spec 001 §9). */
export const MAX_POST_TEXT = 4000

/**
 * normalizeLink reads a typed web link (spec 001 §5 "Links"): trimmed, with
 * https:// added when the scheme is missing. It answers null for anything
 * that is not an http(s) URL with a plausible host, which is what the server
 * accepts as a post's link.
 */
export function normalizeLink(input: string): string | null {
  const s = input.trim()
  if (!s || /\s/.test(s)) return null
  // "localhost:8080/x" has a port, not a scheme.
  const hasScheme = /^[a-z][a-z0-9+.-]*:/i.test(s) && !/^[^:/]+:\d/.test(s)
  const withScheme = hasScheme ? s : `https://${s}`
  let u: URL
  try {
    u = new URL(withScheme)
  } catch {
    return null
  }
  if (u.protocol !== 'http:' && u.protocol !== 'https:') return null
  // A user name in a link is a credential or a disguise
  // (https://bank.example@evil.example/); the server refuses it too.
  if (u.username || u.password) return null
  const host = u.hostname
  // A host needs a dot (example.com, 127.0.0.1), or is localhost or an IPv6 literal.
  if (!host || !(host.includes('.') || host === 'localhost' || host.startsWith('['))) return null
  if (host.startsWith('.') || host.endsWith('.')) return null
  if (u.href.length > 2048) return null
  return u.href
}

// Links the feed plays in place (spec 001 §9 "Recognised link types").
const embeddedHosts = ['youtube', 'youtu', 'vimeo', 'kaltura']

/** viewerTypeOf is 'embedded' for the video sites the feed plays in place, otherwise 'external'. */
export function viewerTypeOf(url: string): 'embedded' | 'external' {
  let host: string
  try {
    host = new URL(url).hostname.toLowerCase()
  } catch {
    return 'external'
  }
  const labels = host.split('.')
  return labels.some((l) => embeddedHosts.includes(l)) ? 'embedded' : 'external'
}
