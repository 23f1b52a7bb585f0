import { useState, type FormEvent } from 'react'
import { useTranslation } from 'react-i18next'
import { isApiError, type Schemas } from '@/api/client'
import { ImagePicker } from '@/components/image-picker'
import { Button } from '@/components/ui/button'
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from '@/components/ui/dialog'
import { FieldControl, FormField } from '@/components/ui/form-field'
import { Input } from '@/components/ui/input'
import { Label } from '@/components/ui/label'
import { Switch } from '@/components/ui/switch'
import { Textarea } from '@/components/ui/textarea'
import { toast } from '@/components/ui/toast'
import type { Forum } from '../api/get-forum'
import { useCreateForum } from '../api/create-forum'
import { useUpdateForum } from '../api/update-forum'
import { DESCRIPTION_MAX, formValues, NAME_MAX, toPatch, validateForumForm, type ForumFormErrors, type ForumFormValues } from '../hooks/forum-form'
import { AccessNotice } from './access-notice'

/** EditForumDialog is the forum form for its admins (spec 001 §5). */
export function EditForumDialog({ forum, open, onOpenChange }: { forum: Forum; open: boolean; onOpenChange: (o: boolean) => void }) {
  const { t } = useTranslation()
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent className="max-h-[90dvh] overflow-y-auto">
        <DialogHeader>
          <DialogTitle>{t('forum.form.title')}</DialogTitle>
          <DialogDescription>{t('forum.form.description')}</DialogDescription>
        </DialogHeader>
        {/* Mounted only while open, so each opening starts from the forum as it is. */}
        {open && <EditForm forum={forum} onDone={() => onOpenChange(false)} />}
      </DialogContent>
    </Dialog>
  )
}

function EditForm({ forum, onDone }: { forum: Forum; onDone: () => void }) {
  const { t } = useTranslation()
  const update = useUpdateForum(forum.id)
  return (
    <ForumForm
      initial={formValues(forum)}
      was={forum.exclusivity}
      pending={update.isPending}
      labels={{ submit: t('forum.form.save'), pending: t('forum.form.saving') }}
      onCancel={onDone}
      onSubmit={(body, fail) =>
        update.mutate(body, {
          onSuccess: () => {
            toast({ title: t('forum.form.saved'), variant: 'success' })
            onDone()
          },
          onError: fail,
        })
      }
    />
  )
}

/** CreateForumDialog is the forum form for a new forum of the community, for its admins. */
export function CreateForumDialog({ communityId, open, onOpenChange }: { communityId: string; open: boolean; onOpenChange: (o: boolean) => void }) {
  const { t } = useTranslation()
  const create = useCreateForum(communityId)
  const onDone = () => onOpenChange(false)
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent className="max-h-[90dvh] overflow-y-auto">
        <DialogHeader>
          <DialogTitle>{t('forum.form.createTitle')}</DialogTitle>
          <DialogDescription>{t('forum.form.createDescription')}</DialogDescription>
        </DialogHeader>
        {open && (
          <ForumForm
            initial={formValues()}
            pending={create.isPending}
            labels={{ submit: t('forum.form.create'), pending: t('forum.form.creating') }}
            onCancel={onDone}
            onSubmit={(body, fail) =>
              create.mutate(body, {
                onSuccess: () => {
                  toast({ title: t('forum.form.created'), variant: 'success' })
                  onDone()
                },
                onError: fail,
              })
            }
          />
        )}
      </DialogContent>
    </Dialog>
  )
}

