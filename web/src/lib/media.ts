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

/** Viewable is how the file viewer shows a file itself. */
export type Viewable = 'image' | 'pdf' | 'audio' | 'video'

/**
 * viewableInline says whether the file viewer shows a file itself rather
 * than offering a download, and how. No blob is framed: a PDF is served as
 * an attachment under a sandboxing policy (a sandboxed frame would show
 * nothing), so the viewer renders its bytes with pdf.js; images, audio and
 * video are served inline for <img>, <audio> and <video>. The types are
 * the ones the server serves as is (a sniffed type: internal/adapters/blob)
 * that Chromium, Firefox and Safari decode; a file a browser still cannot
 * play ends in the viewer's error state, with its download.
 */
export function viewableInline(mediaType: string): Viewable | undefined {
  const t = mediaType.toLowerCase().split(';')[0]!.trim()
  if (/^image\/(png|jpe?g|gif|webp|avif|bmp)$/.test(t)) return 'image'
  if (t === 'application/pdf') return 'pdf'
  if (/^audio\/(mpeg|mp3|wave?|x-wav|ogg|webm|aac|mp4|flac)$/.test(t)) return 'audio'
  if (/^video\/(mp4|webm|ogg)$/.test(t)) return 'video'
  return undefined
}

/** OfficeKind is the kind of an office document, read from its name's extension. */
export type OfficeKind = 'document' | 'spreadsheet' | 'presentation'

const OFFICE_EXTENSIONS: Record<string, OfficeKind> = {
  doc: 'document', docx: 'document', odt: 'document', rtf: 'document',
  xls: 'spreadsheet', xlsx: 'spreadsheet', ods: 'spreadsheet',
  ppt: 'presentation', pptx: 'presentation', odp: 'presentation',
}

/**
 * officeKind is the kind of an office document named name, or undefined.
 * The server serves these as what their bytes are (a zip, or the legacy
 * OLE container), so the name tells them apart; the viewer only names them,
 * as no browser renders them.
 */
export function officeKind(name: string): OfficeKind | undefined {
  const ext = name.toLowerCase().match(/\.([a-z]+)$/)?.[1]
  return ext ? OFFICE_EXTENSIONS[ext] : undefined
}

/** formatFileSize is a size in bytes as people read it: 980 B, 12.4 KB, 3.1 MB. */
export function formatFileSize(bytes: number): string {
  const units = ['B', 'KB', 'MB', 'GB']
  let n = bytes
  let u = 0
  while (n >= 1024 && u < units.length - 1) {
    n /= 1024
    u++
  }
  return `${u === 0 ? n : new Intl.NumberFormat('en', { maximumFractionDigits: 1 }).format(n)} ${units[u]}`
}

/** PDF_ZOOM is the PDF viewer's zoom: 1 (the page fits the width) to 3, in steps of 0.2 (spec 000 limits). */
export const PDF_ZOOM = { min: 1, max: 3, step: 0.2 } as const

/** stepZoom is zoom moved by steps of PDF_ZOOM.step, kept within its bounds and rounded to a step. */
export function stepZoom(zoom: number, steps: number): number {
  const next = Math.round((zoom + steps * PDF_ZOOM.step) * 10) / 10
  return Math.min(PDF_ZOOM.max, Math.max(PDF_ZOOM.min, next))
}

/** pageInput is a typed page number when it is a whole number from 1 to count, else undefined (spec 000: the input is then cleared). */
export function pageInput(value: string, count: number): number | undefined {
  if (!/^\d+$/.test(value.trim())) return undefined
  const n = Number(value)
  return n >= 1 && n <= count ? n : undefined
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
