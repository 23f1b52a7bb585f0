import type { Query } from '@tanstack/react-query'
import { useEffect, useRef } from 'react'
import { api, isApiError, unwrap } from '@/api/client'
import { HUB_EVENTS, payloadOf, type HubMessage } from '@/api/hub-events'
import { IdleDetector } from './idle'
import { useCurrentUser } from './session-context'

// The client of the live-event hub, GET /api/hub (spec 000 §7): one
// WebSocket per signed-in session, reconnected with capped exponential
// backoff and jitter, and messages routed to listeners by contextKey
// (`series:<id>`, `user:<id>`…). The server decides what a member may
// receive; "subscribing" is choosing which contextKeys to listen to. The
// client sends only its presence: the first message of each connection
// (presence.settings) gives the away time, and the tab then reports idle
// or active as its IdleDetector sees it (spec 002 §4). Events sent while
// no connection is registered are lost: those while the page loads, before
// the first connection, as well as those while one is down. So listeners
// are told each time a connection goes live (onLive), to read again what
// they read before it.

export type { HubMessage }
export type HubListener = (m: HubMessage) => void

/** The server's close codes: 4401 is a session that ended (do not retry). */
const CLOSE_SIGNED_OUT = 4401
const BACKOFF_MIN_MS = 1_000
const BACKOFF_MAX_MS = 30_000

/** backoffDelay is the wait before reconnect attempt n (0-based), with up to 20% jitter. */
export function backoffDelay(attempt: number, random: () => number = Math.random): number {
  const base = Math.min(BACKOFF_MAX_MS, BACKOFF_MIN_MS * 2 ** attempt)
  return Math.round(base * (0.8 + 0.2 * random()))
}

/** SocketLike is the part of WebSocket the hub uses (a test gives its own). */
export type SocketLike = {
  onopen: ((ev: unknown) => void) | null
  onmessage: ((ev: { data: unknown }) => void) | null
  onclose: ((ev: { code: number }) => void) | null
  close(code?: number): void
  send?(data: string): void
}

/** IdleLike is the part of IdleDetector the hub uses. */
export type IdleLike = { readonly isIdle: boolean; setAwayAfter(ms: number): void; stop(): void }

export type HubOptions = {
  /** url is the address of one connection: a ticket opens the hub once, so each connection asks anew. */
  url: () => Promise<string>
  connect?: (url: string) => SocketLike
  setTimer?: (fn: () => void, ms: number) => unknown
  clearTimer?: (t: unknown) => void
  /** idle makes the tab's idle detector once the away time is known. */
  idle?: (awayAfter: number, onChange: (idle: boolean) => void) => IdleLike
}

export class Hub {
  private socket?: SocketLike
  private listeners = new Map<string, Set<HubListener>>()
  private liveListeners = new Set<(since: number) => void>()
  private attempt = 0
  private timer: unknown
  private closed = false
  private connecting = false
  private detector?: IdleLike
  /** sendable is whether this.socket is open (a connecting one cannot send). */
  private sendable = false
  private readonly opts: Required<HubOptions>

  constructor(opts: HubOptions) {
    this.opts = {
      connect: (url) => new WebSocket(url) as unknown as SocketLike,
      setTimer: (fn, ms) => setTimeout(fn, ms),
      clearTimer: (t) => clearTimeout(t as ReturnType<typeof setTimeout>),
      idle: (awayAfter, onChange) => new IdleDetector(awayAfter, onChange),
      ...opts,
    }
  }

  /** start opens the connection (once). */
  start() {
    if (this.socket || this.closed || this.timer !== undefined || this.connecting) return
    this.open()
  }

  private open() {
    this.timer = undefined
    this.connecting = true
    this.opts.url().then(
      (url) => {
        this.connecting = false
        if (!this.closed) this.connect(url)
      },
      (e: unknown) => {
        this.connecting = false
        // A 401 is a session that is over (the API client signs out);
        // anything else (the network, a restarting node) is tried again.
        if (this.closed || (isApiError(e) && e.status === 401)) return
        this.retry()
      },
    )
  }

  private retry() {
    this.timer = this.opts.setTimer(() => this.open(), backoffDelay(this.attempt++))
  }

  private connect(url: string) {
    const s = this.opts.connect(url)
    this.socket = s
    s.onopen = () => {
      if (this.socket === s) this.sendable = true
      this.attempt = 0
    }
    s.onmessage = (ev) => this.dispatch(ev.data)
    s.onclose = (ev) => {
      if (this.socket !== s) return
      this.socket = undefined
      this.sendable = false
      if (this.closed || ev.code === CLOSE_SIGNED_OUT) return
      this.retry()
    }
  }

  /**
   * dispatch hands each message of a frame to its listeners. A frame holds
   * one message or several, one per line: a busy server writes the
   * messages queued for a connection at once (live.Frame).
   */
  private dispatch(data: unknown) {
    if (typeof data !== 'string') return
    for (const line of data.split('\n')) this.dispatchOne(line)
  }

