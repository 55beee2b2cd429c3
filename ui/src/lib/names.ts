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
