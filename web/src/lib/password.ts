// Password rules (spec 002 §5): 8 to 64 characters, no spaces. Both are
// enforced by the server too; the screens list the failing ones live.
export type PasswordRule = { key: 'minLength' | 'maxLength' | 'noSpaces'; ok: boolean }

export function passwordRules(password: string): PasswordRule[] {
  return [
    { key: 'minLength', ok: password.length >= 8 },
    { key: 'maxLength', ok: password.length <= 64 },
    // An empty password has no spaces: it fails on its length alone.
    { key: 'noSpaces', ok: !/\s/.test(password) },
  ]
}

export const passwordIsValid = (password: string) => passwordRules(password).every((r) => r.ok)

export const isValidEmail = (email: string) => /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(email.trim())
