import * as React from 'react'
import * as TooltipPrimitive from '@radix-ui/react-tooltip'
import { cn } from '@/lib/utils'

export const TooltipProvider = TooltipPrimitive.Provider
export const Tooltip = TooltipPrimitive.Root
export const TooltipTrigger = TooltipPrimitive.Trigger

export function TooltipContent({ className, sideOffset = 4, ...props }: React.ComponentProps<typeof TooltipPrimitive.Content>) {
  return (
    <TooltipPrimitive.Portal>
      <TooltipPrimitive.Content
        sideOffset={sideOffset}
        className={cn('z-50 rounded-md bg-foreground px-3 py-1.5 text-xs text-background shadow', className)}
        {...props}
      />
    </TooltipPrimitive.Portal>
  )
}

/**
 * focusShown: whether the browser shows the focus of el (:focus-visible), as
 * it does when the keyboard moved it there, and not when focus came back to
 * a button after a tap or a click closed what it opened.
 */
function focusShown(el: Element) {
  try {
    return el.matches(':focus-visible')
  } catch {
    return true
  }
}

/**
 * Tip wraps a control with a tooltip, shown on hover and when the keyboard
 * reaches the control; not when focus returns to it after a tap or a click
 * closed a sheet or a menu it opened, where it would stay over the page.
 */
export function Tip({ label, children, side }: { label: React.ReactNode; children: React.ReactNode; side?: 'top' | 'right' | 'bottom' | 'left' }) {
  return (
    <Tooltip>
      <TooltipTrigger
        asChild
        onFocus={(e) => {
          // A handled event keeps Radix from opening the tooltip on this focus.
          if (!focusShown(e.currentTarget)) e.preventDefault()
        }}
      >
        {children}
      </TooltipTrigger>
      <TooltipContent side={side}>{label}</TooltipContent>
    </Tooltip>
  )
}
