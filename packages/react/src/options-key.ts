/**
 * A key of recall options by value, so that `useRecall` starts a recall when they change and not
 * when an equal object is written again at each render.
 */

/**
 * `options` as text, equal for options equal by value: JSON, except that a `Date` is encoded by its
 * time (JSON would turn it into its ISO string, the same key as that string). The key only
 * compares options; recall is given the options object itself, so a `Date` stays a `Date`.
 */
export function optionsKey(options: unknown): string {
  return (
    JSON.stringify(options, function (this: Record<string, unknown>, key, value: unknown) {
      const raw = this[key];
      if (!(raw instanceof Date)) return value;
      const time = raw.getTime();
      return { '\u0000Date': Number.isNaN(time) ? 'invalid' : time };
    }) ?? ''
  );
}
