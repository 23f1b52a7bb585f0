import { useSyncExternalStore } from 'react'

// The values this browser keeps across reloads (localStorage): the
// session's token, the panel, the theme, a Meet Up's camera settings,
// drafts. Storage can throw at any time (disabled, full, a private
// window's quota), so every read and write here is guarded: a read that
// fails is the default, a write that fails says so and changes nothing.
// Beside memoryStore, which keeps a value for the page's lifetime only.

/** readStored is the text kept under key, or null (none, or storage unavailable). */
export function readStored(key: string, storage: () => Storage = () => localStorage): string | null {
  try {
    return storage().getItem(key)
  } catch {
    return null
  }
}

/** writeStored keeps text under key (null removes it); it says whether storage took it. */
export function writeStored(key: string, text: string | null, storage: () => Storage = () => localStorage): boolean {
  try {
    if (text === null) storage().removeItem(key)
    else storage().setItem(key, text)
    return true
  } catch {
    return false
  }
}

export type PersistedOptions<T> = {
  /** fallback is the value when nothing valid is kept. */
  fallback: T
  /** parse reads the kept text; undefined (or a throw) means it is not valid, and fallback is used. */
  parse: (raw: string) => T | undefined
  /** format is the text kept for a value; null removes the key. String(value) unless given. */
  format?: (value: T) => string | null
  /** storage is where the value is kept: localStorage unless given. */
  storage?: () => Storage
}

/** PersistedStore is one value kept under one key, which components may follow. */
export type PersistedStore<T> = {
  readonly key: string
  /** get is the kept value, or the fallback; the same object while the kept text is unchanged. */
  get(): T
  /** set keeps value and tells the followers; false when storage refused it (the kept value is then unchanged). */
  set(value: T): boolean
  /** subscribe is told after each set on this store. */
  subscribe(listener: () => void): () => void
  /** use is the value, followed (a React hook). */
  use(): T
}

/**
 * persistedStore keeps a typed value under key in the browser's storage,
 * in the text format the key has always had (a user's kept value must
 * read the same after an upgrade).
 */
export function persistedStore<T>(key: string, opts: PersistedOptions<T>): PersistedStore<T> {
  const { fallback, parse, format = String, storage } = opts
  const listeners = new Set<() => void>()
  // The parsed value of the last text read: useSyncExternalStore needs
  // the same object for the same kept text.
  let cached: { raw: string | null; value: T } | undefined
  const get = (): T => {
    const raw = readStored(key, storage)
    if (cached && cached.raw === raw) return cached.value
    let value = fallback
    if (raw !== null) {
      try {
        value = parse(raw) ?? fallback
      } catch {
        // A value that does not parse falls back to the default.
      }
    }
    cached = { raw, value }
    return value
  }
  const subscribe = (l: () => void) => {
    listeners.add(l)
    return () => {
      listeners.delete(l)
    }
  }
  return {
    key,
    get,
    set(value: T) {
      const ok = writeStored(key, format(value), storage)
      listeners.forEach((l) => l())
      return ok
    },
    subscribe,
    use: () => useSyncExternalStore(subscribe, get, get),
  }
}

/** oneOf is a parse that accepts the kept text when it is one of values. */
export function oneOf<const V extends string>(values: readonly V[]): (raw: string) => V | undefined {
  return (raw) => (values as readonly string[]).includes(raw) ? (raw as V) : undefined
}
