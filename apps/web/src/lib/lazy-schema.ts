/**
 * A schema built when first used. The portal's build wraps the contract's module-level schemas in this
 * (`lazyContractSchemas` in vite.config.ts): building them all when the contract's modules are evaluated held a
 * phone's main thread for a third of the portal's start, for schemas most screens never use. Everything reads through
 * to the schema itself, built once, on the first read: its methods, its fields, `instanceof`.
 */
export function lazySchema<T extends object>(build: () => T): T {
  let schema: T | undefined;
  const real = (): T => (schema ??= build());
  return new Proxy(Object.create(null) as T, {
    get: (_, key) => Reflect.get(real(), key),
    set: (_, key, value) => Reflect.set(real(), key, value),
    has: (_, key) => Reflect.has(real(), key),
    ownKeys: () => Reflect.ownKeys(real()),
    // the target is an empty stand-in: a field may only be described as one it could gain (configurable)
    getOwnPropertyDescriptor: (_, key) => {
      const descriptor = Reflect.getOwnPropertyDescriptor(real(), key);
      return descriptor && { ...descriptor, configurable: true };
    },
    defineProperty: (_, key, descriptor) => Reflect.defineProperty(real(), key, descriptor),
    deleteProperty: (_, key) => Reflect.deleteProperty(real(), key),
    getPrototypeOf: () => Reflect.getPrototypeOf(real()),
  });
}
