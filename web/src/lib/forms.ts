// Checks the forms of several features share; the server checks again.

/** isHttpUrl is an absolute http(s) URL with a host. */
export function isHttpUrl(s: string) {
  try {
    const u = new URL(s)
    return (u.protocol === 'http:' || u.protocol === 'https:') && !!u.hostname
  } catch {
    return false
  }
}

// A picture's lasting address (the server's picture.PathPrefix and an
// upload id): what an uploaded image is stored as, and read back.
const PICTURE = /^\/api\/pictures\/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i

/**
 * isImageAddress is what an image field may hold: an http(s) URL (an
 * upload's read URL, or an image elsewhere), or the /api/pictures/{id}
 * address the server keeps an uploaded image at, which an edit form sends
 * back unchanged.
 */
export const isImageAddress = (s: string) => isHttpUrl(s) || PICTURE.test(s)

// A simple address check, as the server's: something@something.tld.
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/

/** isEmail is a plausible email address. */
export const isEmail = (s: string) => EMAIL.test(s)

// Images (a community's, an organization's): spec 000 §5, §9.
export const IMAGE_MAX_BYTES = 3_000_000
export const IMAGE_TYPES = ['image/jpeg', 'image/png', 'image/gif', 'image/webp']

/** imageFileError checks an image before it is uploaded: its type and size. */
export function imageFileError(f: Pick<File, 'type' | 'size'>): 'imageType' | 'imageSize' | undefined {
  if (!IMAGE_TYPES.includes(f.type)) return 'imageType'
  if (f.size > IMAGE_MAX_BYTES) return 'imageSize'
  return undefined
}
