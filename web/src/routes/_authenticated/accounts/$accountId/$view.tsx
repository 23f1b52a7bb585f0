import { createFileRoute } from '@tanstack/react-router'
import i18n from '@/i18n'
import { ComingSoon } from '@/app/coming-soon'

export const Route = createFileRoute('/_authenticated/accounts/$accountId/$view')({
  component: function AccountView() {
    const { view } = Route.useParams()
    return <ComingSoon title={`${i18n.t('accounts.title')}: ${view}`} body={i18n.t('accounts.comingSoon')} />
  },
})
