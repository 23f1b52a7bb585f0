import { infiniteQueryOptions } from '@tanstack/react-query'
import { api, unwrap } from '@/api/client'
import type { NotificationList } from './types'

/** The list shows 20 at a time (spec 000 §9). */
export const NOTIFICATIONS_PAGE = 20

export const notificationKeys = { all: ['notifications'] as const }

/** notificationsQuery is GET /api/notifications page by page, newest first; each page also tells the unread count. */
export const notificationsQuery = () =>
  infiniteQueryOptions({
    queryKey: notificationKeys.all,
    initialPageParam: 1,
    queryFn: async ({ pageParam, signal }): Promise<NotificationList> =>
      unwrap(await api.GET('/api/notifications', { params: { query: { page: pageParam, pageSize: NOTIFICATIONS_PAGE } }, signal })),
    getNextPageParam: (last, pages) => (pages.length * NOTIFICATIONS_PAGE < last.total ? pages.length + 1 : undefined),
  })
