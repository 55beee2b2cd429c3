// Long work cut into tasks: a task that holds the main thread over 50 ms
// delays input and counts as blocking time (Lighthouse's TBT).

type Scheduler = { yield?: () => Promise<void> }

/**
 * Resolves in a later task of the main thread, after the browser has had the
 * chance to paint and answer input: the Prioritized Task Scheduling API's
 * scheduler.yield() where the browser has it (it keeps the rest of the work
 * ahead of other queued tasks), a timer otherwise.
 */
export function nextTask(): Promise<void> {
  const scheduler = (globalThis as { scheduler?: Scheduler }).scheduler
  if (typeof scheduler?.yield === 'function') return scheduler.yield()
  return new Promise((resolve) => setTimeout(resolve, 0))
}
