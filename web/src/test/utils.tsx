import type { ReactNode } from 'react'
import { render } from '@testing-library/react'
import { QueryClientProvider } from '@tanstack/react-query'
import { RouterProvider, createMemoryHistory, createRootRoute, createRouter } from '@tanstack/react-router'
import { vi } from 'vitest'
import { makeQueryClient } from '@/lib/query-client'
import { Session } from '@/lib/session'
import { SessionContext } from '@/lib/session-context'

export const json = (status: number, body?: unknown) =>
  new Response(body === undefined ? null : JSON.stringify(body), {
    status,
    headers: { 'Content-Type': 'application/json' },
  })

/** stubFetch answers each request with respond(method, path, request). */
export function stubFetch(respond: (method: string, path: string, req: Request) => Response | Promise<Response>) {
  const calls: Request[] = []
  vi.stubGlobal(
    'fetch',
    vi.fn(async (req: Request) => {
      calls.push(req)
      const url = new URL(req.url)
      return respond(req.method, url.pathname + url.search, req)
    }),
  )
  return calls
}

/** renderInApp renders ui inside a memory router, the query client and a session. */
export async function renderInApp(ui: ReactNode, { path = '/' } = {}) {
  const queryClient = makeQueryClient()
  const session = new Session(queryClient)
  const rootRoute = createRootRoute({ component: () => <>{ui}</> })
  const router = createRouter({ routeTree: rootRoute, history: createMemoryHistory({ initialEntries: [path] }) })
  const result = render(
    <SessionContext.Provider value={session}>
      <QueryClientProvider client={queryClient}>
        {/* The test's route tree is not the app's registered one. */}
        <RouterProvider router={router as any} />
      </QueryClientProvider>
    </SessionContext.Provider>,
  )
  await router.load()
  return { ...result, router, session, queryClient }
}

/**
 * stubLayout gives every element the client size of a side panel: jsdom lays
 * nothing out, and a virtualised list renders only the rows that fit its
 * scroller. Undone by vi.restoreAllMocks().
 */
export function stubLayout(height = 500, width = 390) {
  vi.spyOn(HTMLElement.prototype, 'clientHeight', 'get').mockReturnValue(height)
  vi.spyOn(HTMLElement.prototype, 'clientWidth', 'get').mockReturnValue(width)
}

/**
 * personalizationServer answers GET and PATCH /api/users/{userId}/personalization
 * as the server does (a PATCH merges its keys into stored), and keeps the
 * PATCHes' bodies; answer gives undefined for any other request.
 */
export function personalizationServer(userId: string, stored: Record<string, unknown> = {}) {
  const patches: Record<string, unknown>[] = []
  const answer = async (method: string, path: string, req: Request): Promise<Response | undefined> => {
    if (path !== `/api/users/${userId}/personalization`) return undefined
    if (method === 'PATCH') {
      const body = (await req.json()) as Record<string, unknown>
      patches.push(body)
      Object.assign(stored, body)
    }
    return json(200, stored)
  }
  return { stored, patches, answer }
}
