import { useSyncExternalStore } from 'react'
import { isApiError } from './api-client'

// The step-up of issue 29: a change answered 403 second_factor_required
// (this session has not met the user's second factor lately) opens one
// dialog asking for the code (SecondFactorDialog); once verified, apiRequest
// sends the change again and its caller gets that answer, as if nothing
// had been asked. This is the dialog's tiny store.

/** Whether error asks for the second factor (403 second_factor_required). */
export function needsSecondFactor(error: unknown): boolean {
  return isApiError(error) && error.code === 'second_factor_required'
}

let pending: ((verified: boolean) => void) | null = null
const listeners = new Set<() => void>()

function emit() {
  for (const l of listeners) l()
}

/** Opens the dialog; resolves true once the second factor is verified, false when it is closed. */
export function askSecondFactor(): Promise<boolean> {
  pending?.(false)
  return new Promise((resolve) => {
    pending = resolve
    emit()
  })
}

/** Closes the dialog: verified, the change is sent again. */
export function closeSecondFactor(verified: boolean): void {
  const resolve = pending
  pending = null
  emit()
  resolve?.(verified)
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener)
  return () => listeners.delete(listener)
}

const isOpen = () => pending !== null

/** Whether the dialog is open. */
export function useSecondFactorAsked(): boolean {
  return useSyncExternalStore(subscribe, isOpen, isOpen)
}
