import '@testing-library/jest-dom/vitest'
import { afterEach } from 'vitest'
import { cleanup } from '@testing-library/react'
import '@/i18n'
import { clearToasts } from '@/components/ui/toast'

afterEach(() => {
  cleanup()
  clearToasts()
  localStorage.clear()
})

// jsdom lacks scrolling; the router restores scroll positions.
window.scrollTo = () => {}
