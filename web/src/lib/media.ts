// What a post's attachments may load (spec 001 §4, §9). Every address the
// feed puts in an href or a src goes through httpUrl, so a javascript: or
// data: address sent by a client (a link preview is kept as the client sent
// it) is never followed; an embedded player's address is built from the
// video's id alone, never from the address the member gave.

/** httpUrl is value as an absolute http(s) address, or undefined. */
export function httpUrl(value: unknown): string | undefined {
  if (typeof value !== 'string' || value.length > 4000) return undefined
  try {
    const u = new URL(value)
    return u.protocol === 'http:' || u.protocol === 'https:' ? u.href : undefined
  } catch {
    return undefined
  }
}

export type Embed = { provider: 'youtube' | 'vimeo' | 'kaltura'; src: string }

const YOUTUBE_ID = /^[A-Za-z0-9_-]{11}$/
const DIGITS = /^\d{1,12}$/
const KALTURA_ENTRY = /^[01]_[A-Za-z0-9]{8}$/

const hostIs = (host: string, ...domains: string[]) => domains.some((d) => host === d || host.endsWith(`.${d}`))

/**
 * embedFor is the player of a YouTube, Vimeo or Kaltura address (the
 * recognised link types: youtube, youtu, vimeo, kaltura), or undefined for
 * any other address or one whose video id cannot be read.
 */
export function embedFor(value: string): Embed | undefined {
  const href = httpUrl(value)
  if (!href) return undefined
  const u = new URL(href)
  const host = u.hostname.toLowerCase()
  const parts = u.pathname.split('/').filter(Boolean)
  if (hostIs(host, 'youtube.com', 'youtube-nocookie.com')) {
    let id = u.searchParams.get('v') ?? undefined
    if (!id && ['embed', 'shorts', 'live', 'v'].includes(parts[0] ?? '')) id = parts[1]
    return id && YOUTUBE_ID.test(id) ? { provider: 'youtube', src: `https://www.youtube-nocookie.com/embed/${id}` } : undefined
  }
  if (hostIs(host, 'youtu.be')) {
    const id = parts[0]
    return id && YOUTUBE_ID.test(id) ? { provider: 'youtube', src: `https://www.youtube-nocookie.com/embed/${id}` } : undefined
  }
  if (hostIs(host, 'vimeo.com')) {
    // vimeo.com/123, vimeo.com/channels/x/123, player.vimeo.com/video/123
    const id = [...parts].reverse().find((p) => DIGITS.test(p))
    return id ? { provider: 'vimeo', src: `https://player.vimeo.com/video/${id}` } : undefined
  }
  if (hostIs(host, 'kaltura.com')) {
    // …/p/{partnerId}/…/uiconf_id/{uiconfId}/…?entry_id={entryId}, or the
    // same as path segments (partner_id/…/uiconf_id/…/entry_id/…).
    const seg = (name: string) => {
      const i = parts.indexOf(name)
      return i >= 0 ? parts[i + 1] : undefined
    }
    const partner = seg('partner_id') ?? seg('p')
    const uiconf = seg('uiconf_id')
    const entry = u.searchParams.get('entry_id') ?? seg('entry_id')
    if (!partner || !uiconf || !entry || !DIGITS.test(partner) || !DIGITS.test(uiconf) || !KALTURA_ENTRY.test(entry)) return undefined
    return {
      provider: 'kaltura',
      src: `https://cdnapisec.kaltura.com/p/${partner}/sp/${partner}00/embedIframeJs/uiconf_id/${uiconf}/partner_id/${partner}?iframeembed=true&entry_id=${entry}`,
    }
  }
  return undefined
}

/**
 * ownBlob is value as a URL of this server's blob store (same origin, under
 * /api/blobs/), or undefined: the only address the file viewer shows. A
 * post's file is an upload of the poster's, but the viewer does not rely on
 * the server alone to never frame a page elsewhere.
 */
export function ownBlob(value: unknown, origin: string = window.location.origin): string | undefined {
  const href = httpUrl(value)
  if (!href) return undefined
  const u = new URL(href)
  return u.origin === origin && u.pathname.startsWith('/api/blobs/') ? href : undefined
}

/**
 * viewableInline says whether the file viewer shows a file itself rather
 * than offering a download: images only. Any other blob, a PDF included,
 * is served as an attachment under a sandboxing policy, so a frame would
 * show nothing (a sandboxed frame blocks the download, and browsers' PDF
 * viewers do not run sandboxed); it is downloaded.
 */
export function viewableInline(mediaType: string): 'image' | undefined {
  const t = mediaType.toLowerCase().split(';')[0]!.trim()
  if (/^image\/(png|jpe?g|gif|webp|avif|bmp)$/.test(t)) return 'image'
  return undefined
}

/** preview fields a link preview may carry, each read only if it is a string. */
export type LinkPreview = { title?: string; description?: string; image?: string; siteName?: string }

export function readPreview(preview: unknown): LinkPreview {
  if (typeof preview !== 'object' || preview === null) return {}
  const p = preview as Record<string, unknown>
  const str = (v: unknown, max: number) => (typeof v === 'string' && v.trim() ? v.trim().slice(0, max) : undefined)
  const images = Array.isArray(p.images) ? p.images : []
  return {
    title: str(p.title, 300),
    description: str(p.description, 1000),
    image: httpUrl(p.image) ?? httpUrl(images[0]),
    siteName: str(p.siteName, 200),
  }
}
