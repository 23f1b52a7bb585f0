import { useEffect, useState } from 'react'

/** useNow is the time, renewed every `everyMs`, for text relative to now. */
export function useNow(everyMs = 15_000): Date {
  const [now, setNow] = useState(() => new Date())
  useEffect(() => {
    const id = setInterval(() => setNow(new Date()), everyMs)
    return () => clearInterval(id)
  }, [everyMs])
  return now
}
