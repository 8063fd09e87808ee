import { ValidationError, type FieldIssue } from './errors.ts';
import { LIMITS } from './limits.ts';

/** Collects every problem of one input, then throws them together. */
export class Checker {
  readonly issues: FieldIssue[] = [];

  fail(path: string[], message: string): void {
    this.issues.push({ path, message });
  }

  /** A string that, when present, is trimmed-non-empty (if required) and at most `max` long. */
  text(value: string | null | undefined, path: string[], max: number, required = false): void {
    if (value === null || value === undefined) {
      if (required) this.fail(path, 'is required');
      return;
    }
    if (required && value.trim() === '') this.fail(path, 'must not be blank');
    else if (value.length > max) this.fail(path, `must be at most ${max} characters (got ${value.length})`);
    else if (LONE_SURROGATE.test(value)) this.fail(path, HALF_A_PAIR);
  }

  range(value: number | null | undefined, path: string[], min: number, max: number, integer = false): void {
    if (value === null || value === undefined) return;
    if (!Number.isFinite(value) || value < min || value > max || (integer && !Number.isInteger(value))) {
      this.fail(path, `must be ${integer ? 'an integer' : 'a number'} between ${min} and ${max}`);
    }
  }

  json(value: unknown, path: string[], { objectOnly = false } = {}): void {
    if (value === null || value === undefined) return;
    if (objectOnly && (typeof value !== 'object' || Array.isArray(value))) {
      this.fail(path, 'must be a JSON object');
      return;
    }
    if (jsonDepth(value) > LIMITS.jsonDepth) {
      this.fail(path, `must nest at most ${LIMITS.jsonDepth} levels`);
      return;
    }
    if (hasLoneSurrogate(value)) {
      this.fail(path, HALF_A_PAIR);
      return;
    }
    const bytes = Buffer.byteLength(JSON.stringify(value));
    if (bytes > LIMITS.jsonBytes) this.fail(path, `must be at most ${LIMITS.jsonBytes} bytes of JSON (got ${bytes})`);
  }

  done(): void {
    if (this.issues.length > 0) throw new ValidationError(this.issues);
  }
}

/**
 * Half of a UTF-16 surrogate pair: no UTF-8 text holds it. PostgreSQL refuses one inside JSON
 * (an unexpected error, before this check), and both databases store text with U+FFFD in its place.
 */
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;
const HALF_A_PAIR = 'must be Unicode text (it holds half of a UTF-16 surrogate pair)';

/** Whether a string of a JSON value, or a key of one of its objects, holds a lone surrogate. */
const hasLoneSurrogate = (value: unknown): boolean => someText(value, (text) => LONE_SURROGATE.test(text));

/**
 * Whether `test` holds for a string of a JSON value or a key of one of its objects. Iterative, as
 * jsonDepth below: JSON.parse accepts any depth.
 */
export function someText(value: unknown, test: (text: string) => boolean): boolean {
  const stack: unknown[] = [value];
  while (stack.length > 0) {
    const node = stack.pop();
    if (typeof node === 'string') {
      if (test(node)) return true;
    } else if (node !== null && typeof node === 'object') {
      for (const [key, child] of Object.entries(node as Record<string, unknown>)) {
        if (test(key)) return true;
        stack.push(child);
      }
    }
  }
  return false;
}

/** The DateTime scalar's form: ISO-8601 with a time zone. */
const INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})$/;

/**
 * What is wrong with `value` as an instant (the API's DateTime, an export's date column), said
 * after its name; null when it is one. Year 0 and beyond 9999 are outside what ISO-8601's four
 * digits and PostgreSQL's literals agree on (PostgreSQL refused 0000-01-01 as out of range, an
 * unexpected error).
 */
export function instantProblem(value: unknown): string | null {
  if (typeof value !== 'string' || !INSTANT.test(value)) return 'must be an ISO-8601 string with a time zone';
  const date = new Date(value);
  if (Number.isNaN(date.getTime()) || !dayOfItsMonth(value)) return 'is not a valid instant';
  const year = date.getUTCFullYear();
  return year >= 1 && year <= 9999 ? null : 'must be between 0001-01-01 and 9999-12-31 (UTC)';
}

/**
 * Whether the day of an INSTANT-shaped text is one its month has. Date refuses days past 31 but
 * takes 2023-02-29 or 04-31 as the first days of the next month, which stored another instant than
 * the one sent.
 */
function dayOfItsMonth(text: string): boolean {
  const year = Number(text.slice(0, 4));
  const month = Number(text.slice(5, 7));
  const day = Number(text.slice(8, 10));
  const leap = year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);
  const days = month === 2 ? (leap ? 29 : 28) : [4, 6, 9, 11].includes(month) ? 30 : 31;
  return day <= days;
}

/**
 * How deeply `value` nests, counted up to `limit + 1` at most. Iterative: a recursive walk overflows
 * the stack on inputs nested thousands of levels deep, which JSON.parse accepts.
 */
export function jsonDepth(value: unknown, limit: number = LIMITS.jsonDepth): number {
  let deepest = 0;
  const stack: [unknown, number][] = [[value, 1]];
  while (stack.length > 0) {
    const [node, level] = stack.pop()!;
    if (node === null || typeof node !== 'object') continue;
    deepest = Math.max(deepest, level);
    if (deepest > limit) return deepest;
    for (const child of Object.values(node as Record<string, unknown>)) stack.push([child, level + 1]);
  }
  return deepest;
}

/** Tag names are stored trimmed, lower case, with inner whitespace as `-`. */
export function normalizeTagName(name: string): string {
  return name.trim().toLowerCase().replace(/\s+/g, '-');
}

const TAG_PATTERN = /^[a-z0-9][a-z0-9._:+#/-]*$/;

export function checkTagNames(c: Checker, names: readonly string[], path: string[]): string[] {
  if (names.length > LIMITS.tagsPerEntry) c.fail(path, `must list at most ${LIMITS.tagsPerEntry} tags`);
  const normalized = names.map(normalizeTagName);
  normalized.forEach((name, i) => {
    if (name.length === 0 || name.length > LIMITS.tagName || !TAG_PATTERN.test(name)) {
      c.fail([...path, String(i)], `must be 1-${LIMITS.tagName} characters: letters, digits and . _ : + # / - (not first)`);
    }
  });
  return [...new Set(normalized)];
}
