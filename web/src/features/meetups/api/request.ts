import { api, unwrap } from '@/api/client'

// The AI notes' calls go through the app's API client (its session header
// and its 401 handling) by path: until the OpenAPI document lists them,
// openapi-fetch has no types for these paths. This file is the one place that
// says so, and goes when schema.d.ts is generated with them.

type Init = { params?: { query?: Record<string, unknown> }; body?: unknown; parseAs?: 'text' | 'json'; signal?: AbortSignal }
type Result = Promise<{ data?: unknown; error?: unknown; response: Response }>
type Loose = Record<'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE', (path: string, init?: Init) => Result>
const loose = api as unknown as Loose

/** call sends one Meet Up request and gives its answer, or throws ApiError. */
export async function call<T>(method: keyof Loose, path: string, init?: Init): Promise<T> {
  return unwrap(await loose[method](path, init)) as T
}
