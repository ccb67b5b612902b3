/**
 * A set of record indices of one block as a bit set (one bit per record, 75 KB for 600,000 keys): what
 * the editor's selection holds per kind, and what whole-selection edits take. Select-all fills words
 * (600,000 keys: 18,750 word writes), membership is a shift and a mask, and the members come out in
 * ascending order by skipping empty words. No object per key (a `Set<number>` of 600,000 numbers, or
 * 600,000 `KeyRef`s, cost tens of MB and hundreds of ms to build).
 */
export class RecordSet {
  private words: Uint32Array;
  private n = 0;

  constructor(capacity = 0) {
    this.words = new Uint32Array((capacity + 31) >>> 5);
  }

  /** Records [0, count). */
  static all(count: number): RecordSet {
    const s = new RecordSet(count);
    s.addRange(0, count);
    return s;
  }

  /** The given records (any order, repeats allowed). */
  static of(records: Iterable<number> | ArrayLike<number>): RecordSet {
    const s = new RecordSet();
    const it = Symbol.iterator in Object(records) ? (records as Iterable<number>) : Array.from(records as ArrayLike<number>);
    for (const r of it) s.add(r);
    return s;
  }

  /** How many records are in the set. */
  get size(): number {
    return this.n;
  }

  has(i: number): boolean {
    const w = i >>> 5;
    return i >= 0 && w < this.words.length && (this.words[w] & (1 << (i & 31))) !== 0;
  }

  private grow(i: number) {
    const need = (i >>> 5) + 1;
    if (need <= this.words.length) return;
    const next = new Uint32Array(Math.max(need, 2 * this.words.length));
    next.set(this.words);
    this.words = next;
  }

  /** Adds record i; true when it was not in the set. */
  add(i: number): boolean {
    if (i < 0 || !Number.isInteger(i)) return false;
    this.grow(i);
    const w = i >>> 5, bit = 1 << (i & 31);
    if (this.words[w] & bit) return false;
    this.words[w] |= bit;
    this.n++;
    return true;
  }

  /** Removes record i; true when it was in the set. */
  delete(i: number): boolean {
    if (!this.has(i)) return false;
    this.words[i >>> 5] &= ~(1 << (i & 31));
    this.n--;
    return true;
  }

  /** Adds records [a, b): whole words at once. */
  addRange(a: number, b: number): void {
    if (b <= a) return;
    this.grow(b - 1);
    let i = a;
    while (i < b && i & 31) this.add(i++);
    for (; i + 32 <= b; i += 32) {
      this.n += 32 - popcount(this.words[i >>> 5]);
      this.words[i >>> 5] = 0xffffffff;
    }
    while (i < b) this.add(i++);
  }

  /** Drops every record >= count (after an edit removed records). */
  truncate(count: number): void {
    if (count >= this.words.length * 32) return;
    const w = count >>> 5;
    if (count & 31) {
      const keep = (1 << (count & 31)) - 1;
      this.n -= popcount(this.words[w] & ~keep);
      this.words[w] &= keep;
    }
    for (let k = (count + 31) >>> 5; k < this.words.length; k++) {
      this.n -= popcount(this.words[k]);
      this.words[k] = 0;
    }
  }

  /** Calls fn for every record, ascending. */
  forEach(fn: (record: number) => void): void {
    const ws = this.words;
    for (let w = 0; w < ws.length; w++) {
      let x = ws[w];
      while (x !== 0) {
        const low = x & -x;
        fn((w << 5) + 31 - Math.clz32(low));
        x ^= low;
      }
    }
  }

  *[Symbol.iterator](): IterableIterator<number> {
    const ws = this.words;
    for (let w = 0; w < ws.length; w++) {
      let x = ws[w];
      while (x !== 0) {
        const low = x & -x;
        yield (w << 5) + 31 - Math.clz32(low);
        x ^= low;
      }
    }
  }

  /** The records, ascending. */
  toArray(): Uint32Array {
    const out = new Uint32Array(this.n);
    let k = 0;
    this.forEach((r) => (out[k++] = r));
    return out;
  }

  /** Smallest record, or −1 when empty. */
  first(): number {
    const ws = this.words;
    for (let w = 0; w < ws.length; w++) if (ws[w]) return (w << 5) + 31 - Math.clz32(ws[w] & -ws[w]);
    return -1;
  }

  /** Largest record, or −1 when empty. */
  last(): number {
    const ws = this.words;
    for (let w = ws.length - 1; w >= 0; w--) if (ws[w]) return (w << 5) + 31 - Math.clz32(ws[w]);
    return -1;
  }

  /** True when the set holds exactly records [0, count). */
  isAll(count: number): boolean {
    return this.n === count && (count === 0 || this.last() === count - 1);
  }

  clone(): RecordSet {
    const s = new RecordSet();
    s.words = this.words.slice();
    s.n = this.n;
    return s;
  }
}

function popcount(x: number): number {
  x -= (x >>> 1) & 0x55555555;
  x = (x & 0x33333333) + ((x >>> 2) & 0x33333333);
  x = (x + (x >>> 4)) & 0x0f0f0f0f;
  return Math.imul(x, 0x01010101) >>> 24;
}
