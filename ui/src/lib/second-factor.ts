import { useSyncExternalStore } from 'react'
import { isApiError } from './api-client'

// The step-up of issue 29: a change answered 403 second_factor_required
// (this session has not met the user's second factor lately) opens one
// dialog asking for the code (SecondFactorDialog); once verified, the
// change is retried. The MutationCache feeds it; this is its tiny store.

/** Whether error asks for the second factor (403 second_factor_required). */
export function needsSecondFactor(error: unknown): boolean {
  return isApiError(error) && error.code === 'second_factor_required'
}

let pending: (() => unknown) | null = null
const listeners = new Set<() => void>()

function emit() {
  for (const l of listeners) l()
}

/** Opens the dialog; retry runs once the second factor is verified. */
export function askSecondFactor(retry: () => unknown): void {
  pending = retry
  emit()
}

/** Closes the dialog; with verified, the change is retried. */
export function closeSecondFactor(verified: boolean): void {
  const retry = pending
  pending = null
  emit()
  if (verified && retry) void Promise.resolve(retry()).catch(() => {})
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
