import type { ReactNode } from 'react'
import { useTranslation } from 'react-i18next'
import { InvitationBadge, type InvitationStatus } from '@/components/invitation-status'
import { fullName, MemberAvatar, RolePill } from '@/components/member-avatar'
import { ProfileButton } from '@/components/profile-button'
import type { Person } from '@/components/ui/avatar'

export type MemberRowPerson = Person & { userId: string | null; jobTitle: string; company: string; isExpert: boolean }

/**
 * MemberRow is a person of a member list (a forum's, a community's): the
 * picture, which opens the profile of someone with an account, the name with
 * Expert, Admin and the invitation's state, the job and company, and what
 * the list adds at the end (an Invite button).
 */
export function MemberRow({
  person,
  admin,
  status,
  testId,
  children,
}: {
  person: MemberRowPerson
  admin: boolean
  status: InvitationStatus
  testId: string
  children?: ReactNode
}) {
  const { t } = useTranslation()
  const m = person
  return (
    <li className="flex items-center gap-3 rounded-md px-2 py-2" data-testid={testId}>
      {m.userId ? (
        <ProfileButton userId={m.userId} name={fullName(m)}>
          <MemberAvatar person={m} isExpert={m.isExpert} />
        </ProfileButton>
      ) : (
        <MemberAvatar person={m} isExpert={m.isExpert} />
      )}
      <div className="min-w-0 flex-1">
        <p className="flex flex-wrap items-center gap-1.5 text-sm font-medium">
          <span className="truncate">{fullName(m)}</span>
          {m.isExpert && <RolePill className="bg-amber-100 text-amber-900 dark:bg-amber-950 dark:text-amber-200">{t('memberRow.expert')}</RolePill>}
          {admin && <RolePill>{t('memberRow.admin')}</RolePill>}
          <InvitationBadge status={status} />
        </p>
        {(m.jobTitle || m.company) && <p className="truncate text-xs text-muted-foreground">{[m.jobTitle, m.company].filter(Boolean).join(' · ')}</p>}
      </div>
      {children}
    </li>
  )
}
