import { Construction } from 'lucide-react'
import { EmptyState } from '@/components/ui/states'
import { PageGrid } from '@/components/layout/page-grid'

/** ComingSoon holds a route whose feature arrives with a later issue. */
export function ComingSoon({ title, body }: { title: string; body: string }) {
  return (
    <PageGrid>
      <h1 className="text-2xl font-semibold tracking-tight">{title}</h1>
      <EmptyState icon={<Construction />}>{body}</EmptyState>
    </PageGrid>
  )
}
