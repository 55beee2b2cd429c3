import { useEffect, useRef } from 'react'

/**
 * A ref for the heading of content that replaces what the user just acted
 * on (an enrolment's next step, recovery codes): focus moves there when it
 * appears (issue 37), so a keyboard or screen-reader user goes on from it
 * instead of from the top of the page. The element needs tabIndex={-1}.
 */
export function useFocusOnMount<T extends HTMLElement>() {
  const ref = useRef<T>(null)
  useEffect(() => {
    ref.current?.focus()
  }, [])
  return ref
}
