/**
 * The production limits count in windows of fixed length from the epoch, on the real clock, and
 * weigh the window before by how much of it still lies in the sliding window. Calls made across a
 * window's edge are then counted as slightly fewer than they are: a test that makes exactly a
 * limit's calls and expects the next refused would, at the edge, see it allowed.
 *
 * Resolves at once when the current window has `needMs` left; otherwise once the next one begins
 * (a wait for that instant, at most `needMs`).
 */
export async function clearOfWindowEdge(windowMs: number, needMs: number): Promise<void> {
  const left = windowMs - (Date.now() % windowMs);
  if (left < needMs) await new Promise((resolve) => setTimeout(resolve, left + 1));
}
