/**
 * Each isolate's memory as V8 itself counts it, read over the DevTools protocol (the inspector):
 * the JS heap in use plus the backing stores of its array buffers, sampled at a fixed interval, and
 * the peak of any window of time read from the samples. Shared by the document bench's two stacks:
 * Node's main isolate and its PDF thread (a worker thread, reached through the NodeWorker domain),
 * and workerd's two Workers (one inspector target each).
 */
import { fetch as upgradingFetch } from 'miniflare';

type Message = { id?: number; method?: string; params?: Record<string, unknown>; result?: unknown; error?: { message: string } };
type Send = <T>(method: string, params?: object) => Promise<T>;

/** One DevTools session over a WebSocket (Miniflare's fetch upgrades; Node 20 has no WebSocket of its own). */
export async function devtoolsSession(url: string): Promise<{ send: Send; on: (listener: (m: Message) => void) => void; close: () => void }> {
  const http = new URL(url);
  http.protocol = 'http:';
  const answer = await upgradingFetch(http, { headers: { Upgrade: 'websocket' } });
  const ws = answer.webSocket;
  if (!ws) throw new Error(`No inspector WebSocket at ${http.origin}${http.pathname} (${answer.status})`);
  ws.accept();
  let nextId = 1;
  const waiting = new Map<number, { done: (r: unknown) => void; fail: (e: Error) => void }>();
  const listeners: ((m: Message) => void)[] = [];
  ws.addEventListener('message', (event) => {
    const message = JSON.parse(String(event.data)) as Message;
    if (message.id !== undefined) {
      const call = waiting.get(message.id);
      waiting.delete(message.id);
      if (message.error) call?.fail(new Error(message.error.message));
      else call?.done(message.result);
    } else for (const listener of listeners) listener(message);
  });
  ws.addEventListener('close', () => {
    for (const call of waiting.values()) call.fail(new Error('The inspector closed'));
    waiting.clear();
  });
  const send: Send = (method, params = {}) =>
    new Promise((done, fail) => {
      const id = nextId++;
      waiting.set(id, { done: done as (r: unknown) => void, fail });
      ws.send(JSON.stringify({ id, method, params }));
    });
  return { send, on: (listener) => listeners.push(listener), close: () => ws.close() };
}

/** What Runtime.getHeapUsage answers; the last two only in newer V8 (workerd's, not Node 20's). */
export type HeapUsage = { usedSize: number; totalSize: number; embedderHeapUsedSize?: number; backingStorageSize?: number };
/** One reading: the heap in use and the array buffers' backing stores, in bytes. */
export type Sample = { at: number; heap: number; buffers: number };

/** An isolate to read: `usage` answers one reading, `collect` runs a full garbage collection. */
export type Isolate = { name: string; usage: () => Promise<Omit<Sample, 'at'>>; collect: () => Promise<void>; fields: string[] };

/** Node's main isolate: the heap from V8, the array buffers from process.memoryUsage() (V8 11 has no backingStorageSize). */
function nodeIsolate(name: string, send: Send): Isolate {
  const isolate: Isolate = {
    name,
    fields: [],
    async usage() {
      const [heap, evaluated] = await Promise.all([
        send<HeapUsage>('Runtime.getHeapUsage'),
        send<{ result: { value?: number } }>('Runtime.evaluate', { expression: 'process.memoryUsage().arrayBuffers', returnByValue: true, silent: true }),
      ]);
      isolate.fields = [...Object.keys(heap), 'process.memoryUsage().arrayBuffers'];
      return { heap: heap.usedSize, buffers: heap.backingStorageSize ?? evaluated.result.value ?? 0 };
    },
    collect: () => send('HeapProfiler.collectGarbage').then(() => undefined),
  };
  return isolate;
}

/** A workerd isolate: its V8 answers the backing stores itself. */
function workerdIsolate(name: string, send: Send): Isolate {
  const isolate: Isolate = {
    name,
    fields: [],
    async usage() {
      const heap = await send<HeapUsage>('Runtime.getHeapUsage');
      isolate.fields = Object.keys(heap);
      return { heap: heap.usedSize, buffers: heap.backingStorageSize ?? 0 };
    },
    // workerd's inspector never answers HeapProfiler.collectGarbage: its steps start from whatever the last one left.
    collect: async () => undefined,
  };
  return isolate;
}

