import { oneOf, persistedStore } from './persisted-store'

// The theme is a UI setting: it survives sign-out (spec 002 §4).
export type Theme = 'light' | 'dark' | 'system'
const themeStore = persistedStore<Theme>('agora.theme', { fallback: 'system', parse: oneOf(['light', 'dark']) })

/** getTheme is the kept theme, the system's unless chosen. */
export const getTheme: () => Theme = themeStore.get

/** applyTheme shows the page in theme. */
export function applyTheme(theme: Theme = getTheme()) {
  const dark = theme === 'dark' || (theme === 'system' && window.matchMedia?.('(prefers-color-scheme: dark)').matches)
  document.documentElement.classList.toggle('dark', !!dark)
  document.documentElement.style.colorScheme = dark ? 'dark' : 'light'
}

/** setTheme shows and keeps theme. */
export function setTheme(theme: Theme) {
  applyTheme(theme)
  themeStore.set(theme)
}

/** useTheme is the kept theme, followed. */
export const useTheme: () => Theme = themeStore.use
