import { Outlet, createRootRouteWithContext } from '@tanstack/react-router'
import type { QueryClient } from '@tanstack/react-query'
import type { Session } from '@/lib/session'
import { Toaster } from '@/components/ui/toast'
import { CrashScreen, NotFoundPage } from '@/app/error-screens'

export type RouterContext = { queryClient: QueryClient; session: Session }

export const Route = createRootRouteWithContext<RouterContext>()({
  component: () => (
    <>
      <Outlet />
      <Toaster />
    </>
  ),
  notFoundComponent: NotFoundPage,
  errorComponent: ({ error }) => <CrashScreen error={error} />,
})
