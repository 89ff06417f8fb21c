import { Repository } from '../../core/repository';
import type { Clock } from '../../core/clock';
import type { Store } from '../../store/store';

interface StoredObject {
  namespace: string;
  bucket: string;
  name: string;
  content: string;
}

/**
 * A minimal Object Storage stand-in: text objects addressed by namespace, bucket and name.
 * AI Language training datasets point at objects; they are uploaded through
 * `PUT /_ocikit/objects/<namespace>/<bucket>/<object>` (the Object Storage API itself is not
 * emulated).
 */
export class ObjectStore {
  private readonly repository: Repository<StoredObject>;

  constructor(store: Store, clock: Clock) {
    this.repository = new Repository<StoredObject>(store, { name: 'objects', columns: {} }, clock);
  }

  private static key(namespace: string, bucket: string, name: string): string {
    return JSON.stringify([namespace, bucket, name]);
  }

  put(namespace: string, bucket: string, name: string, content: string): void {
    this.repository.save({
      id: ObjectStore.key(namespace, bucket, name),
      region: 'global',
      body: { namespace, bucket, name, content },
      transitions: [],
    });
  }

  get(namespace: string, bucket: string, name: string): string | undefined {
    return this.repository.find(ObjectStore.key(namespace, bucket, name))?.body.content;
  }
}
