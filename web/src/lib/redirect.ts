/**
 * safeRedirect keeps a redirect target only when it is a path of this site
 * ("/home", not "//evil.example" or "https://…"), so a link cannot send a
 * person elsewhere after sign-in.
 */
export function safeRedirect(target: unknown): string | undefined {
  if (typeof target !== 'string' || !target.startsWith('/') || target.startsWith('//') || target.startsWith('/\\'))
    return undefined
  return target
}

export const HOME_PATH = '/home'

/** Auth pages: signing out there adds no redirect (spec 000 §2.1). */
export const AUTH_PAGES = ['/login', '/change-password', '/register', '/registration', '/forgot-password', '/reset-password']

export const isAuthPage = (pathname: string) => AUTH_PAGES.some((p) => pathname === p || pathname.startsWith(p + '/'))
