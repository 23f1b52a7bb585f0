import { act, renderHook } from '@testing-library/react'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { oneOf, persistedStore, readStored, writeStored } from './persisted-store'

afterEach(() => {
  vi.restoreAllMocks()
})

const refuse = (method: 'getItem' | 'setItem' | 'removeItem') =>
  vi.spyOn(Storage.prototype, method).mockImplementation(() => {
    throw new DOMException('full', 'QuotaExceededError')
  })

describe('persistedStore', () => {
  it('reads what is kept under its key in the format it was written, and the fallback when nothing is', () => {
    const theme = persistedStore('test.theme', { fallback: 'system', parse: oneOf(['light', 'dark']) })
    expect(theme.get()).toBe('system')
    localStorage.setItem('test.theme', 'dark')
    expect(theme.get()).toBe('dark')
    expect(theme.set('light')).toBe(true)
    expect(localStorage.getItem('test.theme')).toBe('light')
  })

  it('falls back on a kept value that does not parse or is not valid', () => {
    const panel = persistedStore<{ open: boolean }>('test.panel', {
      fallback: { open: false },
      parse: (raw) => ({ open: false, ...(JSON.parse(raw) as { open?: boolean }) }),
      format: JSON.stringify,
    })
    localStorage.setItem('test.panel', '{not json')
    expect(panel.get()).toEqual({ open: false })
    const period = persistedStore('test.period', { fallback: 90, parse: (raw) => ([30, 60, 90].includes(Number(raw)) ? Number(raw) : undefined) })
    localStorage.setItem('test.period', '45')
    expect(period.get()).toBe(90)
  })

  it('gives the same object while the kept text is unchanged, a new one when it changes', () => {
    const panel = persistedStore('test.panel', { fallback: { open: false }, parse: (raw) => JSON.parse(raw) as { open: boolean }, format: JSON.stringify })
    panel.set({ open: true })
    const a = panel.get()
    expect(panel.get()).toBe(a)
    localStorage.setItem('test.panel', '{"open":false}')
    expect(panel.get()).not.toBe(a)
    expect(panel.get()).toEqual({ open: false })
  })

  it('removes the key when format gives null', () => {
    const draft = persistedStore('test.draft', { fallback: '', parse: (raw) => raw, format: (t) => (t.trim() ? t : null) })
    draft.set('hello')
    expect(localStorage.getItem('test.draft')).toBe('hello')
    draft.set('  ')
    expect(localStorage.getItem('test.draft')).toBeNull()
    expect(draft.get()).toBe('')
  })

  it('is the fallback when storage cannot be read, and says a refused write changed nothing', () => {
    const mirror = persistedStore('test.mirror', { fallback: true, parse: (raw) => raw !== 'false' })
    mirror.set(false)
    refuse('setItem')
    expect(mirror.set(true)).toBe(false)
    expect(mirror.get()).toBe(false)
    refuse('getItem')
    expect(mirror.get()).toBe(true)
  })

  it('tells its followers of each set, and a component re-renders with the new value', () => {
    const theme = persistedStore('test.theme', { fallback: 'system', parse: oneOf(['light', 'dark', 'system']) })
    const heard = vi.fn()
    const off = theme.subscribe(heard)
    const { result } = renderHook(() => theme.use())
    expect(result.current).toBe('system')
    act(() => void theme.set('dark'))
    expect(result.current).toBe('dark')
    expect(heard).toHaveBeenCalledTimes(1)
    off()
    theme.set('light')
    expect(heard).toHaveBeenCalledTimes(1)
  })

  it('keeps in the storage it is given', () => {
    const s = persistedStore('test.at', { fallback: 0, parse: Number, storage: () => sessionStorage })
    s.set(5)
    expect(sessionStorage.getItem('test.at')).toBe('5')
    expect(localStorage.getItem('test.at')).toBeNull()
    sessionStorage.clear()
  })
})

describe('readStored and writeStored', () => {
  it('read and write text, null removing it', () => {
    expect(writeStored('test.k', 'v')).toBe(true)
    expect(readStored('test.k')).toBe('v')
    expect(writeStored('test.k', null)).toBe(true)
    expect(readStored('test.k')).toBeNull()
  })

  it('never throw: an unreadable storage is nothing kept, a refused write is false', () => {
    refuse('getItem')
    refuse('setItem')
    refuse('removeItem')
    expect(readStored('test.k')).toBeNull()
    expect(writeStored('test.k', 'v')).toBe(false)
    expect(writeStored('test.k', null)).toBe(false)
  })
})
