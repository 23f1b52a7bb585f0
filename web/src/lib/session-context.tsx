import { createContext, useContext } from 'react'
import { useSession as useSessionState, type Session } from './session'

export const SessionContext = createContext<Session | null>(null)

/** useSessionStore is the app's Session (for actions). */
export function useSessionStore(): Session {
  const s = useContext(SessionContext)
  if (!s) throw new Error('SessionContext missing')
  return s
}

/** useCurrentUser is the signed-in user, re-rendering when the session changes. */
export function useCurrentUser() {
  const s = useSessionStore()
  const state = useSessionState(s)
  return state.status === 'user' ? state : undefined
}
