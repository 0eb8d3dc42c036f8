/**
 * A hybrid logical clock (Kulkarni et al., 2014): each stamp is the wall time in ms, a counter for
 * stamps within one millisecond (or behind a clock seen from another device), and the device that
 * made it. Stamps are fixed-width strings, so they compare as strings, and a device's next stamp
 * is later than every stamp it made or saw: an edit made after seeing another is ordered after
 * it, even when the two devices' clocks disagree.
 */

/** Width of the wall time (base 36): good until the year 5188. */
const WALL_DIGITS = 9;
/** Width of the counter (base 36): 1.6 million stamps in one millisecond. */
const COUNT_DIGITS = 4;

/** A stamp: `<wall>.<count>.<device>`; a later stamp is greater as a string. */
export type Stamp = string;

/** The stamp before every stamp (what a device that saw nothing has seen). */
export const ZERO: Stamp = '';

function stamp(wall: number, count: number, device: string): Stamp {
  return `${wall.toString(36).padStart(WALL_DIGITS, '0')}.${count
    .toString(36)
    .padStart(COUNT_DIGITS, '0')}.${device}`;
}

/** The wall time and counter of a stamp. */
function parts(s: Stamp): { wall: number; count: number } {
  return {
    wall: parseInt(s.slice(0, WALL_DIGITS), 36),
    count: parseInt(s.slice(WALL_DIGITS + 1, WALL_DIGITS + 1 + COUNT_DIGITS), 36),
  };
}

/** The wall time of a stamp, ms since the epoch. */
export function wallTime(s: Stamp): number {
  return parts(s).wall;
}

/** Whether `s` is a well-formed stamp (a record from another device is checked before use). */
export function isStamp(s: unknown): s is Stamp {
  return typeof s === 'string' && /^[0-9a-z]{9}\.[0-9a-z]{4}\.[0-9A-Za-z_-]{1,64}$/.test(s);
}

/** One device's clock. */
export class Clock {
  #wall = 0;
  #count = 0;

  /** `now`: the wall clock, ms since the epoch (default `Date.now`). */
  constructor(
    readonly device: string,
    private readonly now: () => number = Date.now,
  ) {}

  /** A new stamp, later than every stamp this clock made or saw. */
  tick(): Stamp {
    const wall = this.now();
    if (wall > this.#wall) {
      this.#wall = wall;
      this.#count = 0;
    } else {
      this.#count++;
    }
    return stamp(this.#wall, this.#count, this.device);
  }

  /** Moves the clock past a stamp seen (made by another device, or by this one before a restart). */
  see(s: Stamp): void {
    if (s === ZERO) return;
    const { wall, count } = parts(s);
    if (wall > this.#wall || (wall === this.#wall && count > this.#count)) {
      this.#wall = wall;
      this.#count = count;
    }
  }
}
