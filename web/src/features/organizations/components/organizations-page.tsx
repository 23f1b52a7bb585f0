import { useState, type FormEvent } from 'react'
import { useTranslation } from 'react-i18next'
import { Link, useNavigate } from '@tanstack/react-router'
import { Building2, Plus, Search } from 'lucide-react'
import { ImagePicker } from '@/components/image-picker'
import { PageGrid } from '@/components/layout/page-grid'
import { Badge } from '@/components/ui/badge'
import { Button } from '@/components/ui/button'
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from '@/components/ui/dialog'
import { FieldControl, FormField } from '@/components/ui/form-field'
import { Input } from '@/components/ui/input'
import { Skeleton } from '@/components/ui/skeleton'
import { EmptyState, ErrorFallback } from '@/components/ui/states'
import { toast } from '@/components/ui/toast'
import { useDebouncedValue } from '@/hooks/use-debounced-value'
import { useCurrentUser } from '@/lib/session-context'
import { useCreateOrganization } from '../api/create-organization'
import { useOrganizations } from '../api/list-organizations'
import type { Organization } from '../api/types'
import { Pager } from './pager'

const PAGE_SIZE = 25
export const ORG_NAME_MAX = 75

/** OrgLogo is the organization's image, or its initial. */
export function OrgLogo({ org, className = 'size-12' }: { org: Pick<Organization, 'name' | 'image'>; className?: string }) {
  return org.image ? (
    <img src={org.image} alt="" className={`${className} shrink-0 rounded-lg object-cover`} />
  ) : (
    <div aria-hidden className={`${className} flex shrink-0 items-center justify-center rounded-lg bg-primary font-semibold text-primary-foreground`}>
      {org.name.slice(0, 1).toUpperCase()}
    </div>
  )
}

/** OrganizationsPage is /accounts: the organizations the user belongs to (all for super users), by name. */
export function OrganizationsPage() {
  const { t } = useTranslation()
  const me = useCurrentUser()
  const [keyword, setKeyword] = useState('')
  const [page, setPage] = useState(1)
  const [creating, setCreating] = useState(false)
  const debounced = useDebouncedValue(keyword.trim(), 250)
  const list = useOrganizations({ keyword: debounced, page, pageSize: PAGE_SIZE })
  const isSuper = me?.user.role === 'super'
  return (
    <PageGrid>
      <div className="mb-6 flex flex-wrap items-end justify-between gap-3">
        <h1 className="text-2xl font-semibold tracking-tight">{t('accounts.title')}</h1>
        {isSuper && (
          <Button onClick={() => setCreating(true)}>
            <Plus aria-hidden />
            {t('accounts.create')}
          </Button>
        )}
      </div>
      <div className="relative mb-4 max-w-sm">
        <Search className="absolute left-2.5 top-2.5 size-4 text-muted-foreground" aria-hidden />
        <Input
          type="search"
          className="pl-8"
          placeholder={t('accounts.search')}
          aria-label={t('accounts.search')}
          value={keyword}
          onChange={(e) => {
            setKeyword(e.target.value)
            setPage(1)
          }}
        />
      </div>
      {list.isPending ? (
        <div className="grid gap-2" aria-busy="true">
          {[0, 1, 2].map((i) => (
            <Skeleton key={i} className="h-16" />
          ))}
        </div>
      ) : list.isError ? (
        <ErrorFallback message={t('global:error.organizationsLoading')} onRetry={() => void list.refetch()} />
      ) : list.data.results.length === 0 ? (
        <EmptyState icon={<Building2 />}>{t('accounts.empty')}</EmptyState>
      ) : (
        <>
          <ul className="divide-y rounded-xl border" data-testid="accounts-list">
            {list.data.results.map((o) => (
              <li key={o.id} className="flex items-center gap-3 px-4 py-3">
                <OrgLogo org={o} />
                <div className="min-w-0 flex-1">
                  <p className="flex items-center gap-2 truncate font-medium">
                    {o.name}
                    {o.role !== 'member' && <Badge variant="secondary">{t(`accounts.roles.${o.role}`)}</Badge>}
                  </p>
                  <p className="text-xs text-muted-foreground">
                    {t('accounts.communityCount', { count: o.numCommunities })} · {t('accounts.memberCount', { count: o.numMembers })}
                  </p>
                </div>
                <Button asChild variant="outline" size="sm">
                  <Link to="/accounts/$accountId/$view" params={{ accountId: o.id, view: 'settings' }} aria-label={`${t('accounts.open')} ${o.name}`}>
                    {t('accounts.open')}
                  </Link>
                </Button>
              </li>
            ))}
          </ul>
          <Pager page={page} pageSize={PAGE_SIZE} total={list.data.total} onPage={setPage} />
        </>
      )}
      {isSuper && <CreateOrganizationDialog open={creating} onOpenChange={setCreating} />}
    </PageGrid>
  )
}

function CreateOrganizationDialog({ open, onOpenChange }: { open: boolean; onOpenChange: (o: boolean) => void }) {
  const { t } = useTranslation()
  const navigate = useNavigate()
  const create = useCreateOrganization()
  const [name, setName] = useState('')
  const [image, setImage] = useState('')
  const [uploading, setUploading] = useState(false)
  const trimmed = name.trim()
  const invalid = !trimmed || [...trimmed].length > ORG_NAME_MAX
  const submit = (e: FormEvent) => {
    e.preventDefault()
    if (invalid || uploading) return
    create.mutate(
      { name: trimmed, image: image || null },
      {
        onSuccess: ({ id }) => {
          onOpenChange(false)
          setName('')
          setImage('')
          void navigate({ to: '/accounts/$accountId/$view', params: { accountId: id, view: 'settings' } })
        },
        onError: () => toast({ title: t('global:error.organizationCreating'), variant: 'destructive' }),
      },
    )
  }
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent>
        <DialogHeader>
          <DialogTitle>{t('accounts.createTitle')}</DialogTitle>
          <DialogDescription>{t('accounts.createDescription')}</DialogDescription>
        </DialogHeader>
        <form onSubmit={submit} noValidate className="grid gap-4">
          <FormField label={t('accounts.settings.name')} error={name && invalid ? t('accounts.settings.nameRule') : undefined}>
            <FieldControl>
              <Input name="name" value={name} onChange={(e) => setName(e.target.value)} />
            </FieldControl>
          </FormField>
          <ImagePicker label={t('accounts.settings.image')} value={image} onChange={setImage} onUploading={setUploading} />
          <DialogFooter>
            <Button type="button" variant="outline" onClick={() => onOpenChange(false)}>
              {t('accounts.cancel')}
            </Button>
            <Button type="submit" disabled={invalid || uploading || create.isPending}>
              {t('accounts.create')}
            </Button>
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  )
}
