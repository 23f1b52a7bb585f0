import { infiniteQueryOptions } from '@tanstack/react-query'
import type { Client } from 'openapi-fetch'
import { api, unwrap } from '@/api/client'
import type { NotificationList, NotificationPaths } from './types'

// contract-17: replaced by the typed client `api` when the API lands. The
// same client (its auth and sign-out on 401), typed with the route of the
// contract until the generated paths have it.
const notificationsApi = api as unknown as Client<NotificationPaths>

/** The list shows 20 at a time (spec 000 §9). */
export const NOTIFICATIONS_PAGE = 20

export const notificationKeys = { all: ['notifications'] as const }

/** notificationsQuery is GET /api/notifications page by page, newest first; each page also tells the unread count. */
export const notificationsQuery = () =>
  infiniteQueryOptions({
    queryKey: notificationKeys.all,
    initialPageParam: 1,
    queryFn: async ({ pageParam, signal }): Promise<NotificationList> =>
      unwrap(await notificationsApi.GET('/api/notifications', { params: { query: { page: pageParam, pageSize: NOTIFICATIONS_PAGE } }, signal })),
    getNextPageParam: (last, pages) => (pages.length * NOTIFICATIONS_PAGE < last.total ? pages.length + 1 : undefined),
  })
