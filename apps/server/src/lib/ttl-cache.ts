/**
 * A small in-process cache whose entries live `ttlMs` at most. Used for reads on every request (the caller's user
 * row, its partner) so that an authenticated read does not pay two database round trips each time. A change made
 * by this process deletes the entry at once; a change made elsewhere (the operator CLI, another server) is seen
 * within `ttlMs`.
 */
export class TtlCache<V> {
  readonly #entries = new Map<string, { value: V; expires: number }>();
  constructor(
    private readonly ttlMs: number,
    private readonly maxEntries = 10_000,
    private readonly now: () => number = Date.now,
  ) {}

  async get(key: string, load: () => Promise<V>): Promise<V> {
    const hit = this.#entries.get(key);
    if (hit && hit.expires > this.now()) return hit.value;
    const value = await load();
    if (this.#entries.size >= this.maxEntries) this.#entries.delete(this.#entries.keys().next().value as string);
    this.#entries.set(key, { value, expires: this.now() + this.ttlMs });
    return value;
  }

  /** The entry, if it is there and fresh, without loading: for callers that can answer at once when it is. */
  peek(key: string): { value: V } | undefined {
    const hit = this.#entries.get(key);
    return hit && hit.expires > this.now() ? { value: hit.value } : undefined;
  }

  delete(key: string) {
    this.#entries.delete(key);
  }

  clear() {
    this.#entries.clear();
  }
}
