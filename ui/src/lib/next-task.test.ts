import { afterEach, describe, expect, it, vi } from 'vitest'
import { nextTask } from './next-task'

describe('nextTask', () => {
  afterEach(() => {
    vi.unstubAllGlobals()
    vi.useRealTimers()
  })

  it('uses scheduler.yield where the browser has it', async () => {
    const yieldFn = vi.fn(() => Promise.resolve())
    vi.stubGlobal('scheduler', { yield: yieldFn })
    await nextTask()
    expect(yieldFn).toHaveBeenCalledTimes(1)
  })

  it('otherwise resolves from a timer, not in the current task', async () => {
    vi.stubGlobal('scheduler', undefined)
    vi.useFakeTimers()
    let done = false
    const waiting = nextTask().then(() => {
      done = true
    })
    await Promise.resolve()
    expect(done).toBe(false)
    await vi.runAllTimersAsync()
    await waiting
    expect(done).toBe(true)
  })
})
