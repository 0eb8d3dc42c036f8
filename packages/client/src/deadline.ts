import { AnamnesisError } from '@anamnesis/errors';

/**
 * Runs `start` with a deadline of `ms` (0: none); `start` gets a `touch` that restarts the clock
 * (progress is a sign of life).
 */
export function withDeadline<T>(
  ms: number,
  what: string,
  start: (touch: () => void) => Promise<T>,
  startClock = true,
): Promise<T> {
  if (!(ms > 0) || ms === Infinity) return start(() => undefined);
  return new Promise<T>((resolve, reject) => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const touch = () => {
      clearTimeout(timer);
      timer = setTimeout(
        () =>
          reject(
            new AnamnesisError('TIMEOUT', `${what}: no answer for ${ms} ms`, {
              details: { call: what, ms },
            }),
          ),
        ms,
      );
    };
    if (startClock) touch();
    start(touch).then(
      (value) => {
        clearTimeout(timer);
        resolve(value);
      },
      (error: unknown) => {
        clearTimeout(timer);
        reject(error);
      },
    );
  });
}
