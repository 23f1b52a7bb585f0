import { createFileRoute, redirect } from '@tanstack/react-router'
import { AppShell } from '@/app/shell/app-shell'

// Authenticated pages: a guest goes to /login with the page as the redirect
// target (spec 000 §2.1). While a stored token is checked at start-up, the
// page is preloaded as the member's (App): its calls carry the token, and
// the page renders only once the check has passed.
export const Route = createFileRoute('/_authenticated')({
  beforeLoad: ({ context, location }) => {
    if (!context.session.isAuthenticated && !context.session.tokenPending) {
      throw redirect({ to: '/login', search: { redirect: location.href } })
    }
  },
  component: AppShell,
})