function ForumForm({
  initial,
  was,
  pending,
  labels,
  onCancel,
  onSubmit,
}: {
  initial: ForumFormValues
  /** The exclusivity the forum had; none for a new forum. */
  was?: ForumFormValues['exclusivity']
  pending: boolean
  labels: { submit: string; pending: string }
  onCancel: () => void
  onSubmit: (body: Schemas['ForumForm'], fail: (err: unknown) => void) => void
}) {
  const { t } = useTranslation()
  const [v, setV] = useState<ForumFormValues>(initial)
  const [submitted, setSubmitted] = useState(false)
  const [serverError, setServerError] = useState<string>()
  // Saving waits for an image being uploaded, as the community form does.
  const [uploading, setUploading] = useState(false)
  const errors: ForumFormErrors = submitted ? validateForumForm(v, was) : {}
  const set = <K extends keyof ForumFormValues>(k: K, value: ForumFormValues[K]) => setV((p) => ({ ...p, [k]: value }))
  const message = (field: 'name' | 'description', e: ForumFormErrors[typeof field]) =>
    e === 'required' ? t('forum.form.errors.required') : e === 'tooLong' ? t(`forum.form.errors.${field}TooLong`) : undefined
  const locked = was === 'open'

  const submit = (e: FormEvent) => {
    e.preventDefault()
    if (uploading) return
    setSubmitted(true)
    setServerError(undefined)
    if (Object.keys(validateForumForm(v, was)).length > 0) return
    onSubmit(toPatch(v), (err) =>
      setServerError(isApiError(err) && err.code === 'exclusivityLocked' ? t('forum.form.errors.locked') : t('forum.form.errors.saveFailed')),
    )
  }
  return (
    <form onSubmit={submit} noValidate className="grid gap-4" data-testid="forum-form">
      {serverError && (
        <p role="alert" className="text-sm font-medium text-destructive">
          {serverError}
        </p>
      )}
      <FormField label={t('forum.form.name')} error={message('name', errors.name)}>
        <FieldControl>
          <Input name="name" value={v.name} maxLength={NAME_MAX + 10} onChange={(e) => set('name', e.target.value)} />
        </FieldControl>
      </FormField>
      <FormField label={t('forum.form.about')} error={message('description', errors.description)}>
        <FieldControl>
          <Textarea name="description" rows={4} value={v.description} maxLength={DESCRIPTION_MAX + 10} onChange={(e) => set('description', e.target.value)} />
        </FieldControl>
      </FormField>
      <ImagePicker
        label={t('forum.form.image')}
        value={v.image}
        onChange={(url) => set('image', url)}
        onUploading={setUploading}
        error={errors.image ? t('forum.form.errors.invalidUrl') : undefined}
      />
      <fieldset className="grid gap-2">
        <legend className="mb-1 text-sm font-medium">{t('forum.form.exclusivity')}</legend>
        {locked && <AccessNotice />}
        {(['inviteOnly', 'open'] as const).map((x) => (
          <label key={x} className="flex items-start gap-3 rounded-md border p-3 has-[:checked]:border-primary has-[:disabled]:opacity-70">
            <input
              type="radio"
              name="exclusivity"
              value={x}
              checked={v.exclusivity === x}
              disabled={locked}
              onChange={() => set('exclusivity', x)}
              className="mt-0.5 size-4 accent-primary"
            />
            <span className="grid gap-0.5">
              <span className="text-sm font-medium">{t(`forum.form.${x}`)}</span>
              <span className="text-xs text-muted-foreground">{t(`forum.form.${x}Hint`)}</span>
            </span>
          </label>
        ))}
        {errors.exclusivity && (
          <p role="alert" className="text-sm font-medium text-destructive">
            {t('forum.form.errors.locked')}
          </p>
        )}
      </fieldset>
      <div className="flex items-center justify-between gap-3">
        <Label htmlFor="forum-share">{t('forum.form.shareEnabled')}</Label>
        <Switch id="forum-share" checked={v.shareEnabled} onCheckedChange={(c) => set('shareEnabled', c)} />
      </div>
      <div className="flex items-center justify-between gap-3">
        <Label htmlFor="forum-free">{t('forum.form.isFree')}</Label>
        <Switch id="forum-free" checked={v.isFree} onCheckedChange={(c) => set('isFree', c)} />
      </div>
      {!v.isFree && (
        <FormField label={t('forum.form.price')} description={t('forum.form.priceHint')} error={errors.price ? t('forum.form.errors.invalidPrice') : undefined}>
          <FieldControl>
            <Input name="price" inputMode="decimal" value={v.price} onChange={(e) => set('price', e.target.value)} />
          </FieldControl>
        </FormField>
      )}
      <DialogFooter>
        <Button type="button" variant="outline" onClick={onCancel}>
          {t('forum.form.cancel')}
        </Button>
        <Button type="submit" disabled={pending || uploading}>
          {pending ? labels.pending : labels.submit}
        </Button>
      </DialogFooter>
    </form>
  )
}
