import { ValidationError } from '../domain/errors.ts';
import { LIMITS } from '../domain/limits.ts';

/** Connection options shared by every list: a page larger than the limit is refused, not cut. */
export const PAGING = {
  maxSize: (args: { first?: number | null; last?: number | null }) => {
    for (const key of ['first', 'last'] as const) {
      const value = args[key];
      if (value != null && value > LIMITS.page.max) {
        throw new ValidationError([{ path: [key], message: `must be at most ${LIMITS.page.max}` }]);
      }
    }
    return LIMITS.page.max;
  },
};
