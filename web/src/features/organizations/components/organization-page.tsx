import { useEffect, useState, type FormEvent, type ReactNode } from 'react'
import { useTranslation } from 'react-i18next'
import { useQueryClient } from '@tanstack/react-query'
import { Link, useNavigate } from '@tanstack/react-router'
import { FileSpreadsheet, KeyRound, Pencil, Search, UserPlus, Users } from 'lucide-react'
import { ImagePicker } from '@/components/image-picker'
import { PageGrid } from '@/components/layout/page-grid'
import { MemberDialog } from '@/components/member-dialog'
import { InvitationBadge, InviteButton, useInvite } from '@/components/invitation-status'
import { MemberImportDialog } from '@/components/member-import-dialog'
import { PersonAvatar } from '@/components/ui/avatar'
import { Badge } from '@/components/ui/badge'
import { Button } from '@/components/ui/button'
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from '@/components/ui/dialog'
import { FieldControl, FormField } from '@/components/ui/form-field'
import { Input } from '@/components/ui/input'
import { Skeleton } from '@/components/ui/skeleton'
import { EmptyState, ErrorFallback } from '@/components/ui/states'
import { toast } from '@/components/ui/toast'
import { useDebouncedValue } from '@/hooks/use-debounced-value'
import { memberTags } from '@/lib/member-form'
import { useCurrentUser } from '@/lib/session-context'
import { addOrganizationProfile } from '../api/add-organization-profile'
import { useDeleteOrganization } from '../api/delete-organization'
import { useOrganization } from '../api/get-organization'
import { inviteOrganizationProfiles } from '../api/invite-organization-profiles'
import { useOrganizationProfiles } from '../api/list-organization-profiles'
import type { Organization, OrgProfile } from '../api/types'
import { useUpdateOrganization } from '../api/update-organization'
import { updateProfile } from '../api/update-profile'
import { ORG_NAME_MAX, OrgLogo } from './organizations-page'
import { IdentityClientForm } from './identity-client-form'
import { Pager } from './pager'
import { ORGANIZATION_VIEWS, type OrganizationView } from '../lib/views'

/**
 * OrganizationPage is /accounts/{id}/{view}: an organization's settings (name,
 * image, single sign-on), its members, and its communities (which the app
 * layer brings from the communities feature). An organization that cannot
 * be read sends the user to the organizations list (/accounts).
 */
export function OrganizationPage({ organizationId, view, communities }: { organizationId: string; view: OrganizationView; communities: (org: Organization) => ReactNode }) {
  const { t } = useTranslation()
  const navigate = useNavigate()
  const org = useOrganization(organizationId)
  useEffect(() => {
    if (!org.isError) return
    toast({ title: t('global:error.organizationGet'), variant: 'destructive' })
    void navigate({ to: '/accounts', replace: true })
  }, [org.isError, navigate, t])
  if (!org.data) {
    return (
      <PageGrid>
        <div className="grid gap-3" aria-busy="true">
          <Skeleton className="h-12 w-1/3" />
          <Skeleton className="h-40" />
        </div>
      </PageGrid>
    )
  }
  const o = org.data
  return (
    <PageGrid>
      <header className="mb-4 flex items-center gap-3">
        <OrgLogo org={o} />
        <div className="min-w-0">
          <p className="text-sm text-muted-foreground">
            <Link to="/accounts" className="hover:underline">
              {t('accounts.title')}
            </Link>
          </p>
          <h1 className="truncate text-2xl font-semibold tracking-tight">{o.name}</h1>
        </div>
      </header>
      <nav className="mb-6 flex gap-1 border-b" aria-label={t('accounts.views')}>
        {ORGANIZATION_VIEWS.map((v) => (
          <Link
            key={v}
            to="/accounts/$accountId/$view"
            params={{ accountId: organizationId, view: v }}
            className="-mb-px border-b-2 border-transparent px-3 py-2 text-sm font-medium text-muted-foreground hover:text-foreground"
            activeProps={{ className: 'border-primary! text-foreground!', 'aria-current': 'page' }}
          >
            {t(`accounts.view.${v}`)}
          </Link>
        ))}
      </nav>
      {view === 'settings' && <SettingsView org={o} />}
      {view === 'members' && <MembersView org={o} />}
      {view === 'communities' && communities(o)}
    </PageGrid>
  )
}

