import { createFileRoute, redirect } from '@tanstack/react-router'
import { OrganizationScreen } from '@/app/organization-screen'
import { ORGANIZATION_VIEWS, type OrganizationView } from '@/features/organizations/lib/views'
import { organizationQuery } from '@/features/organizations/api/get-organization'

export const Route = createFileRoute('/_authenticated/accounts/$accountId/$view')({
  // An unknown view is the default one (settings).
  beforeLoad: ({ params }) => {
    if (!(ORGANIZATION_VIEWS as readonly string[]).includes(params.view)) {
      throw redirect({ to: '/accounts/$accountId/$view', params: { accountId: params.accountId, view: 'settings' }, replace: true })
    }
  },
  loader: ({ context, params }) => {
    void context.queryClient.prefetchQuery(organizationQuery(params.accountId))
  },
  component: function OrganizationRoute() {
    const { accountId, view } = Route.useParams()
    return <OrganizationScreen organizationId={accountId} view={view as OrganizationView} />
  },
})