  private dispatchOne(data: string) {
    let m: HubMessage
    try {
      m = JSON.parse(data) as HubMessage
    } catch {
      return
    }
    if (!m || typeof m.contextKey !== 'string' || typeof m.event !== 'string') return
    if (m.event === HUB_EVENTS.presenceSettings) {
      // The server registers a connection before its first message: from
      // now on no event is missed.
      const since = Date.now()
      this.liveListeners.forEach((l) => l(since))
      this.presenceSettings(m)
    }
    for (const key of [m.contextKey, '*']) this.listeners.get(key)?.forEach((l) => l(m))
  }

  /**
   * presenceSettings starts the idle detector with the server's away time,
   * and, as the server counts a new connection active, tells it at once
   * when the tab is idle already (a reconnection).
   */
  private presenceSettings(m: HubMessage) {
    const awayAfter = payloadOf(m, HUB_EVENTS.presenceSettings)?.awayAfter
    if (typeof awayAfter !== 'number' || !(awayAfter > 0) || this.closed) return
    if (this.detector) this.detector.setAwayAfter(awayAfter)
    else this.detector = this.opts.idle(awayAfter, (idle) => this.report(idle))
    if (this.detector.isIdle) this.report(true)
  }

  private report(idle: boolean) {
    if (this.sendable) this.socket?.send?.(JSON.stringify({ type: 'presence', state: idle ? 'idle' : 'active' }))
  }

  /** subscribe listens to the events of contextKey ('*' for all). */
  subscribe(contextKey: string, l: HubListener): () => void {
    let set = this.listeners.get(contextKey)
    if (!set) this.listeners.set(contextKey, (set = new Set()))
    set.add(l)
    return () => {
      set.delete(l)
      if (set.size === 0) this.listeners.delete(contextKey)
    }
  }

  /** onLive is told the time each connection goes live: what was read before it may have missed events. */
  onLive(l: (since: number) => void): () => void {
    this.liveListeners.add(l)
    return () => this.liveListeners.delete(l)
  }

  /** close ends the connection for good. */
  close() {
    this.closed = true
    this.detector?.stop()
    this.detector = undefined
    if (this.timer !== undefined) this.opts.clearTimer(this.timer)
    this.timer = undefined
    const s = this.socket
    this.socket = undefined
    this.sendable = false
    s?.close(1000)
  }
}

/** hubUrl is the hub's address for a ticket, on this page's host. */
export function hubUrl(ticket: string, location: Pick<Location, 'protocol' | 'host'> = window.location) {
  const scheme = location.protocol === 'https:' ? 'wss:' : 'ws:'
  return `${scheme}//${location.host}/api/hub?ticket=${encodeURIComponent(ticket)}`
}

/**
 * ticketUrl asks for a ticket of the session of token and returns the hub's
 * address with it. A browser WebSocket cannot send an Authorization header,
 * and the session token itself must not ride in a URL (access logs keep
 * URLs): a ticket opens one connection, within seconds, and is then worth
 * nothing.
 */
async function ticketUrl(token: string) {
  const t = unwrap(await api.POST('/api/hub/tickets', { headers: { Authorization: `Bearer ${token}` } }))
  return hubUrl(t.ticket)
}

let current: { token: string; hub: Hub } | undefined

/** hubFor is the session's hub; a new token (another sign-in) closes the old one. */
export function hubFor(token: string): Hub {
  if (current?.token === token) return current.hub
  current?.hub.close()
  const hub = new Hub({ url: () => ticketUrl(token) })
  current = { token, hub }
  hub.start()
  return hub
}

/** Missed tells the queries that may have missed events: pass it as invalidateQueries' predicate. */
export type Missed = (q: Query) => boolean

/**
 * missedBefore is Missed for a connection live since then: a query read
 * before, or being read then, may lack what happened in between; one read
 * after lacks nothing, and is not read again.
 */
export const missedBefore =
  (since: number): Missed =>
  (q) =>
    q.state.dataUpdatedAt < since || q.state.fetchStatus === 'fetching'

/**
 * useHubEvents calls onMessage with the hub's events of contextKey, and
 * onLive each time a connection goes live, for as long as the component is
 * mounted and a member is signed in. onLive reads again the queries it is
 * given that may have missed events: those the page read while it
 * loaded, or while the connection was down.
 */
export function useHubEvents(contextKey: string | undefined, onMessage: HubListener, onLive?: (missed: Missed) => void) {
  const token = useCurrentUser()?.token
  const handlers = useRef({ onMessage, onLive })
  useEffect(() => {
    handlers.current = { onMessage, onLive }
  })
  useEffect(() => {
    if (!token || !contextKey) return
    const hub = hubFor(token)
    const off = hub.subscribe(contextKey, (m) => handlers.current.onMessage(m))
    const offLive = hub.onLive((since) => handlers.current.onLive?.(missedBefore(since)))
    return () => {
      off()
      offLive()
    }
  }, [token, contextKey])
}

/** closeHub ends the session's connection (on sign-out). */
export function closeHub() {
  current?.hub.close()
  current = undefined
}