function SettingsView({ org }: { org: Organization }) {
  const { t } = useTranslation()
  const me = useCurrentUser()
  const update = useUpdateOrganization(org.id)
  const [name, setName] = useState(org.name)
  const [image, setImage] = useState(org.image ?? '')
  const [uploading, setUploading] = useState(false)
  const [deleting, setDeleting] = useState(false)
  const trimmed = name.trim()
  const invalid = !trimmed || [...trimmed].length > ORG_NAME_MAX
  const changed = trimmed !== org.name || image !== (org.image ?? '')
  const submit = (e: FormEvent) => {
    e.preventDefault()
    if (invalid || !changed) return
    const body = { ...(trimmed !== org.name ? { name: trimmed } : {}), ...(image !== (org.image ?? '') ? { image: image || null } : {}) }
    update.mutate(body, {
      onSuccess: () => toast({ title: t('accounts.settings.saved'), variant: 'success' }),
      onError: () => toast({ title: t('global:error.organizationUpdating'), variant: 'destructive' }),
    })
  }
  return (
    <div className="grid max-w-xl gap-8">
      <form onSubmit={submit} noValidate className="grid gap-4" data-testid="account-settings">
        <FormField label={t('accounts.settings.name')} error={invalid ? t('accounts.settings.nameRule') : undefined}>
          <FieldControl>
            <Input name="name" value={name} onChange={(e) => setName(e.target.value)} />
          </FieldControl>
        </FormField>
        <ImagePicker label={t('accounts.settings.image')} value={image} onChange={setImage} onUploading={setUploading} />
        <div className="flex gap-2">
          <Button type="submit" disabled={invalid || !changed || uploading || update.isPending}>
            {update.isPending ? t('accounts.saving') : t('accounts.save')}
          </Button>
        </div>
      </form>
      <section className="rounded-xl border p-4" aria-labelledby="sso-title">
        <h2 id="sso-title" className="flex items-center gap-2 font-semibold">
          <KeyRound className="size-4" aria-hidden />
          {t('accounts.settings.sso')}
        </h2>
        <p className="mt-1 text-sm text-muted-foreground" data-testid="sso-status">
          {org.identityClient ? t('accounts.settings.ssoOn', { issuer: org.identityClient }) : t('accounts.settings.ssoOff')}
        </p>
        {canManage(org) && <IdentityClientForm key={org.identityClient ?? ''} org={org} />}
      </section>
      {me?.user.role === 'super' && (
        <section className="rounded-xl border border-destructive/40 p-4">
          <h2 className="font-semibold">{t('accounts.settings.deleteTitle')}</h2>
          <p className="mt-1 text-sm text-muted-foreground">{t('accounts.settings.deleteBody')}</p>
          <Button variant="destructive" className="mt-3" onClick={() => setDeleting(true)}>
            {t('accounts.settings.delete')}
          </Button>
          <DeleteOrganizationDialog org={org} open={deleting} onOpenChange={setDeleting} />
        </section>
      )}
    </div>
  )
}

function DeleteOrganizationDialog({ org, open, onOpenChange }: { org: Organization; open: boolean; onOpenChange: (o: boolean) => void }) {
  const { t } = useTranslation()
  const navigate = useNavigate()
  const del = useDeleteOrganization(org.id)
  const [value, setValue] = useState('')
  const [mismatch, setMismatch] = useState(false)
  const submit = (e: FormEvent) => {
    e.preventDefault()
    if (value.trim() !== org.name.trim()) return setMismatch(true)
    del.mutate(undefined, {
      onSuccess: () => {
        onOpenChange(false)
        void navigate({ to: '/accounts', replace: true })
      },
      onError: () => toast({ title: t('global:error.organizationDeleting'), variant: 'destructive' }),
    })
  }
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent role="alertdialog">
        <DialogHeader>
          <DialogTitle>{t('accounts.settings.deleteTitle')}</DialogTitle>
          <DialogDescription>{t('accounts.settings.deleteConfirm', { name: org.name })}</DialogDescription>
        </DialogHeader>
        <form onSubmit={submit} noValidate className="grid gap-4">
          <FormField label={t('accounts.settings.typeName', { name: org.name })} error={mismatch ? t('global:error.invalidConfirmation') : undefined}>
            <FieldControl>
              <Input
                autoComplete="off"
                value={value}
                onChange={(e) => {
                  setValue(e.target.value)
                  setMismatch(false)
                }}
              />
            </FieldControl>
          </FormField>
          <DialogFooter>
            <Button type="button" variant="outline" onClick={() => onOpenChange(false)}>
              {t('accounts.cancel')}
            </Button>
            <Button type="submit" variant="destructive" disabled={!value.trim() || del.isPending}>
              {t('accounts.settings.delete')}
            </Button>
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  )
}

const PAGE_SIZE = 25

/** canManage: the organization's admins and super users manage its settings and members (spec 000 §6). */
const canManage = (org: Organization) => org.role === 'admin' || org.role === 'super'

