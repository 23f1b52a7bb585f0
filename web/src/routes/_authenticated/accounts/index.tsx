import { createFileRoute } from '@tanstack/react-router'
import i18n from '@/i18n'
import { ComingSoon } from '@/app/coming-soon'

export const Route = createFileRoute('/_authenticated/accounts/')({
  component: () => <ComingSoon title={i18n.t('accounts.title')} body={i18n.t('accounts.comingSoon')} />,
})
