import { createFileRoute } from '@tanstack/react-router'
import i18n from '@/i18n'
import { ComingSoon } from '@/app/coming-soon'

export const Route = createFileRoute('/_authenticated/communities/$communityId/')({
  component: () => <ComingSoon title={i18n.t('community.title')} body={i18n.t('community.comingSoon')} />,
})
