import { useState, type FormEvent } from 'react'
import { useTranslation } from 'react-i18next'
import { useBlocker } from '@tanstack/react-router'
import { Loader2 } from 'lucide-react'
import type { Role, User } from '@/api/client'
import { PageGrid } from '@/components/layout/page-grid'
import { Badge } from '@/components/ui/badge'
import { Button } from '@/components/ui/button'
import { ConfirmDialog } from '@/components/ui/confirm-dialog'
import { FieldControl, FormField } from '@/components/ui/form-field'
import { Input } from '@/components/ui/input'
import { Textarea } from '@/components/ui/textarea'
import { toast } from '@/components/ui/toast'
import { useCurrentUser } from '@/lib/session-context'
import { useMe } from '../api/get-me'
import { useUpdateMe } from '../api/update-me'
import { BIO_MAX, profileBody, serverErrors, validateProfile, valuesOf, type ProfileErrors, type ProfileField, type ProfileValues } from '../lib/profile-form'
import { AvatarEditor } from './avatar-editor'
import { NotificationSettings } from './notification-settings'

/**
 * shownRole is the platform role a person would recognise (spec 000 §6),
 * or nothing: 'user', 'member' and 'guest' are what every member is, words
 * of the system that say nothing to them.
 */
const shownRole = (r: Role) => (r === 'super' || r === 'admin' || r === 'moderator' ? r : undefined)

/**
 * ProfilePage shows the signed-in person's picture, e-mail and role, edits
 * their own fields, and their notification settings (with the insights
 * digest when they administer a forum, which the app layer tells).
 */
export function ProfilePage({ forumAdmin = false }: { forumAdmin?: boolean }) {
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
      <section className="rounded-xl border bg-card p-6" aria-label={t('profile.avatar.label')}>
        <AvatarEditor user={me.user} />
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
      </section>
      {/* The form starts from the session's copy, which a save replaces; it
          is not reset under the person's typing when a fresh read lands. */}
      <ProfileForm user={me.user} />
      <NotificationSettings userId={me.user.id} forumAdmin={forumAdmin} />
    </PageGrid>
  )
}

function ProfileForm({ user }: { user: User }) {
  const { t } = useTranslation()
  const [values, setValues] = useState<ProfileValues>(() => valuesOf(user))
  // What the server holds: the form is changed while they differ.
  const [saved, setSaved] = useState<ProfileValues>(values)
  const [errors, setErrors] = useState<ProfileErrors>({})
  const update = useUpdateMe()
  const changed = (Object.keys(values) as ProfileField[]).some((f) => values[f] !== saved[f])
  // Leaving with changes asks first, as the composer's Cancel does: a link
  // of the app asks here, a reload or a closed tab the browser's own way.
  const leaving = useBlocker({ shouldBlockFn: () => changed, enableBeforeUnload: () => changed, withResolver: true })
  const set = (f: ProfileField) => (e: { target: { value: string } }) => {
    setValues((v) => ({ ...v, [f]: e.target.value }))
    setErrors(({ [f]: _, ...rest }) => rest)
  }
  const errorText = (f: ProfileField) => {
    const e = errors[f]
    return e && ('key' in e ? t(`profile.form.errors.${e.key}`) : e.message)
  }
  const submit = (e: FormEvent) => {
    e.preventDefault()
    const bad = validateProfile(values)
    setErrors(bad)
    if (Object.keys(bad).length > 0) return
    const sent = values
    update.mutate(profileBody(sent), {
      onSuccess: () => {
        setSaved(sent)
        toast({ title: t('profile.form.saved'), variant: 'success' })
      },
      onError: (err) => {
        const fields = serverErrors(err)
        setErrors(fields)
        if (Object.keys(fields).length === 0) toast({ title: t('profile.form.failed'), variant: 'destructive' })
      },
    })
  }
  const line = (f: ProfileField, autoComplete?: string) => (
    <FormField label={t(`profile.form.${f}`)} error={errorText(f)}>
      <FieldControl>
        <Input name={f} value={values[f]} onChange={set(f)} autoComplete={autoComplete} />
      </FieldControl>
    </FormField>
  )
  return (
    <form className="mt-6 grid gap-4 rounded-xl border bg-card p-6" onSubmit={submit} noValidate aria-labelledby="profile-form-title" data-testid="profile-form">
      <h2 id="profile-form-title" className="text-lg font-semibold">
        {t('profile.form.title')}
      </h2>
      <div className="grid gap-4 sm:grid-cols-2">
        {line('firstName', 'given-name')}
        {line('lastName', 'family-name')}
        {line('jobTitle', 'organization-title')}
        {line('company', 'organization')}
      </div>
      <FormField label={t('profile.form.bio')} error={errorText('bio')} description={`${[...values.bio.trim()].length} / ${BIO_MAX}`}>
        <FieldControl>
          <Textarea name="bio" rows={5} value={values.bio} onChange={set('bio')} />
        </FieldControl>
      </FormField>
      <FormField label={t('profile.form.interests')} error={errorText('interests')} description={t('profile.form.interestsHint')}>
        <FieldControl>
          <Input name="interests" value={values.interests} onChange={set('interests')} />
        </FieldControl>
      </FormField>
      <div className="grid gap-4 sm:grid-cols-2">
        {line('school')}
        {line('degree')}
        {line('fieldOfStudy')}
        <FormField label={t('profile.form.graduationYear')} error={errorText('graduationYear')}>
          <FieldControl>
            <Input name="graduationYear" inputMode="numeric" value={values.graduationYear} onChange={set('graduationYear')} />
          </FieldControl>
        </FormField>
      </div>
      <div>
        <Button type="submit" disabled={update.isPending}>
          {update.isPending && <Loader2 className="animate-spin" aria-hidden />}
          {update.isPending ? t('profile.form.saving') : t('profile.form.save')}
        </Button>
      </div>
      <ConfirmDialog
        open={leaving.status === 'blocked'}
        onOpenChange={(open) => !open && leaving.reset?.()}
        title={t('profile.form.leave.title')}
        description={t('profile.form.leave.body')}
        cancelLabel={t('profile.form.leave.keep')}
        confirmLabel={t('profile.form.leave.confirm')}
        onConfirm={() => leaving.proceed?.()}
      />
    </form>
  )
}
