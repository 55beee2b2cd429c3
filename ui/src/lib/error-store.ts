import { useSyncExternalStore } from 'react'
import type { ApiError } from './api-client'

// A tiny global store behind the SPEC §8 error popup. Mutations (through the
// QueryClient's MutationCache) and a few client-side checks feed it.

export interface ReportedError {
  id: number
  status: number
  message: string
  /** The api's error code, when it narrows the status (409 account_being_deleted). */
  code?: string
}

let current: ReportedError | null = null
let nextId = 1
const listeners = new Set<() => void>()

function emit() {
  for (const l of listeners) l()
}

export function reportError(error: Pick<ApiError, 'status' | 'message'> & { code?: string }): void {
  current = { id: nextId++, status: error.status, message: error.message, code: error.code }
  emit()
}

export function dismissError(id?: number): void {
  if (!current || (id !== undefined && current.id !== id)) return
  current = null
  emit()
}

export function subscribeErrors(listener: () => void): () => void {
  listeners.add(listener)
  return () => listeners.delete(listener)
}

export function getReportedError(): ReportedError | null {
  return current
}

export function useReportedError(): ReportedError | null {
  return useSyncExternalStore(subscribeErrors, getReportedError, getReportedError)
}
