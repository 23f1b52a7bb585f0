import { createFileRoute, redirect } from '@tanstack/react-router'
import { AccountScreen } from '@/app/account-screen'
import { ACCOUNT_VIEWS, type AccountView } from '@/features/accounts/lib/views'
import { organizationQuery } from '@/features/accounts/api/get-organization'

export const Route = createFileRoute('/_authenticated/accounts/$accountId/$view')({
  // An unknown view is the default one (settings).
  beforeLoad: ({ params }) => {
    if (!(ACCOUNT_VIEWS as readonly string[]).includes(params.view)) {
      throw redirect({ to: '/accounts/$accountId/$view', params: { accountId: params.accountId, view: 'settings' }, replace: true })
    }
  },
  loader: ({ context, params }) => {
    void context.queryClient.prefetchQuery(organizationQuery(params.accountId))
  },
  component: function AccountRoute() {
    const { accountId, view } = Route.useParams()
    return <AccountScreen accountId={accountId} view={view as AccountView} />
  },
})