function MembersView({ org }: { org: Organization }) {
  const { t } = useTranslation()
  const queryClient = useQueryClient()
  const [keyword, setKeyword] = useState('')
  const [page, setPage] = useState(1)
  const [adding, setAdding] = useState(false)
  const [importing, setImporting] = useState(false)
  const [editing, setEditing] = useState<OrgProfile>()
  const debounced = useDebouncedValue(keyword.trim(), 250)
  const list = useOrganizationProfiles(org.id, { keyword: debounced, page, pageSize: PAGE_SIZE })
  // A row's invitation reloads the list: its label turns to Invited.
  const invite = useInvite((ids) => inviteOrganizationProfiles(org.id, ids), [['organizations', org.id]])
  const manage = canManage(org)
  const roles = [
    { id: 'admin', name: t('accounts.roles.admin') },
    { id: 'member', name: t('accounts.roles.member') },
  ]
  const reload = () => queryClient.invalidateQueries({ queryKey: ['organizations', org.id] })
  const role = (r: string) => (r === 'admin' ? 'admin' : 'member') as OrgProfile['role']
  return (
    <div className="grid gap-4">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <div className="relative max-w-sm flex-1">
          <Search className="absolute left-2.5 top-2.5 size-4 text-muted-foreground" aria-hidden />
          <Input
            type="search"
            className="pl-8"
            placeholder={t('accounts.members.search')}
            aria-label={t('accounts.members.search')}
            value={keyword}
            onChange={(e) => {
              setKeyword(e.target.value)
              setPage(1)
            }}
          />
        </div>
        {manage && (
          <div className="flex flex-wrap gap-2">
            <Button variant="outline" onClick={() => setImporting(true)}>
              <FileSpreadsheet aria-hidden />
              {t('accounts.members.import')}
            </Button>
            <Button onClick={() => setAdding(true)}>
              <UserPlus aria-hidden />
              {t('accounts.members.add')}
            </Button>
          </div>
        )}
      </div>
      {list.isPending ? (
        <div className="grid gap-2" aria-busy="true">
          {[0, 1, 2, 3, 4].map((i) => (
            <Skeleton key={i} className="h-12" />
          ))}
        </div>
      ) : list.isError ? (
        <ErrorFallback message={t('global:error.membersLoading')} onRetry={() => void list.refetch()} />
      ) : list.data.results.length === 0 ? (
        <EmptyState icon={<Users />}>{t('accounts.members.empty')}</EmptyState>
      ) : (
        <>
          <p className="text-sm text-muted-foreground">{t('accounts.memberCount', { count: list.data.total })}</p>
          <ul className="divide-y rounded-xl border" data-testid="account-members">
            {list.data.results.map((p) => (
              <li key={p.id} className="flex items-center gap-3 px-4 py-2.5">
                <PersonAvatar person={p} />
                <div className="min-w-0 flex-1">
                  <p className="flex flex-wrap items-center gap-2 text-sm font-medium">
                    {p.firstName} {p.lastName}
                    {p.role === 'admin' && <Badge variant="secondary">{t('accounts.roles.admin')}</Badge>}
                    <InvitationBadge status={p.status} />
                  </p>
                  <p className="truncate text-xs text-muted-foreground">
                    {p.email}
                    {p.tags.length > 0 && ` · ${p.tags.join(', ')}`}
                  </p>
                </div>
                {manage && <InviteButton person={p} invite={invite} />}
                {manage && (
                  <Button variant="ghost" size="icon" onClick={() => setEditing(p)} aria-label={t('accounts.members.edit', { name: `${p.firstName} ${p.lastName}` })}>
                    <Pencil aria-hidden />
                  </Button>
                )}
              </li>
            ))}
          </ul>
          <Pager page={page} pageSize={PAGE_SIZE} total={list.data.total} onPage={setPage} />
        </>
      )}
      {manage && (
        <>
          <MemberImportDialog target={{ organizationId: org.id }} name={org.name} open={importing} onOpenChange={setImporting} onImported={() => void reload()} />
          <MemberDialog
            open={adding}
            onOpenChange={setAdding}
            title={t('accounts.members.addTitle')}
            description={t('accounts.members.addDescription', { name: org.name })}
            roles={roles}
            failedMessage={t('global:error.memberAdding')}
            onSubmit={async (v) => {
              await addOrganizationProfile(org.id, { firstName: v.firstName, lastName: v.lastName, email: v.email, roleId: role(v.roleId), tags: memberTags(v.tags), sendInvitation: true })
              toast({ title: t('accounts.members.added', { email: v.email }), variant: 'success' })
              await reload()
            }}
          />
          <MemberDialog
            open={!!editing}
            onOpenChange={(o) => !o && setEditing(undefined)}
            title={t('accounts.members.editTitle')}
            roles={roles}
            submitLabel={t('accounts.save')}
            failedMessage={t('global:error.memberUpdating')}
            initial={editing && { firstName: editing.firstName, lastName: editing.lastName, email: editing.email, roleId: editing.role, tags: editing.tags.join(', ') }}
            onSubmit={async (v) => {
              if (!editing) return
              await updateProfile(editing.id, { firstName: v.firstName, lastName: v.lastName, email: v.email, roleId: role(v.roleId), tags: memberTags(v.tags) })
              toast({ title: t('accounts.members.saved'), variant: 'success' })
              await reload()
            }}
          />
        </>
      )}
    </div>
  )
}

