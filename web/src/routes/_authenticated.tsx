import { createFileRoute, redirect } from '@tanstack/react-router'
import { AppShell } from '@/app/shell/app-shell'

// Authenticated pages: a guest goes to /login with the page as the redirect
// target (spec 000 §2.1).
export const Route = createFileRoute('/_authenticated')({
  beforeLoad: ({ context, location }) => {
    if (!context.session.isAuthenticated) {
      throw redirect({ to: '/login', search: { redirect: location.href } })
    }
  },
  component: AppShell,
})
