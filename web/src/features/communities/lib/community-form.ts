import { isHttpUrl, isImageAddress } from '@/lib/forms'
import { embedFor } from '@/lib/media'
import { dollars, PRICE_DEFAULT_CENTS, priceCents } from '@/lib/price'
import type { Community, CommunityForm } from '../api/types'

// The community form (spec 000 §2.7, §5, §9): the rules of POST
// /organizations/{id}/communities and PATCH /communities/{id}, checked
// before the request so the person sees what to fix next to the field, and
// Submit stays disabled while anything is wrong. The server checks again.

export const NAME_MAX = 75
export const DESCRIPTION_MAX = 750

/** The form's values as typed: the price in dollars with cents ("39.95"). */
export type CommunityFormValues = {
  name: string
  description: string
  image: string
  video: string
  videoCover: string
  price: string
  isFree: boolean
  ssoAccess: boolean
}

export type CommunityFormError = 'required' | 'tooLong' | 'invalidUrl' | 'invalidVideo' | 'invalidPrice'
export type CommunityFormErrors = Partial<Record<keyof CommunityFormValues, CommunityFormError>>

/** communityFormValues are the starting values: a community's, or the defaults of a new one. */
export function communityFormValues(c?: Community): CommunityFormValues {
  return {
    name: c?.name ?? '',
    description: c?.description ?? '',
    image: c?.image ?? '',
    video: c?.video ?? '',
    videoCover: c?.videoCover ?? '',
    price: dollars(c?.price ?? PRICE_DEFAULT_CENTS),
    // A new community is free, as a new forum is; the price (spec 000 §9's
    // default) is ready once the admin turns it paid.
    isFree: c?.isFree ?? true,
    ssoAccess: c?.ssoAccess ?? false,
  }
}

/** isVideoLink is a YouTube or Vimeo link whose video can be played (its id can be read). */
export function isVideoLink(s: string) {
  const p = embedFor(s)?.provider
  return p === 'youtube' || p === 'vimeo'
}

const length = (s: string) => [...s].length

/** validateCommunityForm lists what is wrong, by field; empty when the form may be sent. */
export function validateCommunityForm(v: CommunityFormValues): CommunityFormErrors {
  const e: CommunityFormErrors = {}
  const name = v.name.trim()
  const description = v.description.trim()
  if (!name) e.name = 'required'
  else if (length(name) > NAME_MAX) e.name = 'tooLong'
  if (!description) e.description = 'required'
  else if (length(description) > DESCRIPTION_MAX) e.description = 'tooLong'
  if (v.image.trim() && !isImageAddress(v.image.trim())) e.image = 'invalidUrl'
  if (v.video.trim() && !isVideoLink(v.video.trim())) e.video = 'invalidVideo'
  if (v.videoCover.trim() && !isHttpUrl(v.videoCover.trim())) e.videoCover = 'invalidUrl'
  if (!v.isFree && priceCents(v.price) === undefined) e.price = 'invalidPrice'
  return e
}

/**
 * toCommunityBody is the request body of valid values: trimmed text, empty
 * links as null, the price in cents (a free community keeps the default
 * price should it stop being free).
 */
export function toCommunityBody(v: CommunityFormValues): CommunityForm {
  return {
    name: v.name.trim(),
    description: v.description.trim(),
    membershipType: 'invitationOnly',
    image: v.image.trim() || null,
    video: v.video.trim() || null,
    videoCover: v.videoCover.trim() || null,
    ssoAccess: v.ssoAccess,
    price: priceCents(v.price) ?? PRICE_DEFAULT_CENTS,
    isFree: v.isFree,
  }
}
