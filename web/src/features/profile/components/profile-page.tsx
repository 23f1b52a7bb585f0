import { useTranslation } from 'react-i18next'
import { PersonAvatar } from '@/components/ui/avatar'
import { Badge } from '@/components/ui/badge'
import { PageGrid } from '@/components/layout/page-grid'
import type { Role } from '@/api/client'
import { useCurrentUser } from '@/lib/session-context'
import { useMe } from '../api/get-me'

/**
 * shownRole is the platform role a person would recognise (spec 000 §6),
 * or nothing: 'user', 'member' and 'guest' are what every member is, words
 * of the system that say nothing to them.
 */
const shownRole = (r: Role) => (r === 'super' || r === 'admin' || r === 'moderator' ? r : undefined)

/** ProfilePage shows the signed-in person's own fields. */
export function ProfilePage() {
  const { t } = useTranslation()
  const me = useCurrentUser()
  // The session's copy shows at once; the fresh read replaces it.
  const fresh = useMe()
  if (!me) return null
  const u = fresh.data?.user ?? me.user
  const role = shownRole(me.role)
  return (
    <PageGrid>
      <h1 className="mb-6 text-2xl font-semibold tracking-tight">{t('profile.title')}</h1>
      <section className="rounded-xl border bg-card p-6">
        <div className="flex items-center gap-4">
          <PersonAvatar person={u} className="size-16 text-lg" />
          <div>
            <p className="text-lg font-semibold">
              {u.firstName} {u.lastName}
            </p>
            {(u.jobTitle || u.company) && (
              <p className="text-sm text-muted-foreground">{[u.jobTitle, u.company].filter(Boolean).join(' at ')}</p>
            )}
          </div>
        </div>
        <dl className="mt-6 grid gap-3 text-sm sm:grid-cols-[8rem_1fr]">
          <dt className="text-muted-foreground">{t('profile.email')}</dt>
          <dd>{u.email}</dd>
          {role && (
            <>
              <dt className="text-muted-foreground">{t('profile.role')}</dt>
              <dd>
                <Badge variant="secondary">{t(`profile.roles.${role}`)}</Badge>
              </dd>
            </>
          )}
        </dl>
        {u.bio && <p className="mt-6 text-sm">{u.bio}</p>}
        {u.interestTags.length > 0 && (
          <ul className="mt-4 flex flex-wrap gap-2">
            {u.interestTags.map((tag) => (
              <li key={tag}>
                <Badge variant="outline">{tag}</Badge>
              </li>
            ))}
          </ul>
        )}
      </section>
    </PageGrid>
  )
}
