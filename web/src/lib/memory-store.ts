import { useSyncExternalStore } from 'react'

/**
 * memoryStore holds one value for the page's lifetime (not kept across
 * reloads) that components anywhere follow: which conversation the chat
 * shows, whether the panel's sheet is open.
 */
export function memoryStore<T>(initial: T) {
  let value = initial
  const listeners = new Set<() => void>()
  const subscribe = (l: () => void) => {
    listeners.add(l)
    return () => {
      listeners.delete(l)
    }
  }
  const get = () => value
  return {
    get,
    set(next: T) {
      value = next
      listeners.forEach((l) => l())
    },
    use: () => useSyncExternalStore(subscribe, get, get),
  }
}
