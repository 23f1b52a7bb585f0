import { act, renderHook } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import { setPeriod, usePeriod } from './use-period'

describe('usePeriod', () => {
  it('reads the period kept under agora.insights.period, 90 days for anything else', () => {
    localStorage.setItem('agora.insights.period', '30')
    const { result } = renderHook(() => usePeriod())
    expect(result.current).toBe(30)
    act(() => setPeriod(60))
    expect(result.current).toBe(60)
    expect(localStorage.getItem('agora.insights.period')).toBe('60')
    localStorage.setItem('agora.insights.period', '45')
    expect(renderHook(() => usePeriod()).result.current).toBe(90)
  })
})
