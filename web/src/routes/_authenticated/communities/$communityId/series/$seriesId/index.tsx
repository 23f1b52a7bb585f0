import { createFileRoute } from '@tanstack/react-router'
import i18n from '@/i18n'
import { ComingSoon } from '@/components/layout/coming-soon'

export const Route = createFileRoute('/_authenticated/communities/$communityId/series/$seriesId/')({
  component: () => <ComingSoon title={i18n.t('forum.comingSoon')} body={i18n.t('forum.comingSoon')} />,
})
