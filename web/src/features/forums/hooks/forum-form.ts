import type { Schemas } from '@/api/client'
import { isHttpUrl } from '@/lib/forms'

// The forum form (spec 001 §5): the rules of POST /communities/{id}/series
// and PATCH /series/{id}, checked before the request so a person sees what
// to fix next to the field. The server checks them again.

export const NAME_MAX = 90
export const DESCRIPTION_MAX = 1000

export type ForumFormValues = {
  name: string
  description: string
  image: string
  exclusivity: Schemas['Forum']['exclusivity']
  shareEnabled: boolean
}

export type ForumFormErrors = Partial<Record<'name' | 'description' | 'image' | 'exclusivity', 'required' | 'tooLong' | 'invalidUrl' | 'locked'>>

/** formValues are the form's starting values for a forum, or a new one's (invite only, not shared). */
export const formValues = (f?: Schemas['Forum']): ForumFormValues => ({
  name: f?.name ?? '',
  description: f?.description ?? '',
  image: f?.image ?? '',
  exclusivity: f?.exclusivity ?? 'inviteOnly',
  shareEnabled: f?.shareEnabled ?? false,
})

/**
 * validateForumForm checks the values against the rules; `was` is the
 * exclusivity the forum had, since open cannot go back to inviteOnly.
 */
export function validateForumForm(v: ForumFormValues, was?: ForumFormValues['exclusivity']): ForumFormErrors {
  const e: ForumFormErrors = {}
  const name = v.name.trim()
  const description = v.description.trim()
  if (!name) e.name = 'required'
  else if ([...name].length > NAME_MAX) e.name = 'tooLong'
  if (!description) e.description = 'required'
  else if ([...description].length > DESCRIPTION_MAX) e.description = 'tooLong'
  if (v.image.trim() && !isHttpUrl(v.image.trim())) e.image = 'invalidUrl'
  if (was === 'open' && v.exclusivity !== 'open') e.exclusivity = 'locked'
  return e
}

/** toPatch is the request body: trimmed text, an empty image as null. */
export function toPatch(v: ForumFormValues): Schemas['ForumForm'] {
  return {
    name: v.name.trim(),
    description: v.description.trim(),
    image: v.image.trim() || null,
    exclusivity: v.exclusivity,
    shareEnabled: v.shareEnabled,
  }
}
