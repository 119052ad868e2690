import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';

/** Where report files live. The file implementation keeps them under DATA_DIR; an object store can replace it. */
export type FileStorage = {
  /** a writer for a new file; `commit` makes it visible under `key` at once, `abort` drops it */
  create(key: string): Promise<{ write(chunk: string): Promise<void>; commit(): Promise<void>; abort(): Promise<void> }>;
  read(key: string): NodeJS.ReadableStream;
  exists(key: string): Promise<boolean>;
  remove(key: string): Promise<void>;
};

export function diskStorage(root: string): FileStorage {
  const full = (key: string) => {
    const p = path.resolve(root, key);
    if (!p.startsWith(path.resolve(root) + path.sep)) throw new Error('storage key outside its root');
    return p;
  };
  return {
    async create(key) {
      const target = full(key);
      const temp = `${target}.part`;
      await fsp.mkdir(path.dirname(target), { recursive: true });
      const handle = await fsp.open(temp, 'w'); // 'w' truncates: a restarted job never appends to a half-written file
      return {
        write: async (chunk) => void (await handle.write(chunk)),
        commit: async () => {
          await handle.close();
          await fsp.rename(temp, target);
        },
        abort: async () => {
          await handle.close().catch(() => undefined);
          await fsp.rm(temp, { force: true });
        },
      };
    },
    read: (key) => fs.createReadStream(full(key)),
    exists: async (key) =>
      fsp.access(full(key)).then(
        () => true,
        () => false,
      ),
    remove: (key) => fsp.rm(full(key), { force: true }),
  };
}
