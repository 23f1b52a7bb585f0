import { afterEach, describe, expect, it } from 'vitest'
import { getTheme, setTheme } from './theme'

afterEach(() => {
  document.documentElement.classList.remove('dark')
})

describe('the theme (spec 002 §4)', () => {
  it('reads what earlier versions kept under agora.theme, and the system theme for anything else', () => {
    expect(getTheme()).toBe('system')
    localStorage.setItem('agora.theme', 'dark')
    expect(getTheme()).toBe('dark')
    localStorage.setItem('agora.theme', 'sepia')
    expect(getTheme()).toBe('system')
  })

  it('keeps the choice as its plain name and shows it', () => {
    setTheme('dark')
    expect(localStorage.getItem('agora.theme')).toBe('dark')
    expect(document.documentElement.classList.contains('dark')).toBe(true)
    setTheme('light')
    expect(localStorage.getItem('agora.theme')).toBe('light')
    expect(document.documentElement.classList.contains('dark')).toBe(false)
  })
})
