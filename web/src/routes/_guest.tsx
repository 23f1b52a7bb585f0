import { Outlet, createFileRoute, redirect } from '@tanstack/react-router'
import { HOME_PATH, safeRedirect } from '@/lib/redirect'

// Guest-only pages: a signed-in user goes to the redirect target, or the
// home path (spec 000 §2.1).
export const Route = createFileRoute('/_guest')({
  beforeLoad: ({ context, location }) => {
    if (context.session.isAuthenticated) {
      const search = location.search as { redirect?: unknown }
      throw redirect({ href: safeRedirect(search.redirect) ?? HOME_PATH, replace: true })
    }
  },
  component: Outlet,
})
