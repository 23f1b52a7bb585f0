import { describe, expect, it } from 'vitest'
import { isAuthPage, safeRedirect } from './redirect'

describe('safeRedirect', () => {
  it('keeps paths of this site only', () => {
    expect(safeRedirect('/communities/1?x=2')).toBe('/communities/1?x=2')
    expect(safeRedirect('//evil.example/x')).toBeUndefined()
    expect(safeRedirect('/\\evil.example')).toBeUndefined()
    expect(safeRedirect('https://evil.example')).toBeUndefined()
    expect(safeRedirect(undefined)).toBeUndefined()
  })
  it('drops a target a browser reads as another site once it strips tabs and newlines', () => {
    for (const t of ['/\t/evil.example', '/\n/evil.example', '/\r\n/evil.example', '/ /evil.example', '/\u00a0/x', '/x\\evil'])
      expect(safeRedirect(t), JSON.stringify(t)).toBeUndefined()
    expect(safeRedirect('/a%2F%2Fb#c')).toBe('/a%2F%2Fb#c')
  })
  it('knows the auth pages that sign-out adds no redirect on', () => {
    expect(isAuthPage('/login')).toBe(true)
    expect(isAuthPage('/registration/error/x')).toBe(true)
    expect(isAuthPage('/change-password')).toBe(true)
    expect(isAuthPage('/home')).toBe(false)
  })
})