/** Node's isolates behind one `--inspect` URL: the main one, and each worker thread as it appears. */
export async function nodeIsolates(url: string): Promise<{ list: () => Isolate[]; close: () => void }> {
  const session = await devtoolsSession(url);
  const isolates: Isolate[] = [nodeIsolate('node main', session.send)];
  const pending = new Map<string, Map<number, { done: (r: unknown) => void; fail: (e: Error) => void }>>();
  session.on((message) => {
    if (message.method === 'NodeWorker.attachedToWorker') {
      const sessionId = message.params!.sessionId as string;
      const title = (message.params!.workerInfo as { title?: string; url?: string }).url ?? 'worker';
      // The service's own threads only: not the thread that runs tsx's module loader hooks.
      if (!/\/src\//.test(title)) return;
      const calls = new Map<number, { done: (r: unknown) => void; fail: (e: Error) => void }>();
      pending.set(sessionId, calls);
      let nextId = 1;
      const send: Send = (method, params = {}) =>
        new Promise((done, fail) => {
          const id = nextId++;
          calls.set(id, { done: done as (r: unknown) => void, fail });
          session.send('NodeWorker.sendMessageToWorker', { sessionId, message: JSON.stringify({ id, method, params }) }).catch(fail);
        });
      const name = /pdf-thread/.test(title) ? 'node PDF thread' : `node worker ${title.split('/').at(-1)}`;
      isolates.push(nodeIsolate(name, send));
    } else if (message.method === 'NodeWorker.receivedMessageFromWorker') {
      const inner = JSON.parse(message.params!.message as string) as Message;
      const calls = pending.get(message.params!.sessionId as string);
      if (inner.id === undefined || !calls) return;
      const call = calls.get(inner.id);
      calls.delete(inner.id);
      if (inner.error) call?.fail(new Error(inner.error.message));
      else call?.done(inner.result);
    } else if (message.method === 'NodeWorker.detachedFromWorker') {
      const calls = pending.get(message.params!.sessionId as string);
      for (const call of calls?.values() ?? []) call.fail(new Error('The worker thread ended'));
      pending.delete(message.params!.sessionId as string);
    }
  });
  await session.send('NodeWorker.enable', { waitForDebuggerOnStart: false });
  return { list: () => isolates, close: session.close };
}

/**
 * workerd's Workers, one inspector target each, read one at a time: workerd keeps one inspector
 * session at a time (a second one connected closes the first, or is never answered), so `focus`
 * moves the one session from Worker to Worker, and a run is repeated for each.
 */
export async function workerdIsolates(inspectorOrigin: string, names: string[]) {
  const targets = (await (await fetch(`${inspectorOrigin}/json/list`)).json()) as { id: string; webSocketDebuggerUrl?: string }[];
  const urls = new Map(
    names.map((name) => {
      // wrangler dev lists more targets than the Workers (its asset and cache services): the Worker's own by its name.
      const target = targets.find((t) => t.id === `core:user:${name}`) ?? targets.find((t) => t.id.endsWith(name));
      if (!target) throw new Error(`No inspector target for ${name} among ${targets.map((t) => t.id).join(', ')}`);
      return [name, target.webSocketDebuggerUrl ?? `${inspectorOrigin}/${target.id}`] as const;
    }),
  );
  let current: { isolate: Isolate; close: () => void } | undefined;
  return {
    list: () => (current ? [current.isolate] : []),
    async focus(name: string) {
      current?.close();
      current = undefined;
      // A new session is at times never answered (the last one's close still in flight?): it is
      // tried until one answers a reading.
      for (let attempt = 1; ; attempt++) {
        const session = await devtoolsSession(urls.get(name)!);
        const isolate = workerdIsolate(`workerd ${name}`, session.send);
        const answered = await Promise.race([
          isolate.usage().then(
            () => true,
            () => false,
          ),
          new Promise<boolean>((resolve) => setTimeout(() => resolve(false), 1500)),
        ]);
        if (answered) {
          current = { isolate, close: session.close };
          return;
        }
        session.close();
        if (attempt === 8) throw new Error(`workerd's inspector does not answer for ${name}`);
      }
    },
    close: () => current?.close(),
  };
}

/**
 * Reads every isolate every `intervalMs`, one reading at a time per isolate (a reading an isolate
 * cannot answer yet, busy in a long synchronous stretch or idle with no task to run, as workerd's
 * PDF Worker between calls, delays its next one rather than piling up).
 */
export function sampleIsolates(list: () => Isolate[], intervalMs: number) {
  const samples = new Map<string, Sample[]>();
  const failures = new Map<string, string>();
  const busy = new Set<string>();
  const timer = setInterval(() => {
    for (const isolate of list()) {
      if (busy.has(isolate.name)) continue;
      busy.add(isolate.name);
      isolate
        .usage()
        .then((reading) => {
          // Stamped when answered: an isolate answers between its tasks, so that is when it held this.
          const list = samples.get(isolate.name) ?? [];
          list.push({ at: performance.now(), ...reading });
          samples.set(isolate.name, list);
        })
        .catch((err: Error) => failures.set(isolate.name, err.message))
        .finally(() => busy.delete(isolate.name));
    }
  }, intervalMs);
  return {
    samples,
    failures,
    /** A full collection in every isolate, so that a step starts from what is still held. */
    collect: () =>
      Promise.allSettled(list().map((isolate) => Promise.race([isolate.collect(), new Promise((resolve) => setTimeout(resolve, COLLECT_TIMEOUT_MS))]))),
    stop: () => clearInterval(timer),
  };
}

/** A collection that has not answered by then is left to finish on its own. */
const COLLECT_TIMEOUT_MS = 3000;

/** Peak of heap + buffers in [from, to] (the first reading after `to` too: it may have been asked while the step still ran). */
export function peakIn(samples: Sample[], from: number, to: number): { total: number; heap: number; buffers: number; readings: number } | undefined {
  const inside = samples.filter((s) => s.at >= from && s.at <= to);
  const after = samples.find((s) => s.at > to);
  const window = after ? [...inside, after] : inside;
  if (!window.length) return undefined;
  const top = window.reduce((a, b) => (b.heap + b.buffers > a.heap + a.buffers ? b : a));
  return { total: top.heap + top.buffers, heap: top.heap, buffers: top.buffers, readings: window.length };
}
