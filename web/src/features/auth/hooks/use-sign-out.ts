import { useCallback } from 'react'
import { useSessionStore } from '@/lib/session-context'

/** useSignOut revokes the session; the app then goes to /login (main.tsx). */
export function useSignOut() {
  const session = useSessionStore()
  return useCallback(() => session.signOut(), [session])
}
