import * as React from 'react'
import { cn } from '@/lib/utils'
import { Label } from './label'

type FieldContext = { id: string; errorId: string; descriptionId: string; invalid: boolean; hasDescription: boolean }
const Ctx = React.createContext<FieldContext | null>(null)

/**
 * FormField lays out a label, one control, an optional description and an
 * error message, and wires their ids (aria-describedby, aria-invalid) so
 * screen readers announce the error with the control.
 */
export function FormField({
  label,
  error,
  description,
  className,
  children,
}: {
  label: React.ReactNode
  error?: React.ReactNode
  description?: React.ReactNode
  className?: string
  children: React.ReactNode
}) {
  const id = React.useId()
  const ctx: FieldContext = {
    id,
    errorId: `${id}-error`,
    descriptionId: `${id}-description`,
    invalid: !!error,
    hasDescription: !!description,
  }
  return (
    <Ctx.Provider value={ctx}>
      <div className={cn('grid gap-1.5', className)}>
        <Label htmlFor={id}>{label}</Label>
        {children}
        {description && (
          <div id={ctx.descriptionId} className="text-xs text-muted-foreground">
            {description}
          </div>
        )}
        {error && (
          <p id={ctx.errorId} role="alert" className="text-sm font-medium text-destructive">
            {error}
          </p>
        )}
      </div>
    </Ctx.Provider>
  )
}

/** useFieldProps gives the control of a FormField its id and ARIA wiring. */
export function useFieldProps() {
  const ctx = React.useContext(Ctx)
  if (!ctx) throw new Error('useFieldProps must be used inside FormField')
  const describedBy = [ctx.hasDescription && ctx.descriptionId, ctx.invalid && ctx.errorId].filter(Boolean).join(' ')
  return { id: ctx.id, 'aria-invalid': ctx.invalid || undefined, 'aria-describedby': describedBy || undefined }
}

/** FieldControl renders its only child with the field's id and ARIA props. */
export function FieldControl({ children }: { children: React.ReactElement<Record<string, unknown>> }) {
  const props = useFieldProps()
  return React.cloneElement(children, props)
}
