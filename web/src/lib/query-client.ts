import { MutationCache, QueryClient } from '@tanstack/react-query'
import i18n from '@/i18n'
import { isApiError } from '@/api/client'
import { toast } from '@/components/ui/toast'

/**
 * Failed mutations show a generic toast (spec 000 §8) unless their meta says
 * `silent` (forms that show the error themselves). Cancelled requests and
 * 401s (which sign out with their own message) are silent. Failed queries
 * show their list's error fallback instead.
 */
function mutationError(err: unknown, meta?: Record<string, unknown>) {
  if (meta?.silent) return
  if (err instanceof DOMException && err.name === 'AbortError') return
  if (isApiError(err) && err.status === 401) return
  toast({ title: i18n.t('global:error.genericMessage'), variant: 'destructive' })
}

/** makeQueryClient is the app's query cache (tests build theirs with it too). */
export function makeQueryClient() {
  return new QueryClient({
    mutationCache: new MutationCache({ onError: (err, _vars, _ctx, mutation) => mutationError(err, mutation.meta) }),
    defaultOptions: {
      queries: {
        // 4xx answers will not change on retry; network and 5xx may.
        retry: (count, err) => !(isApiError(err) && err.status < 500) && count < 2,
        staleTime: 30_000,
        refetchOnWindowFocus: false,
      },
    },
  })
}
