/**
 * Seeded randomness for the demo market. Every value is drawn from a stream keyed by (seed, labels…),
 * so any piece of the market at any time is a pure function of the seed and that time.
 */

/** FNV-1a over the UTF-16 code units, then a murmur3 finaliser so nearby strings land far apart. */
export function hashString(text: string, h = 0x811c9dc5): number {
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return fmix32(h);
}

export function fmix32(h: number): number {
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}

/** Combines a seed with labels into a 32-bit stream key; labels are joined unambiguously. */
export function streamKey(seed: number | string, ...labels: (string | number)[]): number {
  return extendKey(hashString(String(seed)), ...labels);
}

/** Continues a key with more labels: streamKey(s, a, b) === extendKey(streamKey(s, a), b). */
export function extendKey(key: number, ...labels: (string | number)[]): number {
  let h = key;
  for (const label of labels) h = hashString(`|${label}`, h);
  return h;
}

/** A mulberry32 stream with Box–Muller normals; cheap enough for millions of draws per seed. */
export class Rng {
  private state: number;
  private spare: number | null = null;

  constructor(key: number) {
    this.state = key >>> 0;
  }

  /** Uniform in [0, 1). */
  next(): number {
    this.state = (this.state + 0x6d2b79f5) | 0;
    let t = this.state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }

  /** Uniform in (0, 1]: safe under log(). */
  nextOpen(): number {
    return 1 - this.next();
  }

  normal(): number {
    if (this.spare !== null) {
      const s = this.spare;
      this.spare = null;
      return s;
    }
    const r = Math.sqrt(-2 * Math.log(this.nextOpen()));
    const theta = 2 * Math.PI * this.next();
    this.spare = r * Math.sin(theta);
    return r * Math.cos(theta);
  }

  /** Approximate normal (Irwin–Hall of four uniforms): for minute shocks, where only the variance matters. */
  fastNormal(): number {
    return (this.next() + this.next() + this.next() + this.next() - 2) * 1.7320508075688772;
  }

  uniform(lo: number, hi: number): number {
    return lo + (hi - lo) * this.next();
  }

  int(lo: number, hiInclusive: number): number {
    return lo + Math.floor(this.next() * (hiInclusive - lo + 1));
  }

  chance(p: number): boolean {
    return this.next() < p;
  }

  pick<T>(items: readonly T[]): T {
    return items[Math.floor(this.next() * items.length)];
  }

  /** Exponential waiting time with the given mean. */
  exponential(mean: number): number {
    return -Math.log(this.nextOpen()) * mean;
  }

  /** Pareto-tailed integer ≥ min; alpha near 1.3 gives the heavy tail of option trade sizes. */
  pareto(min: number, alpha: number): number {
    return Math.floor(min / this.nextOpen() ** (1 / alpha));
  }

  /** Poisson count (Knuth for small means, normal approximation above 50). */
  poisson(mean: number): number {
    if (mean > 50) return Math.max(0, Math.round(mean + Math.sqrt(mean) * this.normal()));
    const limit = Math.exp(-mean);
    let k = 0;
    let p = this.next();
    while (p > limit) {
      k++;
      p *= this.next();
    }
    return k;
  }
}

/** Convenience: a stream for (seed, labels…). */
export function rngFor(seed: number | string, ...labels: (string | number)[]): Rng {
  return new Rng(streamKey(seed, ...labels));
}

/** One uniform in [0, 1) for (seed, labels…) without keeping a stream. */
export function uniformFor(seed: number | string, ...labels: (string | number)[]): number {
  return new Rng(streamKey(seed, ...labels)).next();
}
