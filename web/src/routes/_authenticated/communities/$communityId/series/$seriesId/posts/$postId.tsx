import { createFileRoute } from '@tanstack/react-router'
import i18n from '@/i18n'
import { ComingSoon } from '@/components/layout/coming-soon'

export const Route = createFileRoute('/_authenticated/communities/$communityId/series/$seriesId/posts/$postId')({
  validateSearch: (s: Record<string, unknown>): { reason?: 'comment' | 'mention' } => ({
    reason: s.reason === 'comment' || s.reason === 'mention' ? s.reason : undefined,
  }),
  component: () => <ComingSoon title={i18n.t('forum.comingSoon')} body={i18n.t('forum.comingSoon')} />,
})
