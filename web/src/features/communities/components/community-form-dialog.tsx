import { useState, type FormEvent } from 'react'
import { useTranslation } from 'react-i18next'
import { useNavigate } from '@tanstack/react-router'
import { ImagePicker } from '@/components/image-picker'
import { Button } from '@/components/ui/button'
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from '@/components/ui/dialog'
import { FieldControl, FormField } from '@/components/ui/form-field'
import { Input } from '@/components/ui/input'
import { Label } from '@/components/ui/label'
import { Switch } from '@/components/ui/switch'
import { Textarea } from '@/components/ui/textarea'
import { toast } from '@/components/ui/toast'
import { useCreateCommunity } from '../api/create-community'
import { useUpdateCommunity } from '../api/update-community'
import type { Community, CommunityForm, NamedRef } from '../api/types'
import {
  communityFormValues,
  DESCRIPTION_MAX,
  NAME_MAX,
  toCommunityBody,
  validateCommunityForm,
  type CommunityFormValues,
} from '../lib/community-form'

export type CommunityFormTarget = { community: Community } | { organization: NamedRef }

/**
 * CommunityFormDialog creates a community in an organization, or edits one
 * (spec 000 §2.7). Submit stays disabled while the form is invalid; a new
 * community is opened once created.
 */
export function CommunityFormDialog({
  target,
  open,
  onOpenChange,
  onCreated,
}: {
  target: CommunityFormTarget
  open: boolean
  onOpenChange: (o: boolean) => void
  /** Told when a new community is created, as it is opened. */
  onCreated?: () => void
}) {
  const { t } = useTranslation()
  const editing = 'community' in target
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent className="max-h-[90dvh] overflow-y-auto" data-testid="community-form-dialog">
        <DialogHeader>
          <DialogTitle>{editing ? t('communities.form.editTitle') : t('communities.form.createTitle')}</DialogTitle>
          <DialogDescription>
            {editing ? t('communities.form.editDescription') : t('communities.form.createDescription', { organization: target.organization.name })}
          </DialogDescription>
        </DialogHeader>
        {open && (editing ? <EditForm community={target.community} onDone={() => onOpenChange(false)} /> : <CreateForm organizationId={target.organization.id} onDone={() => onOpenChange(false)} onCreated={onCreated} />)}
      </DialogContent>
    </Dialog>
  )
}

function CreateForm({ organizationId, onDone, onCreated }: { organizationId: string; onDone: () => void; onCreated?: () => void }) {
  const { t } = useTranslation()
  const navigate = useNavigate()
  const create = useCreateCommunity(organizationId)
  return (
    <CommunityFormBody
      initial={communityFormValues()}
      pending={create.isPending}
      submitLabel={t('communities.form.create')}
      onCancel={onDone}
      onSubmit={(body, fail) =>
        create.mutate(body, {
          onSuccess: (c) => {
            toast({ title: t('communities.form.created'), variant: 'success' })
            onDone()
            onCreated?.()
            void navigate({ to: '/communities/$communityId', params: { communityId: c.id } })
          },
          onError: (err) => {
            // Creation errors are only logged (spec 000 §8); the form says it failed.
            console.error('community creating', err)
            fail()
          },
        })
      }
    />
  )
}

function EditForm({ community, onDone }: { community: Community; onDone: () => void }) {
  const { t } = useTranslation()
  const update = useUpdateCommunity(community.id)
  const initial = communityFormValues(community)
  const before = toCommunityBody(initial)
  return (
    <CommunityFormBody
      initial={initial}
      pending={update.isPending}
      submitLabel={t('communities.form.save')}
      onCancel={onDone}
      onSubmit={(body, fail) => {
        // Only the changed fields are sent (spec 000 §7).
        const changed = Object.fromEntries(Object.entries(body).filter(([k, v]) => before[k as keyof CommunityForm] !== v)) as Partial<CommunityForm>
        if (Object.keys(changed).length === 0) return onDone()
        update.mutate(changed, {
          onSuccess: () => {
            toast({ title: t('communities.form.saved'), variant: 'success' })
            onDone()
          },
          onError: fail,
        })
      }}
    />
  )
}

