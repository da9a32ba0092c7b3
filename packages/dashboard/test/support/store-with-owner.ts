import { join } from 'node:path';
import { after, before } from 'node:test';
import { tempDir } from '@paddock/testing';
import { openStore } from '../../src/store/open.js';
import type { Store } from '../../src/store/types.js';

/** A store and the one user its keys belong to, set once the file's `before` hooks have run. */
export interface StoreWithOwner {
  store: Store;
  ownerId: string;
}

/**
 * A SQLite store in a folder of its own holding one builtin user, opened before the calling
 * file's tests and removed after them; `wrap` puts a layer over it (a cache) as a service would.
 */
export function storeWithOwner(
  prefix: string,
  wrap: (store: Store) => Store = (store) => store,
): StoreWithOwner {
  const owned = {} as StoreWithOwner;
  let dir: Awaited<ReturnType<typeof tempDir>>;
  before(async () => {
    dir = await tempDir(prefix);
    owned.store = wrap(await openStore({ kind: 'sqlite', path: join(dir.path, 'keys.db') }));
    owned.ownerId = (
      await owned.store.users.create({
        provider: 'builtin',
        username: 'owner',
        email: 'o@example.com',
      })
    ).id;
  });
  after(async () => {
    await owned.store.close();
    await dir.remove();
  });
  return owned;
}
