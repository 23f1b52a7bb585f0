import { Navigate, createFileRoute } from '@tanstack/react-router'

// The single sign-on callback. No identity provider is configured yet, so
// it goes back to the sign-in page.
export const Route = createFileRoute('/_guest/callbacks/auth')({
  component: () => <Navigate to="/login" replace />,
})
