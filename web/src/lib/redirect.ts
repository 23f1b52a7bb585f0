/**
 * safeRedirect keeps a redirect target only when it is a path of this site
 * ("/home", not "//evil.example" or "https://…"), so a link cannot send a
 * person elsewhere after sign-in. Browsers drop tabs and newlines from a URL
 * and read a backslash as a slash ("/\t/evil.example" is "//evil.example"),
 * so a target with a control character, white space or a backslash is
 * dropped whole. The server's rule (command/sso appPath) is the same.
 */
export function safeRedirect(target: unknown): string | undefined {
  if (typeof target !== 'string' || !target.startsWith('/') || target.startsWith('//') || target.length > 2048)
    return undefined
  if (/[\\\u0000-\u001f\u007f-\u009f\s]/u.test(target)) return undefined
  return target
}

export const HOME_PATH = '/home'

/** Auth pages: signing out there adds no redirect (spec 000 §2.1). */
export const AUTH_PAGES = ['/login', '/change-password', '/register', '/registration', '/forgot-password', '/reset-password']

export const isAuthPage = (pathname: string) => AUTH_PAGES.some((p) => pathname === p || pathname.startsWith(p + '/'))
