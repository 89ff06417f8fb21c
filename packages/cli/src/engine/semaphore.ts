// The engine's `--parallel` bound.

/**
 * A counting semaphore: at most `n` provider operations at once. Waiters are queued per key (the
 * provider plugin a step uses) and served round-robin across keys, so that resources of two
 * providers registered in a burst interleave instead of one provider's queue running to its end
 * while the other waits (two providers may be two regions, or two plugin processes where the
 * plugin cannot host both). The order among independent resources is not something Pulumi specifies.
 */
export class Semaphore {
  private readonly queues = new Map<unknown, Array<() => void>>();
  private active = 0;
  constructor(private readonly n: number) {}

  /** Waits for a slot; the returned function gives it back (once, however often it is called). */
  async acquire(key?: unknown): Promise<() => void> {
    if (this.active < this.n) this.active++;
    else
      // A released slot is handed straight to the waiter (see release), so none is lost or doubled.
      await new Promise<void>((resolve) => {
        const queue = this.queues.get(key);
        if (queue) queue.push(resolve);
        else this.queues.set(key, [resolve]);
      });
    let held = true;
    return () => {
      if (!held) return;
      held = false;
      this.handOff();
    };
  }

  async run<T>(fn: () => Promise<T>, key?: unknown): Promise<T> {
    const release = await this.acquire(key);
    try {
      return await fn();
    } finally {
      release();
    }
  }

  private handOff(): void {
    const next = this.queues.entries().next();
    if (next.done) {
      this.active--;
      return;
    }
    const [key, queue] = next.value;
    const wake = queue.shift()!;
    // The key goes to the back of the rotation (or leaves it, with no one left waiting).
    this.queues.delete(key);
    if (queue.length) this.queues.set(key, queue);
    wake();
  }
}