function CommunityFormBody({
  initial,
  pending,
  submitLabel,
  onCancel,
  onSubmit,
}: {
  initial: CommunityFormValues
  pending: boolean
  submitLabel: string
  onCancel: () => void
  onSubmit: (body: CommunityForm, fail: () => void) => void
}) {
  const { t } = useTranslation()
  const [v, setV] = useState(initial)
  const [touched, setTouched] = useState<Set<keyof CommunityFormValues>>(new Set())
  const [uploading, setUploading] = useState(false)
  const [serverError, setServerError] = useState<string>()
  const errors = validateCommunityForm(v)
  const invalid = Object.keys(errors).length > 0
  const set = <K extends keyof CommunityFormValues>(k: K, value: CommunityFormValues[K]) => {
    setV((p) => ({ ...p, [k]: value }))
    setTouched((p) => new Set(p).add(k))
  }
  const shown = (k: keyof CommunityFormValues) => {
    const e = touched.has(k) ? errors[k] : undefined
    if (!e) return undefined
    return e === 'tooLong' ? t(`communities.form.errors.${k}TooLong`) : t(`communities.form.errors.${e}`)
  }

  const submit = (e: FormEvent) => {
    e.preventDefault()
    if (invalid || pending || uploading) return
    setServerError(undefined)
    onSubmit(toCommunityBody(v), () => setServerError(t('communities.form.errors.saveFailed')))
  }

  return (
    <form onSubmit={submit} noValidate className="grid gap-4" data-testid="community-form">
      {serverError && (
        <p role="alert" className="text-sm font-medium text-destructive">
          {serverError}
        </p>
      )}
      <FormField label={t('communities.form.name')} error={shown('name')}>
        <FieldControl>
          <Input name="name" value={v.name} maxLength={NAME_MAX + 10} onChange={(e) => set('name', e.target.value)} />
        </FieldControl>
      </FormField>
      <FormField label={t('communities.form.about')} error={shown('description')}>
        <FieldControl>
          <Textarea name="description" rows={4} value={v.description} maxLength={DESCRIPTION_MAX + 10} onChange={(e) => set('description', e.target.value)} />
        </FieldControl>
      </FormField>
      <ImagePicker
        label={t('communities.form.image')}
        value={v.image}
        onChange={(url) => set('image', url)}
        onUploading={setUploading}
        error={shown('image')}
      />
      <FormField label={t('communities.form.video')} description={t('communities.form.videoHint')} error={shown('video')}>
        <FieldControl>
          <Input name="video" type="url" inputMode="url" value={v.video} onChange={(e) => set('video', e.target.value)} />
        </FieldControl>
      </FormField>
      {v.video.trim() && (
        <FormField label={t('communities.form.videoCover')} description={t('communities.form.videoCoverHint')} error={shown('videoCover')}>
          <FieldControl>
            <Input name="videoCover" type="url" inputMode="url" value={v.videoCover} onChange={(e) => set('videoCover', e.target.value)} />
          </FieldControl>
        </FormField>
      )}
      <div className="flex items-center justify-between gap-3">
        <Label htmlFor="community-free">{t('communities.form.isFree')}</Label>
        <Switch id="community-free" checked={v.isFree} onCheckedChange={(c) => set('isFree', c)} />
      </div>
      {!v.isFree && (
        <FormField label={t('communities.form.price')} description={t('communities.form.priceHint')} error={shown('price')}>
          <FieldControl>
            <Input name="price" inputMode="decimal" value={v.price} onChange={(e) => set('price', e.target.value)} />
          </FieldControl>
        </FormField>
      )}
      <div className="flex items-center justify-between gap-3">
        <div className="grid gap-0.5">
          <Label htmlFor="community-sso">{t('communities.form.ssoAccess')}</Label>
          <span className="text-xs text-muted-foreground">{t('communities.form.ssoAccessHint')}</span>
        </div>
        <Switch id="community-sso" checked={v.ssoAccess} onCheckedChange={(c) => set('ssoAccess', c)} />
      </div>
      <DialogFooter>
        <Button type="button" variant="outline" onClick={onCancel}>
          {t('communities.form.cancel')}
        </Button>
        <Button type="submit" disabled={invalid || pending || uploading}>
          {pending ? t('communities.form.saving') : submitLabel}
        </Button>
      </DialogFooter>
    </form>
  )
}
