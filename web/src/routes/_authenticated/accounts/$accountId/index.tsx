import { createFileRoute, redirect } from '@tanstack/react-router'

// The view defaults to settings (spec 000 §2.1).
export const Route = createFileRoute('/_authenticated/accounts/$accountId/')({
  beforeLoad: ({ params }) => {
    throw redirect({ to: '/accounts/$accountId/$view', params: { accountId: params.accountId, view: 'settings' }, replace: true })
  },
})
