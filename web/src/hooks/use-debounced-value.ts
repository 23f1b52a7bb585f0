import { useEffect, useState } from 'react'

/**
 * useDebouncedValue follows value once it has stayed the same for delay ms:
 * search inputs wait 250 ms before they ask the server (spec 001 §5, §9).
 */
export function useDebouncedValue<T>(value: T, delay = 250): T {
  const [debounced, setDebounced] = useState(value)
  useEffect(() => {
    const t = setTimeout(() => setDebounced(value), delay)
    return () => clearTimeout(t)
  }, [value, delay])
  return debounced
}
