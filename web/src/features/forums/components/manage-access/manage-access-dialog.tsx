import { useState, type ReactNode } from 'react'
import { useTranslation } from 'react-i18next'
import { ChevronRight, UserCog, UserPlus, Users } from 'lucide-react'
import { isApiError } from '@/api/client'
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from '@/components/ui/dialog'
import { toast } from '@/components/ui/toast'
import type { Forum } from '../../api/get-forum'
import { useAddIndividual, type NewIndividual } from '../../api/add-community-profile'
import { useAssign } from '../../api/assign'
import { newcomers, stage, toStagedState, type Staged } from '../../hooks/access-rules'
import { AccessNotice } from '../access-notice'
import { CommunityStep } from './community-step'
import { ExistingStep } from './existing-step'
import { IndividualConfirm, IndividualStep } from './individual-step'
import { ReviewStep } from './review-step'

type List = 'individual' | 'community' | 'existing'
type Step = { name: 'choice' } | { name: List } | { name: 'individual-confirm' } | { name: 'review'; from: List }

const EMPTY: Staged = new Map()
const NO_ONE: NewIndividual = { firstName: '', lastName: '', email: '' }

/** splitName reads a typed name as a first name and the rest as the last name: "Ada King Lovelace" → Ada, King Lovelace. */
export function splitName(typed: string): { firstName: string; lastName: string } {
  const [firstName = '', ...rest] = typed.trim().split(/\s+/)
  return { firstName, lastName: rest.join(' ') }
}

/** The message of a refused change, by the server's code (httpapi/openapi: assignments). */
function applyError(t: (k: string) => string, err: unknown) {
  const code = isApiError(err) ? err.code : ''
  return ['ownAssignment', 'lastAdmin', 'exclusivityOpen', 'forbidden', 'emailConflict'].includes(code)
    ? t(`forum.access.errors.${code}`)
    : t('forum.access.errors.failed')
}

/**
 * ManageAccessDialog is the Manage Access flow (spec 001 §2): a choice of
 * three, then the new-individual form and its 'Is this right?', the
 * community members not yet in the forum, or the existing members; each
 * stages changes and ends in the same confirmation with the notice preview.
 */
export function ManageAccessDialog({ forum, open, onOpenChange }: { forum: Forum; open: boolean; onOpenChange: (o: boolean) => void }) {
  const { t } = useTranslation()
  const [step, setStep] = useState<Step>({ name: 'choice' })
  const [staged, setStaged] = useState<Staged>(EMPTY)
  const [individual, setIndividual] = useState<NewIndividual>(NO_ONE)
  const [error, setError] = useState<string>()
  const add = useAddIndividual(forum.context.communityId, forum.id)
  const assign = useAssign(forum.id)

  const reset = () => {
    setStep({ name: 'choice' })
    setStaged(EMPTY)
    setIndividual(NO_ONE)
    setError(undefined)
  }
  const close = (o: boolean) => {
    onOpenChange(o)
    if (!o) reset()
  }
  const go = (s: Step) => {
    setError(undefined)
    setStep(s)
  }
  const choose = (l: List) => {
    setStaged(EMPTY)
    go({ name: l })
  }

  const addIndividual = () =>
    add.mutate(individual, {
      onSuccess: ({ id, isAssigned }) => {
        const name = `${individual.firstName} ${individual.lastName}`
        if (isAssigned) return setError(t('forum.access.individual.alreadyMember', { name }))
        const person = { id, firstName: individual.firstName, lastName: individual.lastName, email: individual.email, userId: null }
        setStaged(stage(EMPTY, person, null, 'member'))
        go({ name: 'review', from: 'individual' })
      },
      onError: (err) => setError(isApiError(err) && err.code === 'forbidden' ? t('forum.access.errors.forbidden') : applyError(t, err)),
    })

  const apply = () =>
    assign.mutate(
      { state: toStagedState(staged), invite: newcomers(staged) },
      {
        onSuccess: () => {
          toast({ title: t('global:success.invitationsUpdated', { count: staged.size }), variant: 'success' })
          close(false)
        },
        onError: (err) => setError(applyError(t, err)),
      },
    )

  const wide = step.name === 'community' || step.name === 'existing'
  return (
    <Dialog open={open} onOpenChange={close}>
      <DialogContent className={wide ? 'max-w-2xl' : undefined} data-testid="manage-access-dialog">
        {step.name === 'choice' && <Choice forum={forum} onChoose={choose} />}
        {step.name === 'individual' && (
          <IndividualStep
            initial={individual}
            onBack={() => go({ name: 'choice' })}
            onNext={(p) => {
              setIndividual(p)
              go({ name: 'individual-confirm' })
            }}
          />
        )}
        {step.name === 'individual-confirm' && (
          <IndividualConfirm person={individual} busy={add.isPending} error={error} onNo={() => go({ name: 'individual' })} onYes={addIndividual} />
        )}
        {step.name === 'community' && (
          <CommunityStep
            seriesId={forum.id}
            communityId={forum.context.communityId}
            staged={staged}
            onStaged={setStaged}
            onAddNew={(typed) => {
              setIndividual({ ...splitName(typed), email: '' })
              go({ name: 'individual' })
            }}
            onBack={() => go({ name: 'choice' })}
            onNext={() => go({ name: 'review', from: 'community' })}
          />
        )}
        {step.name === 'existing' && (
          <ExistingStep
            forum={forum}
            staged={staged}
            onStaged={setStaged}
            onBack={() => go({ name: 'choice' })}
            onNext={() => go({ name: 'review', from: 'existing' })}
          />
        )}
        {step.name === 'review' && (
          <ReviewStep
            seriesId={forum.id}
            staged={staged}
            busy={assign.isPending}
            error={error}
            onBack={() => go({ name: step.from === 'individual' ? 'individual' : step.from })}
            onApply={apply}
          />
        )}
      </DialogContent>
    </Dialog>
  )
}

function Choice({ forum, onChoose }: { forum: Forum; onChoose: (l: List) => void }) {
  const { t } = useTranslation()
  const options: { list: List; icon: ReactNode }[] = [
    { list: 'individual', icon: <UserPlus /> },
    { list: 'community', icon: <Users /> },
    { list: 'existing', icon: <UserCog /> },
  ]
  return (
    <div className="grid gap-4" data-testid="access-choice">
      <DialogHeader>
        <DialogTitle>{t('forum.access.title')}</DialogTitle>
        <DialogDescription>{t('forum.access.description', { name: forum.name })}</DialogDescription>
      </DialogHeader>
      {forum.exclusivity === 'open' && <AccessNotice />}
      <ul className="grid gap-2">
        {options.map(({ list, icon }) => (
          <li key={list}>
            <button
              type="button"
              onClick={() => onChoose(list)}
              className="flex w-full items-center gap-3 rounded-md border p-3 text-left hover:bg-accent focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring [&_svg]:size-5"
            >
              <span aria-hidden className="text-muted-foreground">
                {icon}
              </span>
              <span className="grid flex-1 gap-0.5">
                <span className="text-sm font-medium">{t(`forum.access.choices.${list}`)}</span>
                <span className="text-xs text-muted-foreground">{t(`forum.access.choices.${list}Hint`)}</span>
              </span>
              <ChevronRight aria-hidden className="text-muted-foreground" />
            </button>
          </li>
        ))}
      </ul>
    </div>
  )
}
