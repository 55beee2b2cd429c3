/**
 * A name the user has not given: empty, or the 'Unknown' older Google
 * sign-ups stored. SPEC §2 shows the e-mail instead; forms show an empty field.
 */
export function isUnknownName(value: string | null | undefined): boolean {
  const name = (value ?? '').trim()
  return name === '' || name === 'Unknown'
}

/** The name to put in an input: '' for an unknown one. */
export function knownName(value: string | null | undefined): string {
  return isUnknownName(value) ? '' : (value ?? '').trim()
}

/**
 * A person's full name, or their e-mail when first or last name is unknown
 * ('Unknown' or empty): the user menu, the team's members.
 */
export function displayName(person: { firstname: string; lastname: string; email: string }): string {
  const first = person.firstname.trim()
  const last = person.lastname.trim()
  if (isUnknownName(first) || isUnknownName(last)) return person.email
  return [first, last].filter(Boolean).join(' ')
}
