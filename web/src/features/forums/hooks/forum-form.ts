import type { Schemas } from '@/api/client'
import { isImageAddress } from '@/lib/forms'
import { dollars, PRICE_DEFAULT_CENTS, priceCents } from '@/lib/price'

// The forum form (spec 001 §5): the rules of POST /communities/{id}/series
// and PATCH /series/{id}, checked before the request so a person sees what
// to fix next to the field. The server checks them again. The price and
// free/paid are the community form's (spec 000 §2.7, §5): dollars with cents,
// 0 to 99,999.00.

export const NAME_MAX = 90
export const DESCRIPTION_MAX = 1000

export type ForumFormValues = {
  name: string
  description: string
  image: string
  exclusivity: Schemas['Forum']['exclusivity']
  shareEnabled: boolean
  isFree: boolean
  /** The price a month in dollars with cents ("39.95"), as typed. */
  price: string
}

export type ForumFormErrors = Partial<
  Record<'name' | 'description' | 'image' | 'exclusivity' | 'price', 'required' | 'tooLong' | 'invalidUrl' | 'locked' | 'invalidPrice'>
>

/**
 * formValues are the form's starting values for a forum, or a new one's
 * (invite only, not shared, free as the server makes it by default). A
 * forum without a price offers the community form's default, 39.95, should
 * the admin make it paid.
 */
export const formValues = (f?: Schemas['Forum']): ForumFormValues => ({
  name: f?.name ?? '',
  description: f?.description ?? '',
  image: f?.image ?? '',
  exclusivity: f?.exclusivity ?? 'inviteOnly',
  shareEnabled: f?.shareEnabled ?? false,
  isFree: f?.isFree ?? true,
  price: dollars(f?.price || PRICE_DEFAULT_CENTS),
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
  if (v.image.trim() && !isImageAddress(v.image.trim())) e.image = 'invalidUrl'
  if (was === 'open' && v.exclusivity !== 'open') e.exclusivity = 'locked'
  if (!v.isFree && priceCents(v.price) === undefined) e.price = 'invalidPrice'
  return e
}

/**
 * toPatch is the request body: trimmed text, an empty image as null, the
 * price in cents (a free forum keeps the price shown, should it stop being
 * free, as a community does).
 */
export function toPatch(v: ForumFormValues): Schemas['ForumForm'] {
  return {
    name: v.name.trim(),
    description: v.description.trim(),
    image: v.image.trim() || null,
    exclusivity: v.exclusivity,
    shareEnabled: v.shareEnabled,
    isFree: v.isFree,
    price: priceCents(v.price) ?? PRICE_DEFAULT_CENTS,
  }
}
