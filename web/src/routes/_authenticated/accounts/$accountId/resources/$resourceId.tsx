import { createFileRoute, redirect } from '@tanstack/react-router'

// An organization's resource is one of its communities (spec 000 §2.1): the
// route opens the community's page.
export const Route = createFileRoute('/_authenticated/accounts/$accountId/resources/$resourceId')({
  beforeLoad: ({ params }) => {
    throw redirect({ to: '/communities/$communityId', params: { communityId: params.resourceId }, replace: true })
  },
})
