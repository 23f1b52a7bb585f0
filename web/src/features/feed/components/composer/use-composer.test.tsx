import type { ReactNode } from 'react'
import { describe, expect, it } from 'vitest'
import { act, renderHook } from '@testing-library/react'
import { QueryClientProvider } from '@tanstack/react-query'
import { makeQueryClient } from '@/lib/query-client'
import { emptyContent, useComposer, type ComposerContent } from './use-composer'

const initial: ComposerContent = { ...emptyContent, raw: 'draft' }

function setup(kind: 'post' | 'question' = 'post') {
  const qc = makeQueryClient()
  const wrapper = ({ children }: { children: ReactNode }) => <QueryClientProvider client={qc}>{children}</QueryClientProvider>
  return renderHook(() => useComposer({ seriesId: 's1', channelId: 'ch1', kind, initial }), { wrapper })
}

describe('useComposer', () => {
  it('is ready only with content, and reset restores the initial content and the author', () => {
    const { result } = setup('question')
    expect(result.current.ready).toBe(true)
    act(() => result.current.edit({ raw: '  ' }))
    expect(result.current.ready).toBe(false)
    act(() => result.current.edit({ link: { url: 'https://example.com' } }))
    expect(result.current.ready).toBe(true)
    expect(result.current.attached).toBe(true)
    act(() => result.current.setCreatorAs('anonymous'))
    act(() => result.current.reset())
    expect(result.current.content).toEqual(initial)
    expect(result.current.creatorAs).toBe('author')
  })

  it('opens a drop zone, and the same button closes it', () => {
    const { result } = setup()
    act(() => result.current.toggleDropZone('image'))
    expect(result.current.dropZone).toBe('image')
    act(() => result.current.toggleDropZone('file'))
    expect(result.current.dropZone).toBe('file')
    act(() => result.current.toggleDropZone('file'))
    expect(result.current.dropZone).toBeNull()
  })
})
