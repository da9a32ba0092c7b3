/**
 * Reusable read buffers for a socket read with Node's `onread` option. A socket read the usual way
 * gets a fresh 64 KiB ArrayBuffer per read, and V8 answers every 64 MiB of such external memory
 * with a full collection of the heap: at a GiB per second that is most of a core. A tunnel reads its
 * target into these slabs instead, sends each filled slab as it is, and takes it back once sent.
 */
export class ReadSlabs {
  private readonly spare: Buffer[] = [];
  /** Slabs handed out and not yet given back: read into, or being sent. */
  private out = 0;

  constructor(
    /** Bytes per slab: the most one read returns. */
    readonly slabBytes: number,
    /** Slabs kept for reuse; beyond that a returned slab is left to the collector. */
    private readonly maxSpare: number,
  ) {}

  /** A slab to read into: a spare one, else a new one. */
  readonly take = (): Buffer => {
    this.out++;
    return this.spare.pop() ?? Buffer.allocUnsafe(this.slabBytes);
  };

  /** The slab is no longer referenced (sent, or its bytes were copied): it may be read into again. */
  give(slab: Buffer): void {
    this.out--;
    if (this.spare.length < this.maxSpare) this.spare.push(slab);
  }

  /** The slab will not come back (its send failed: the socket may still hold it). */
  forget(): void {
    this.out--;
  }

  /** Slabs handed out and not given back: the one being read into, and those being sent. */
  get inUse(): number {
    return this.out;
  }
}
