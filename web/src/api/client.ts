import createClient, { type Middleware } from 'openapi-fetch'
import { persistedStore } from '@/lib/persisted-store'
import type { components, paths } from './schema'

/** The API's schemas, generated from httpapi/openapi/openapi.yaml. */
export type Schemas = components['schemas']
export type User = Schemas['User']
export type Role = Schemas['Role']
export type ErrorBody = Schemas['Error']

/** ApiError is a non-2xx answer of the API, with its catalogue code. */
export class ApiError extends Error {
  readonly status: number
  readonly code: string
  readonly details?: Schemas['ErrorDetails']
  constructor(status: number, body?: Partial<ErrorBody>) {
    super(body?.message || `HTTP ${status}`)
    this.name = 'ApiError'
    this.status = status
    this.code = body?.code ?? 'httpError'
    this.details = body?.details
  }
}

export const isApiError = (e: unknown): e is ApiError => e instanceof ApiError

// The token lives in localStorage under user_token (spec 000 §4). The API
// client reads it for every request, so a sign-in in another tab is used too.
export const TOKEN_KEY = 'user_token'
/** tokenStore is the kept session token; null (none kept) removes it. */
export const tokenStore = persistedStore<string | null>(TOKEN_KEY, { fallback: null, parse: (raw) => raw, format: (t) => t })
/** readToken is the kept session token, or null. */
export const readToken = tokenStore.get

type UnauthorizedHandler = (token: string) => void
let onUnauthorized: UnauthorizedHandler = () => {}

/** setUnauthorizedHandler is called by the session with what a 401 does. */
export function setUnauthorizedHandler(h: UnauthorizedHandler) {
  onUnauthorized = h
}

const auth: Middleware = {
  onRequest({ request }) {
    const token = readToken()
    if (token && !request.headers.has('Authorization')) request.headers.set('Authorization', `Bearer ${token}`)
    return request
  },
  onResponse({ request, response }) {
    // A 401 to a request that carried our token means the session is over
    // (expired or revoked). A 401 without a token (a wrong password) is not.
    const sent = request.headers.get('Authorization')?.replace(/^Bearer /, '')
    if (response.status === 401 && sent) onUnauthorized(sent)
    return response
  },
}

export const api = createClient<paths>({
  baseUrl: typeof window === 'undefined' ? '' : window.location.origin,
  // Looked up per call (not captured once), so tests can stub fetch.
  fetch: (request) => globalThis.fetch(request),
})
api.use(auth)

/**
 * unwrap turns an openapi-fetch result into its data, or throws ApiError.
 * Every fetcher in features/<f>/api goes through it.
 */
export function unwrap<T>(result: { data?: T; error?: unknown; response: Response }): T {
  if (result.error !== undefined || !result.response.ok) {
    throw new ApiError(result.response.status, result.error as Partial<ErrorBody> | undefined)
  }
  return result.data as T
}
