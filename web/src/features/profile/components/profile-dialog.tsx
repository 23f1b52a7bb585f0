import { useState, type ReactNode } from 'react'
import { useTranslation } from 'react-i18next'
import { Mail, MapPin, MessageCircle } from 'lucide-react'
import { isApiError } from '@/api/client'
import { ExpertStar } from '@/components/expert-star'
import { PersonAvatar } from '@/components/ui/avatar'
import { Badge } from '@/components/ui/badge'
import { Button } from '@/components/ui/button'
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from '@/components/ui/dialog'
import { Skeleton } from '@/components/ui/skeleton'
import { ErrorFallback } from '@/components/ui/states'
import { ProfileOpenerContext } from '@/lib/profile-opener'
import { useCurrentUser } from '@/lib/session-context'
import { usePersonProfile } from '../api/get-person-profile'

export type ProfilePlace = {
  /** The forum of the page: the person is starred when an expert in it. */
  seriesId?: string
  /** On the home path the location line is hidden (spec 002 §2). */
  home: boolean
}

/** MessagePerson opens the private chat with a person (the app layer knows where the chat lives). */
export type MessagePerson = (person: { userId: string; firstName: string; lastName: string; avatar: string | null }) => void

/**
 * ProfileDialogHost mounts the one profile dialog of the signed-in frame
 * and gives its opener to everything below it (useOpenProfile).
 */
export function ProfileDialogHost({ place, onMessage, children }: { place: ProfilePlace; onMessage?: MessagePerson; children: ReactNode }) {
  const [userId, setUserId] = useState<string>()
  return (
    <ProfileOpenerContext.Provider value={setUserId}>
      {children}
      <ProfileDialog userId={userId} place={place} onMessage={onMessage} onClose={() => setUserId(undefined)} />
    </ProfileOpenerContext.Provider>
  )
}

/**
 * ProfileDialog shows a person (spec 000 §2.4, 002 §2 "Profile dialog");
 * with onMessage, "Message" closes it and opens the chat with them (not
 * on one's own profile). Whoever's profile one may read is a peer one may
 * write to: both are the members who share a community.
 */
export function ProfileDialog({ userId, place, onMessage, onClose }: { userId?: string; place: ProfilePlace; onMessage?: MessagePerson; onClose: () => void }) {
  const { t } = useTranslation()
  const me = useCurrentUser()
  const q = usePersonProfile(userId)
  const p = q.data?.userId === userId ? q.data : undefined
  const name = p ? `${p.firstName} ${p.lastName}`.trim() : ''
  const expert = !!p && !!place.seriesId && p.expertInSeries.includes(place.seriesId)
  const work = p ? [p.jobTitle, p.company].filter(Boolean) : []
  return (
    <Dialog open={!!userId} onOpenChange={(o) => !o && onClose()}>
      <DialogContent className="sm:max-w-md" data-testid="profile-dialog" aria-describedby={undefined}>
        {!p ? (
          <>
            <DialogHeader>
              <DialogTitle>{t('profile.dialogTitle')}</DialogTitle>
            </DialogHeader>
            {q.isError ? (
              <ErrorFallback
                message={isApiError(q.error) && q.error.status === 404 ? t('profile.notFound') : t('profile.loadFailed')}
                onRetry={isApiError(q.error) && q.error.status === 404 ? undefined : () => void q.refetch()}
              />
            ) : (
              <div className="grid gap-3" aria-busy="true">
                <Skeleton className="size-20 rounded-full" />
                <Skeleton className="h-5 w-1/2" />
                <Skeleton className="h-4 w-2/3" />
              </div>
            )}
          </>
        ) : (
          <>
            <DialogHeader className="items-center text-center">
              <span className="relative inline-flex">
                <PersonAvatar person={{ id: p.userId, ...p }} className="size-20 text-xl" />
                {expert && <ExpertStar label={t('profile.expertHere')} className="size-6" testId="profile-expert" />}
              </span>
              <DialogTitle data-testid="profile-name">{name}</DialogTitle>
              {work.length > 0 && <DialogDescription>{work.join(` ${t('profile.at')} `)}</DialogDescription>}
              {onMessage && me && me.user.id !== p.userId && (
                <Button
                  size="sm"
                  className="mt-1"
                  onClick={() => {
                    onClose()
                    onMessage(p)
                  }}
                >
                  <MessageCircle aria-hidden />
                  {t('profile.message')}
                </Button>
              )}
            </DialogHeader>
            <div className="grid gap-3 text-sm">
              {p.email && (
                <a href={`mailto:${p.email}`} className="flex items-center gap-2 text-primary underline-offset-2 hover:underline">
                  <Mail className="size-4" aria-hidden />
                  {p.email}
                </a>
              )}
              {!place.home && p.location && (
                <p className="flex items-center gap-2 text-muted-foreground" data-testid="profile-location">
                  <MapPin className="size-4" aria-hidden />
                  {p.location}
                </p>
              )}
              {p.bio && (
                <p className="whitespace-pre-wrap" data-testid="profile-bio">
                  {p.bio}
                </p>
              )}
              {p.interestTags.length > 0 && (
                <ul className="flex flex-wrap gap-2" aria-label={t('profile.interests')}>
                  {p.interestTags.map((tag) => (
                    <li key={tag}>
                      <Badge variant="outline">{tag}</Badge>
                    </li>
                  ))}
                </ul>
              )}
            </div>
          </>
        )}
      </DialogContent>
    </Dialog>
  )
}
