import { useState, type FormEvent } from 'react'
import { useTranslation } from 'react-i18next'
import { Button } from '@/components/ui/button'
import { DialogDescription, DialogFooter, DialogHeader, DialogTitle } from '@/components/ui/dialog'
import { FieldControl, FormField } from '@/components/ui/form-field'
import { Input } from '@/components/ui/input'
import { isEmail } from '@/lib/forms'
import type { NewIndividual } from '../../api/add-community-profile'


/** individualErrors applies the new-individual rules (spec 001 §5): all required, a valid email. */
export function individualErrors(p: NewIndividual) {
  return {
    firstName: !p.firstName.trim() ? 'required' : undefined,
    lastName: !p.lastName.trim() ? 'required' : undefined,
    email: !p.email.trim() ? 'required' : !isEmail(p.email.trim()) ? 'invalidEmail' : undefined,
  } as const
}

/** IndividualStep is the new-individual form: first name, last name and email, all required. */
export function IndividualStep({ initial, onBack, onNext }: { initial: NewIndividual; onBack: () => void; onNext: (p: NewIndividual) => void }) {
  const { t } = useTranslation()
  const [p, setP] = useState(initial)
  const [submitted, setSubmitted] = useState(false)
  const errors = individualErrors(p)
  const shown = (k: keyof NewIndividual) => (submitted && errors[k] ? t(`forum.access.individual.${errors[k]}`) : undefined)
  const onSubmit = (e: FormEvent) => {
    e.preventDefault()
    setSubmitted(true)
    if (errors.firstName || errors.lastName || errors.email) return
    onNext({ firstName: p.firstName.trim(), lastName: p.lastName.trim(), email: p.email.trim() })
  }
  return (
    <form onSubmit={onSubmit} noValidate className="grid gap-4" data-testid="individual-form">
      <DialogHeader>
        <DialogTitle>{t('forum.access.individual.title')}</DialogTitle>
        <DialogDescription>{t('forum.access.individual.description')}</DialogDescription>
      </DialogHeader>
      <div className="grid gap-3 sm:grid-cols-2">
        <FormField label={t('forum.access.individual.firstName')} error={shown('firstName')}>
          <FieldControl>
            <Input name="firstName" autoComplete="off" value={p.firstName} onChange={(e) => setP({ ...p, firstName: e.target.value })} />
          </FieldControl>
        </FormField>
        <FormField label={t('forum.access.individual.lastName')} error={shown('lastName')}>
          <FieldControl>
            <Input name="lastName" autoComplete="off" value={p.lastName} onChange={(e) => setP({ ...p, lastName: e.target.value })} />
          </FieldControl>
        </FormField>
      </div>
      <FormField label={t('forum.access.individual.email')} error={shown('email')}>
        <FieldControl>
          <Input name="email" type="email" autoComplete="off" value={p.email} onChange={(e) => setP({ ...p, email: e.target.value })} />
        </FieldControl>
      </FormField>
      <DialogFooter>
        <Button type="button" variant="outline" onClick={onBack}>
          {t('forum.access.back')}
        </Button>
        <Button type="submit">{t('forum.access.next')}</Button>
      </DialogFooter>
    </form>
  )
}

/** IndividualConfirm asks 'Is this right?' before the person is added (spec 001 §2). */
export function IndividualConfirm({
  person,
  busy,
  error,
  onNo,
  onYes,
}: {
  person: NewIndividual
  busy: boolean
  error?: string
  onNo: () => void
  onYes: () => void
}) {
  const { t } = useTranslation()
  return (
    <div className="grid gap-4" data-testid="individual-confirm">
      <DialogHeader>
        <DialogTitle>{t('forum.access.individual.confirmTitle')}</DialogTitle>
        <DialogDescription>
          {t('forum.access.individual.confirmBody', { name: `${person.firstName} ${person.lastName}`, email: person.email })}
        </DialogDescription>
      </DialogHeader>
      <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-1 rounded-md border p-3 text-sm">
        <dt className="text-muted-foreground">{t('forum.access.individual.firstName')}</dt>
        <dd>{person.firstName}</dd>
        <dt className="text-muted-foreground">{t('forum.access.individual.lastName')}</dt>
        <dd>{person.lastName}</dd>
        <dt className="text-muted-foreground">{t('forum.access.individual.email')}</dt>
        <dd className="break-all">{person.email}</dd>
      </dl>
      {error && (
        <p role="alert" className="text-sm font-medium text-destructive">
          {error}
        </p>
      )}
      <DialogFooter>
        <Button variant="outline" onClick={onNo} disabled={busy}>
          {t('forum.access.individual.no')}
        </Button>
        <Button onClick={onYes} disabled={busy}>
          {busy ? t('forum.access.individual.adding') : t('forum.access.individual.yes')}
        </Button>
      </DialogFooter>
    </div>
  )
}
