import { useSyncExternalStore } from 'react'
import type { QueryClient } from '@tanstack/react-query'
import { api, ApiError, readToken, setUnauthorizedHandler, tokenStore, unwrap, type Role, type User } from '@/api/client'
import { turnOffPush } from './push'

// The session (spec 000 §4, 002 §4): on start the stored token is checked
// (GET /api/tokens/decode) before anything renders; a 401 from any call
// signs out; signing out resets all state except UI, routing and language
// settings (theme and language live outside the session and the query cache).

export type SessionState =
  | { status: 'checking' }
  | { status: 'guest' }
  | { status: 'user'; user: User; role: Role; token: string }

export type SignedOutEvent = { reason: 'signOut' | 'expired'; message?: string }

export class Session {
  private state: SessionState = { status: 'checking' }
  private listeners = new Set<() => void>()
  private queryClient: QueryClient
  private signedOutHandler: (e: SignedOutEvent) => void = () => {}
  private signingOut = false
  /** expiredAtBoot: the stored token was refused by the start-up check. */
  expiredAtBoot = false

  constructor(queryClient: QueryClient) {
    this.queryClient = queryClient
    setUnauthorizedHandler((token) => {
      // Only the current session's 401 counts; a late answer to an old
      // token must not sign out the session that replaced it.
      if (!this.signingOut && this.state.status === 'user' && this.state.token === token) this.end({ reason: 'expired' })
    })
  }

  get = () => this.state
  get user() {
    return this.state.status === 'user' ? this.state.user : undefined
  }
  get isAuthenticated() {
    return this.state.status === 'user'
  }
  /** tokenPending: a stored token is being checked at start-up (boot). */
  get tokenPending() {
    return this.state.status === 'checking' && readToken() !== null
  }

  subscribe = (l: () => void) => {
    this.listeners.add(l)
    return () => {
      this.listeners.delete(l)
    }
  }

  private set(s: SessionState) {
    this.state = s
    this.listeners.forEach((l) => l())
  }

  /** onSignedOut sets what happens after the session ends (navigation, message). */
  onSignedOut(h: (e: SignedOutEvent) => void) {
    this.signedOutHandler = h
  }

  /**
   * boot checks the stored token. A rejected token signs out quietly; a
   * server that cannot be reached throws, and the app offers a retry.
   */
  async boot(): Promise<void> {
    const token = readToken()
    if (!token) return this.set({ status: 'guest' })
    try {
      const d = unwrap(await api.GET('/api/tokens/decode', { headers: { Authorization: `Bearer ${token}` } }))
      this.set({ status: 'user', user: d.user, role: d.role, token })
    } catch (e) {
      if (e instanceof ApiError && e.status === 401) {
        tokenStore.set(null)
        // What the page's preload read with the refused token goes too.
        this.queryClient.clear()
        this.expiredAtBoot = true
        return this.set({ status: 'guest' })
      }
      throw e
    }
  }

  /** signedIn keeps a new session (from sign-in or registration). */
  signedIn(body: { accessToken: string; user: User; role: Role }) {
    tokenStore.set(body.accessToken)
    this.queryClient.clear()
    this.set({ status: 'user', user: body.user, role: body.role, token: body.accessToken })
  }

  /** updateUser replaces the signed-in user's fields (after PATCH /users/me). */
  updateUser(user: User) {
    if (this.state.status === 'user') this.set({ ...this.state, user })
  }

  /** signOut revokes the session on the server, then ends it here. */
  async signOut() {
    if (this.state.status === 'user') {
      // Errors are only logged: the local session ends either way.
      this.signingOut = true
      // This browser stops receiving the member's push notifications
      // first, while the session can still say whose they are.
      await turnOffPush()
      await api.DELETE('/api/sessions/current').catch((e) => console.warn('sign-out', e))
      this.signingOut = false
    }
    this.end({ reason: 'signOut' })
  }

  private end(e: SignedOutEvent) {
    tokenStore.set(null)
    this.queryClient.cancelQueries().catch(() => {})
    this.queryClient.clear()
    this.set({ status: 'guest' })
    this.signedOutHandler(e)
  }
}

export function useSession(session: Session): SessionState {
  return useSyncExternalStore(session.subscribe, session.get, session.get)
}
