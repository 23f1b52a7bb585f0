import { useQuery } from '@tanstack/react-query'
import { useTranslation } from 'react-i18next'
import { ErrorFallback } from '@/components/ui/states'
import { RowsSkeleton } from '@/features/insights/components/widget'
import { InsightsPanel } from '@/features/insights/components/insights-panel'
import { ChannelPosts } from '@/features/feed/components/forum-feed'
import { forumQuery } from '@/features/forums/api/get-forum'

/**
 * InsightsTab is the panel's Insights tab: the insights feature, with the
 * admin channel's feed and composer from the feed feature (the shell joins
 * features; they do not import each other).
 */
export function InsightsTab({ seriesId, communityId }: { seriesId: string; communityId: string }) {
  return <InsightsPanel seriesId={seriesId} communityId={communityId} feed={(channelId) => <AdminChannelFeed seriesId={seriesId} channelId={channelId} />} />
}

function AdminChannelFeed({ seriesId, channelId }: { seriesId: string; channelId: string }) {
  const { t } = useTranslation()
  // The forum page has just read the forum; the panel takes that read
  // rather than asking again (the composer needs the forum's settings).
  const forum = useQuery({ ...forumQuery(seriesId), staleTime: 60_000 })
  if (forum.data) return <ChannelPosts series={forum.data} channelId={channelId} label={t('insights.feed.title')} />
  if (forum.isError) return <ErrorFallback className="py-4" onRetry={() => void forum.refetch()} />
  return <RowsSkeleton />
}
