/**
 * The queue receives messages two ways: `publish`, and the outbox relay's `relayFromOutbox` where
 * the queue offers it (the embedded one does, marking the outbox rows in the same statement).
 * Tests that watch what a change hands to the queue, or make the queue refuse, watch both.
 */
import { vi } from 'vitest';
import type { Queue, QueueMessage } from '../../src/ports/queue.js';

/** Records every message handed to the queue until `stop`; the queue still receives them. */
export function watchHandOvers(queue: Queue) {
  const spies = [vi.spyOn(queue, 'publish'), ...(queue.relayFromOutbox ? [vi.spyOn(queue as Required<Queue>, 'relayFromOutbox')] : [])];
  return {
    messages: (): QueueMessage[] => spies.flatMap((spy) => spy.mock.calls.flatMap(([messages]) => messages as QueueMessage[])),
    stop: () => {
      for (const spy of spies) spy.mockRestore();
    },
  };
}

/** The queue refuses the next outbox relay, as if it were down (or the process died) after a commit. */
export function refuseNextRelay(queue: Queue, error: Error) {
  const spy = queue.relayFromOutbox
    ? vi.spyOn(queue as Required<Queue>, 'relayFromOutbox').mockRejectedValueOnce(error)
    : vi.spyOn(queue, 'publish').mockRejectedValueOnce(error);
  return spy;
}
