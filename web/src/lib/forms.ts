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

// A simple address check, as the server's: something@something.tld.
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/

/** isEmail is a plausible email address. */
export const isEmail = (s: string) => EMAIL.test(s)
