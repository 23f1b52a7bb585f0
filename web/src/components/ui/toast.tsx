import * as React from 'react'
import * as ToastPrimitive from '@radix-ui/react-toast'
import { cva } from 'class-variance-authority'
import { X } from 'lucide-react'
import { cn } from '@/lib/utils'

// A small toast store: toast() may be called from anywhere (the API
// client's 401 handler, mutations), and <Toaster /> renders the queue.
// Toasts hide after 6000 ms (spec 000 §9).

export type ToastInput = { title: string; description?: string; variant?: 'default' | 'destructive' | 'success' }
type ToastItem = ToastInput & { id: number }

let items: ToastItem[] = []
let nextId = 1
const listeners = new Set<() => void>()
const emit = () => listeners.forEach((l) => l())

/** toast shows a toast, and gives what takes it away before it hides by itself. */
export function toast(input: ToastInput): () => void {
  const id = nextId++
  items = [...items.filter((t) => t.title !== input.title), { ...input, id }].slice(-3)
  emit()
  return () => dismiss(id)
}

function dismiss(id: number) {
  items = items.filter((t) => t.id !== id)
  emit()
}

/**
 * clearToasts empties the queue. The store outlives a rendered app, so tests
 * call it between cases: a toast left from one case would otherwise be the
 * top layer in the next and take its Escape key.
 */
export function clearToasts() {
  items = []
  emit()
}

function useToasts() {
  return React.useSyncExternalStore(
    (l) => {
      listeners.add(l)
      return () => listeners.delete(l)
    },
    () => items,
    () => items,
  )
}

const toastVariants = cva(
  'pointer-events-auto relative flex w-full items-start justify-between gap-3 overflow-hidden rounded-md border p-4 pr-8 shadow-lg',
  {
    variants: {
      variant: {
        default: 'border bg-background text-foreground',
        destructive: 'border-destructive bg-destructive text-destructive-foreground',
        success: 'border-success bg-background text-foreground',
      },
    },
    defaultVariants: { variant: 'default' },
  },
)

export function Toaster() {
  const toasts = useToasts()
  return (
    <ToastPrimitive.Provider duration={6000} label="Notification">
      {toasts.map((t) => (
        <ToastPrimitive.Root
          key={t.id}
          className={toastVariants({ variant: t.variant })}
          onOpenChange={(open) => !open && dismiss(t.id)}
          data-testid="toast"
        >
          <div className="grid gap-1">
            <ToastPrimitive.Title className="text-sm font-semibold">{t.title}</ToastPrimitive.Title>
            {t.description && <ToastPrimitive.Description className="text-sm opacity-90">{t.description}</ToastPrimitive.Description>}
          </div>
          <ToastPrimitive.Close className="absolute right-2 top-2 rounded-md p-1 opacity-70 hover:opacity-100 focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring">
            <X className="size-4" />
            <span className="sr-only">Close</span>
          </ToastPrimitive.Close>
        </ToastPrimitive.Root>
      ))}
      <ToastPrimitive.Viewport
        className={cn('fixed bottom-0 right-0 z-[100] flex max-h-screen w-full flex-col gap-2 p-4 sm:max-w-[420px]')}
      />
    </ToastPrimitive.Provider>
  )
}
