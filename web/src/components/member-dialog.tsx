import { useState, type FormEvent } from 'react'
import { useTranslation } from 'react-i18next'
import { isApiError } from '@/api/client'
import { Button } from '@/components/ui/button'
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from '@/components/ui/dialog'
import { FieldControl, FormField } from '@/components/ui/form-field'
import { Input } from '@/components/ui/input'
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from '@/components/ui/select'
import { MEMBER_NAME_MAX, trimMember, validateMemberForm, type MemberFormValues } from '@/lib/member-form'

export const emptyMember: MemberFormValues = { firstName: '', lastName: '', email: '', roleId: 'member', tags: '' }

export type MemberDialogProps = {
  open: boolean
  onOpenChange: (o: boolean) => void
  title: string
  description?: string
  /** The roles to choose from; no selector without them, a disabled one with fewer than 2. */
  roles?: { id: string; name: string }[]
  initial?: MemberFormValues
  /** The submit button's label; the invite label by default. */
  submitLabel?: string
  /** Sends the member; a 409 answer shows the email conflict on the form, another failure failedMessage. */
  onSubmit: (v: MemberFormValues) => Promise<unknown>
  failedMessage?: string
}

/**
 * MemberDialog is the new member dialog (spec 000 §2.7) and the manage
 * account member dialog: first and last name, email, role and free-form
 * tags, for a community's or an organization's people.
 */
export function MemberDialog(props: MemberDialogProps) {
  return (
    <Dialog open={props.open} onOpenChange={props.onOpenChange}>
      <DialogContent className="max-h-[90dvh] overflow-y-auto" data-testid="member-dialog">
        <DialogHeader>
          <DialogTitle>{props.title}</DialogTitle>
          {props.description && <DialogDescription>{props.description}</DialogDescription>}
        </DialogHeader>
        {props.open && <MemberForm {...props} />}
      </DialogContent>
    </Dialog>
  )
}

function MemberForm({ roles, initial = emptyMember, submitLabel, onSubmit, onOpenChange, failedMessage }: MemberDialogProps) {
  const { t } = useTranslation()
  const [v, setV] = useState(initial)
  const [submitted, setSubmitted] = useState(false)
  const [pending, setPending] = useState(false)
  const [conflict, setConflict] = useState(false)
  const [failed, setFailed] = useState(false)
  const errors = validateMemberForm(v)
  const shown = (k: keyof typeof errors) => {
    if (k === 'email' && conflict) return t('global:error.emailConflict')
    const e = submitted ? errors[k] : undefined
    return e && t(`memberForm.errors.${e}`, { max: MEMBER_NAME_MAX })
  }
  const set = (k: keyof MemberFormValues, value: string) => {
    setV((p) => ({ ...p, [k]: value }))
    if (k === 'email') setConflict(false)
  }
  const submit = async (e: FormEvent) => {
    e.preventDefault()
    setSubmitted(true)
    setFailed(false)
    if (Object.keys(errors).length > 0) return
    setPending(true)
    try {
      await onSubmit(trimMember(v))
      onOpenChange(false)
    } catch (err) {
      if (isApiError(err) && err.status === 409) setConflict(true)
      else setFailed(true)
    } finally {
      setPending(false)
    }
  }
  return (
    <form onSubmit={(e) => void submit(e)} noValidate className="grid gap-4" data-testid="member-form">
      {failed && (
        <p role="alert" className="text-sm font-medium text-destructive">
          {failedMessage ?? t('global:error.userCreating')}
        </p>
      )}
      <div className="grid gap-3 sm:grid-cols-2">
        <FormField label={t('memberForm.firstName')} error={shown('firstName')}>
          <FieldControl>
            <Input name="firstName" autoComplete="off" value={v.firstName} onChange={(e) => set('firstName', e.target.value)} />
          </FieldControl>
        </FormField>
        <FormField label={t('memberForm.lastName')} error={shown('lastName')}>
          <FieldControl>
            <Input name="lastName" autoComplete="off" value={v.lastName} onChange={(e) => set('lastName', e.target.value)} />
          </FieldControl>
        </FormField>
      </div>
      <FormField label={t('memberForm.email')} error={shown('email')}>
        <FieldControl>
          <Input name="email" type="email" autoComplete="off" value={v.email} onChange={(e) => set('email', e.target.value)} />
        </FieldControl>
      </FormField>
      {roles && (
        <FormField label={t('memberForm.role')}>
          <Select value={v.roleId} onValueChange={(r) => set('roleId', r)} disabled={roles.length < 2}>
            <FieldControl>
              <SelectTrigger>
                <SelectValue />
              </SelectTrigger>
            </FieldControl>
            <SelectContent>
              {roles.map((r) => (
                <SelectItem key={r.id} value={r.id}>
                  {r.name}
                </SelectItem>
              ))}
            </SelectContent>
          </Select>
        </FormField>
      )}
      <FormField label={t('memberForm.tags')} description={t('memberForm.tagsHint')}>
        <FieldControl>
          <Input name="tags" autoComplete="off" value={v.tags} onChange={(e) => set('tags', e.target.value)} />
        </FieldControl>
      </FormField>
      <DialogFooter>
        <Button type="button" variant="outline" onClick={() => onOpenChange(false)}>
          {t('memberForm.cancel')}
        </Button>
        <Button type="submit" disabled={pending}>
          {pending ? t('memberForm.saving') : (submitLabel ?? t('memberForm.invite'))}
        </Button>
      </DialogFooter>
    </form>
  )
}
