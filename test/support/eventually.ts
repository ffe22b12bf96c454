/**
 * The ceiling of a wait for an event (a delivery, a stored row), for `vi.waitFor`: far above the
 * time the event takes, so that a loaded machine only slows such a test and never fails it. It is
 * no budget: the wait ends as soon as the event is seen.
 */
export const eventually = { timeout: 15_000, interval: 20 };
