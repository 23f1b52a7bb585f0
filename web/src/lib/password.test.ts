import { describe, expect, it } from 'vitest'
import { isValidEmail, passwordIsValid, passwordRules } from './password'

describe('password rules (spec 002 §5)', () => {
  it('needs 8 to 64 characters without spaces', () => {
    expect(passwordIsValid('1234567')).toBe(false)
    expect(passwordIsValid('12345678')).toBe(true)
    expect(passwordIsValid('a'.repeat(64))).toBe(true)
    expect(passwordIsValid('a'.repeat(65))).toBe(false)
    expect(passwordIsValid('has a space')).toBe(false)
  })
  it('lists each failing rule', () => {
    expect(passwordRules('a b').filter((r) => !r.ok).map((r) => r.key)).toEqual(['minLength', 'noSpaces'])
    expect(passwordRules('').filter((r) => !r.ok).map((r) => r.key)).toEqual(['minLength'])
    expect(passwordIsValid('')).toBe(false)
  })
  it('checks emails', () => {
    expect(isValidEmail(' member@demo.agora ')).toBe(true)
    expect(isValidEmail('not-an-email')).toBe(false)
    expect(isValidEmail('a@b')).toBe(false)
  })
})
