import { createRouter } from '@tanstack/react-router'
import type { QueryClient } from '@tanstack/react-query'
import { routeTree } from '@/routeTree.gen'
import type { Session } from '@/lib/session'
import { CrashScreen, NotFoundPage } from './error-screens'

export function makeRouter(queryClient: QueryClient, session: Session) {
  return createRouter({
    routeTree,
    context: { queryClient, session },
    defaultPreload: 'intent',
    // Loaders only start queries; React Query owns freshness.
    defaultPreloadStaleTime: 0,
    scrollRestoration: true,
    defaultNotFoundComponent: NotFoundPage,
    defaultErrorComponent: ({ error }) => <CrashScreen error={error} />,
  })
}

declare module '@tanstack/react-router' {
  interface Register {
    router: ReturnType<typeof makeRouter>
  }
}
