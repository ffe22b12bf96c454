import type { RecipientStatus } from '../../data/schema.js';

/**
 * The statuses of a recipient who has not yet signed or declined: it may still be their turn. The
 * turn, the signing and declining updates, the signing e-mail and the reminders all read this one list.
 */
export const waitingStatuses = ['pending', 'sent', 'viewed'] as const satisfies readonly RecipientStatus[];

export const isWaiting = (status: RecipientStatus): boolean => (waitingStatuses as readonly RecipientStatus[]).includes(status);
