import { useEffect, useRef, type RefObject } from 'react'

/** SCROLL_EDGE_PX and SCROLL_DEBOUNCE_MS: load the next page within 100 px of the end, at most once a second (spec 001 §9). */
export const SCROLL_EDGE_PX = 100
export const SCROLL_DEBOUNCE_MS = 1_000

/**
 * useScrollLoad calls load when the end marker comes within 100 px of the
 * bottom of the viewport, on scroll or resize and after each page (a short
 * page leaves the marker in view). A call is made at most once a second,
 * and only when `enabled` (there is a next page and none is loading).
 */
export function useScrollLoad(marker: RefObject<HTMLElement | null>, load: () => void, enabled: boolean, pages: number) {
  const last = useRef(0)
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined)
  const state = useRef({ load, enabled })
  useEffect(() => {
    state.current = { load, enabled }
  })
  useEffect(() => {
    const check = () => {
      const el = marker.current
      if (!el || !state.current.enabled) return
      if (el.getBoundingClientRect().top - window.innerHeight > SCROLL_EDGE_PX) return
      const wait = last.current + SCROLL_DEBOUNCE_MS - Date.now()
      if (wait > 0) {
        clearTimeout(timer.current)
        timer.current = setTimeout(check, wait)
        return
      }
      last.current = Date.now()
      state.current.load()
    }
    check()
    // Capture: the page may scroll in an element rather than the window.
    window.addEventListener('scroll', check, { passive: true, capture: true })
    window.addEventListener('resize', check, { passive: true })
    return () => {
      window.removeEventListener('scroll', check, { capture: true })
      window.removeEventListener('resize', check)
      clearTimeout(timer.current)
    }
  }, [marker, enabled, pages])
}
