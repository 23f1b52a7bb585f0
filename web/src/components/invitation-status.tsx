import { useTranslation } from 'react-i18next'
import { Mail } from 'lucide-react'
import { useMutation, useQueryClient, type QueryKey } from '@tanstack/react-query'
import { Badge } from '@/components/ui/badge'
import { Button } from '@/components/ui/button'
import { toast } from '@/components/ui/toast'
import type { Schemas } from '@/api/client'

/**
 * A person's status in a list of people, as the server decides it for
 * every list (membership.InvitationStatus): active once they have an
 * account, invited once an invitation was mailed (a community's lists say
 * pending, spec 000), notInvited until then; null for one not assigned.
 */
export type InvitationStatus = Schemas['InvitationStatus'] | 'pending' | null | undefined

/** invitable: a person without an account, whom an invitation may be sent. */
export const invitable = (s: InvitationStatus) => s === 'invited' || s === 'pending' || s === 'notInvited'

/** InvitationBadge labels a person without an account: Invited or Not invited yet. */
export function InvitationBadge({ status }: { status: InvitationStatus }) {
  const { t } = useTranslation()
  if (!invitable(status)) return null
  return <Badge variant="outline">{t(status === 'notInvited' ? 'invitation.notInvited' : 'invitation.invited')}</Badge>
}

type Invited = Schemas['ForumInvitations']
type Person = { id: string; firstName: string; lastName: string; email: string; status: InvitationStatus }

/**
 * useInvite mails invitations with send (a list's own POST …/invitations)
 * and then reads the lists under refresh again, so that a label turns from
 * Not invited yet to Invited; the button says what was sent.
 */
export function useInvite(send: (profileIds: string[]) => Promise<Invited>, refresh: QueryKey[]) {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: send,
    meta: { silent: true },
    onSettled: () => Promise.all(refresh.map((queryKey) => queryClient.invalidateQueries({ queryKey }))),
  })
}

/**
 * InviteButton sends one person without an account an invitation: Send
 * invitation beside one not invited yet, Send again beside one invited.
 */
export function InviteButton({ person, invite }: { person: Person; invite: ReturnType<typeof useInvite> }) {
  const { t } = useTranslation()
  if (!invitable(person.status)) return null
  const name = `${person.firstName} ${person.lastName}`
  const again = person.status !== 'notInvited'
  return (
    <Button
      variant="ghost"
      size="sm"
      disabled={invite.isPending}
      aria-label={t(again ? 'invitation.sendAgainTo' : 'invitation.sendTo', { name })}
      onClick={() =>
        invite.mutate([person.id], {
          onSuccess: (r) =>
            toast({ title: t(r.alreadyInvited > 0 ? 'invitation.alreadySent' : 'invitation.sent', { email: person.email }), variant: 'success' }),
          onError: () => toast({ title: t('invitation.failed'), variant: 'destructive' }),
        })
      }
    >
      <Mail aria-hidden />
      <span className="max-sm:sr-only">{t(again ? 'invitation.sendAgain' : 'invitation.send')}</span>
    </Button>
  )
}
