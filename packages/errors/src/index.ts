export {
  AnamnesisError,
  ERROR_CODES,
  isAnamnesisError,
  assertArray,
  assertFinite,
  assertInRange,
  assertNonNegativeInt,
  type ErrorCode,
} from './errors.ts';
