import { afterEach, describe, expect, it, vi } from 'vitest'
import { render, screen } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { CrashScreen, isChunkLoadError, reloadForChunkError } from './error-screens'

const reload = vi.fn()

afterEach(() => {
  vi.unstubAllGlobals()
  reload.mockReset()
  sessionStorage.clear()
})

function stubReload() {
  vi.stubGlobal('location', { ...window.location, reload })
}

describe('render crashes and chunk-load failures (spec 000 §8)', () => {
  it('recognises chunk-load errors of Chromium, Firefox and Safari', () => {
    expect(isChunkLoadError(new TypeError('Failed to fetch dynamically imported module: /assets/x.js'))).toBe(true)
    expect(isChunkLoadError(new TypeError('error loading dynamically imported module'))).toBe(true)
    expect(isChunkLoadError(new TypeError('Importing a module script failed.'))).toBe(true)
    expect(isChunkLoadError(new Error('x is undefined'))).toBe(false)
  })

  it('reloads once for a failed chunk, not in a loop', () => {
    stubReload()
    expect(reloadForChunkError()).toBe(true)
    expect(reloadForChunkError()).toBe(false)
    expect(reload).toHaveBeenCalledTimes(1)
  })

  it('offers a reload after a render crash', async () => {
    stubReload()
    render(<CrashScreen error={new Error('boom')} />)
    expect(screen.getByRole('heading', { name: 'Something went wrong' })).toBeInTheDocument()
    expect(reload).not.toHaveBeenCalled()
    await userEvent.click(screen.getByRole('button', { name: 'Reload the page' }))
    expect(reload).toHaveBeenCalledTimes(1)
  })

  it('reloads by itself when the crash is a failed chunk', () => {
    stubReload()
    render(<CrashScreen error={new TypeError('Failed to fetch dynamically imported module')} />)
    expect(reload).toHaveBeenCalledTimes(1)
  })
})
